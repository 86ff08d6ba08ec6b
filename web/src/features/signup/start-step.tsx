// The public entry loads only the styles its pages use (app/public-styles.ts): the checkbox's come with this step.
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import { Alert, Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { signupStartSchema } from '@smartconnect/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../shared/api/errors.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { storedLanguage, translateError, useTranslation } from '../../shared/i18n/index.ts';
import { startSignup } from './api.ts';
import { CaptchaField } from './captcha-field.tsx';

type Values = { company: string; email: string; phone: string; consent: boolean; captcha: string };
/** Errors that belong under one field rather than above the form. */
const FIELD_OF: Partial<Record<string, keyof Values>> = {
  invalidCaptchaException: 'captcha',
  invalidPhoneException: 'phone',
  emailAlreadyExistsException: 'email',
};

/** The first step: the form and the captcha; the server sends the e-mail code and answers the token. */
export function StartStep({ onStarted }: { onStarted(token: string): void }) {
  const { t } = useTranslation();
  const [captchaKey, setCaptchaKey] = useState(0);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { company: '', email: '', phone: '', consent: false, captcha: '' },
    validate: zodValidate(signupStartSchema),
    validateInputOnBlur: ['company', 'email', 'phone'],
  });
  const start = useMutation({
    mutationFn: (v: Values) => startSignup({ ...v, consent: v.consent as true, language: storedLanguage() }),
    meta: { form: true },
    onSuccess: (state) => onStarted(state.token),
    onError: (err) => {
      // A captcha solution is good once: whatever went wrong, the next try gets a new one.
      setCaptchaKey((k) => k + 1);
      if (!isApiError(err)) return;
      const field = FIELD_OF[err.code];
      if (field) form.setFieldError(field, translateError(err.code));
      else if (err.fields) showServerErrors(form, err);
      else setFailure(translateError(err.code));
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((v) => {
        setFailure(null);
        start.mutate(v);
      })}
    >
      <Stack gap="md">
        <Text c="dimmed">{t('signup.hint')}</Text>
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label={t('signup.company')}
          withAsterisk
          autoComplete="organization"
          {...form.getInputProps('company')}
        />
        <TextInput
          label={t('signup.email')}
          type="email"
          withAsterisk
          autoComplete="email"
          {...form.getInputProps('email')}
        />
        <TextInput
          label={t('signup.phone')}
          type="tel"
          withAsterisk
          autoComplete="tel"
          placeholder="+7 900 000-00-00"
          {...form.getInputProps('phone')}
        />
        <Checkbox label={t('signup.consent')} {...form.getInputProps('consent', { type: 'checkbox' })} />
        <CaptchaField
          key={captchaKey}
          onChange={(payload) => form.setFieldValue('captcha', payload ?? '')}
          error={form.errors.captcha as string | undefined}
        />
        <Button type="submit" size="md" fullWidth loading={start.isPending}>
          {t('signup.submit')}
        </Button>
      </Stack>
    </form>
  );
}
