import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { recoveryResetSchema } from '@smartconnect/contracts';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { isApiError } from '../../shared/api/errors.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAction } from '../../shared/use-call.ts';
import { recoveryReset } from './api.ts';
import { ExpiredLink } from './recovery-email-step.tsx';

/** Recovery step 2: new password and its repeat. */
export function RecoveryPasswordStep({ token }: { token: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'form' | 'done' | 'expired'>('form');
  const form = useForm({
    initialValues: { password: '', repeatPassword: '' },
    validate: zodValidate(recoveryResetSchema, (v: { password: string; repeatPassword: string }) => ({
      ...v,
      token,
    })),
  });
  const reset = useAction({
    call: (v: { password: string; repeatPassword: string }) => recoveryReset({ ...v, token }),
    onSuccess: () => setState('done'),
    onError: (err) => {
      if (isApiError(err) && err.code === 'recoveryLinkExpiredException') setState('expired');
      else showServerErrors(form, err);
    },
  });
  if (state === 'expired') return <ExpiredLink />;
  if (state === 'done')
    return (
      <Alert
        color="teal"
        variant="light"
        icon={<IconCircleCheck size={20} />}
        title={t('restore.doneTitle')}
        data-testid="recovery-done"
      >
        {t('restore.doneHint')}
      </Alert>
    );
  return (
    <form noValidate onSubmit={form.onSubmit((v) => reset.mutate(v))}>
      <Stack gap="lg">
        <div>
          <Text fw={600}>{t('restore.newTitle')}</Text>
          <Text c="dimmed" size="sm">
            {t('restore.newHint')}
          </Text>
        </div>
        <PasswordInput
          label={t('restore.password')}
          size="md"
          withAsterisk
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('restore.repeat')}
          size="md"
          withAsterisk
          autoComplete="new-password"
          {...form.getInputProps('repeatPassword')}
        />
        <Button type="submit" size="md" fullWidth loading={reset.isPending}>
          {t('restore.savePassword')}
        </Button>
      </Stack>
    </form>
  );
}
