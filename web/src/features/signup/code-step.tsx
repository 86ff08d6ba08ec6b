import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type SignupState, signupCodeSchema } from '@smartconnect/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { type ApiError, isApiError } from '../../shared/api/errors.ts';
import { zodValidate } from '../../shared/form.ts';
import { translateError, useTranslation } from '../../shared/i18n/index.ts';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { fetchSignup, resendCode, sendCode } from './api.ts';
import { signupKeys } from './keys.ts';

/** Seconds until a moment, counted down once a second. */
function useSecondsUntil(at: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return at ? Math.max(0, Math.ceil((new Date(at).getTime() - now) / 1000)) : 0;
}

/** The message of a refused code: wrong (with the tries left), expired, or out of tries. */
function codeError(t: (k: string, o?: Record<string, unknown>) => string, err: ApiError): string {
  const reason = err.details?.reason;
  if (reason === 'expired') return t('signup.codeExpired');
  if (reason === 'attempts') return t('signup.codeSpent');
  const left = Number(err.details?.attemptsLeft);
  return Number.isFinite(left)
    ? `${translateError(err.code)}. ${t('signup.attemptsLeft', { count: left })}`
    : translateError(err.code);
}

/** The e-mail code, then the SMS code, of the registration `token`; `onDone` gets the administrator's session. */
export function CodeStep({ token, onDone }: { token: string; onDone(session: string): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const key = signupKeys.state(token);
  const state = useQuery({
    queryKey: key,
    queryFn: () => fetchSignup(token),
    retry: false,
    meta: { silent: true },
  });
  const form = useForm({ initialValues: { code: '' }, validate: zodValidate(signupCodeSchema) });
  const [notice, setNotice] = useState<string | null>(null);
  const update = (s: SignupState) => {
    client.setQueryData(key, s);
    form.reset();
    if (s.stage === 'done' && s.session) onDone(s.session);
  };
  const onError = (err: unknown) => {
    if (!isApiError(err)) return;
    if (err.code === 'wrongStageException') void state.refetch();
    if (err.code === 'invalidEmailCodeException' || err.code === 'invalidPhoneCodeException')
      form.setFieldError('code', codeError(t, err));
    else if (err.fields?.code) form.setFieldError('code', translateError('validationException'));
    else setNotice(translateError(err.code));
  };
  const stage = state.data?.stage === 'phone' ? 'phone' : 'email';
  const confirm = useMutation({
    mutationFn: (code: string) => sendCode(token, stage, code),
    meta: { form: true },
    onSuccess: update,
    onError,
  });
  const resend = useMutation({
    mutationFn: () => resendCode(token),
    meta: { form: true },
    onSuccess: (s) => {
      update(s);
      setNotice(t('signup.resent'));
    },
    onError,
  });
  const wait = useSecondsUntil(state.data?.resendAt ?? null);
  if (state.isLoading) return <SectionLoader />;
  if (state.isError || !state.data)
    return (
      <Alert
        color="orange"
        variant="light"
        data-testid="signup-expired"
        title={translateError('registrationException')}
      >
        <Text size="sm">{t('signup.expired')}</Text>
        <Anchor component={Link} to="/signup" reloadDocument size="sm" fw={600}>
          {t('signup.startAgain')}
        </Anchor>
      </Alert>
    );
  const s = state.data;
  if (s.stage === 'done')
    return (
      <Alert color="teal" variant="light">
        {t('signup.done')}
      </Alert>
    );
  return (
    <form noValidate onSubmit={form.onSubmit((v) => confirm.mutate(v.code.trim()))}>
      <Stack gap="md">
        <Text fw={600} data-testid="signup-stage" data-stage={s.stage}>
          {s.stage === 'email'
            ? t('signup.emailStep', { email: s.email })
            : t('signup.phoneStep', { phone: s.phone })}
        </Text>
        {notice && (
          <Alert color="blue" variant="light" role="status">
            {notice}
          </Alert>
        )}
        <TextInput
          label={s.stage === 'email' ? t('signup.emailCode') : t('signup.phoneCode')}
          withAsterisk
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          data-autofocus
          {...form.getInputProps('code')}
        />
        <Button type="submit" size="md" fullWidth loading={confirm.isPending}>
          {s.stage === 'email' ? t('signup.confirmEmail') : t('signup.finish')}
        </Button>
        <Group justify="center">
          <Button
            variant="subtle"
            size="sm"
            disabled={wait > 0}
            loading={resend.isPending}
            onClick={() => {
              setNotice(null);
              resend.mutate();
            }}
          >
            {wait > 0 ? t('signup.resendIn', { seconds: wait }) : t('signup.resend')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
