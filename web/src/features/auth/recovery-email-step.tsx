import { Alert, Anchor, Button, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { recoveryRequestSchema } from '@smartconnect/contracts';
import { IconClockX, IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../shared/api/errors.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { translateError, useTranslation } from '../../shared/i18n/index.ts';
import { RichText } from '../../shared/ui/rich-text.tsx';
import { useAction } from '../../shared/use-call.ts';
import { CaptchaField } from '../signup/captcha-field.tsx';
import { recoveryRequest } from './api.ts';

/** Recovery step 1: the e-mail; then 'Email sent to {email}'. */
export function RecoveryEmailStep() {
  const { t } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const form = useForm({
    initialValues: { email: '', captcha: '' },
    validate: zodValidate(recoveryRequestSchema),
    validateInputOnBlur: ['email'],
  });
  const send = useAction({
    call: recoveryRequest,
    onSuccess: (r) => setSentTo(r.email),
    onError: (err) => {
      // A captcha solution is good once: whatever went wrong, the next try gets a new one.
      setCaptchaKey((k) => k + 1);
      if (isApiError(err) && err.code === 'invalidCaptchaException')
        form.setFieldError('captcha', translateError(err.code));
      else if (isApiError(err) && !err.fields && err.status > 0)
        form.setFieldError('email', translateError(err.code));
      else showServerErrors(form, err);
    },
  });
  if (sentTo)
    return (
      <Alert
        color="teal"
        variant="light"
        icon={<IconMailCheck size={20} />}
        title={t('restore.sentTitle')}
        data-testid="recovery-sent"
      >
        <Text size="sm" fw={600}>
          {t('restore.sent', { email: sentTo })}
        </Text>
        <Text size="sm" mt={4}>
          {t('restore.sentHint')}
        </Text>
      </Alert>
    );
  return (
    <form noValidate onSubmit={form.onSubmit((v) => send.mutate(v))}>
      <Stack gap="lg">
        <Text c="dimmed">{t('restore.emailHint')}</Text>
        <TextInput
          label={t('login.email')}
          type="email"
          size="md"
          withAsterisk
          autoComplete="username"
          {...form.getInputProps('email')}
        />
        <CaptchaField
          key={captchaKey}
          onChange={(payload) => form.setFieldValue('captcha', payload ?? '')}
          error={form.errors.captcha as string | undefined}
        />
        <Button type="submit" size="md" fullWidth loading={send.isPending}>
          {t('restore.send')}
        </Button>
      </Stack>
    </form>
  );
}

/** The expired-link notice of §8, one translated sentence with its 'try again' link (§2.4). */
export function ExpiredLink() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="recovery-expired">
      <ThemeIcon size={56} radius="md" variant="light" color="orange">
        <IconClockX size={30} />
      </ThemeIcon>
      <Text fw={600}>{t('restore.expiredTitle')}</Text>
      <Text c="dimmed">
        <RichText
          text={t('restore.expired')}
          components={{ retry: <Anchor component={Link} to="/restore" fw={600} /> }}
        />
      </Text>
    </Stack>
  );
}
