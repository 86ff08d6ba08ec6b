import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { isApiError } from '../../shared/api/errors.ts';
import { translateError, translateField, useTranslation } from '../../shared/i18n/index.ts';
import { useLightForm } from '../../shared/light-form.ts';
import { showServerErrors } from '../../shared/server-errors.ts';
import { getToken, setToken } from '../../shared/storage.ts';
import { RichText } from '../../shared/ui/rich-text.tsx';
import { useAction } from '../../shared/use-call.ts';
import { loginCall } from './api.ts';
import { AuthLayout } from './auth-layout.tsx';
import { checkLogin } from './login-check.ts';

/** The second step loads when a login needs it (most do not): the login page downloads less. */
const TwoFactorStep = lazy(() => import('./two-factor-step.tsx').then((m) => ({ default: m.TwoFactorStep })));
/** The captcha loads only when the server asks for it (an account with many failed sign-ins, issue 29). */
const CaptchaField = lazy(() =>
  import('../signup/captcha-field.tsx').then((m) => ({ default: m.CaptchaField })),
);

/** The captcha once asked for: a new widget (`key`) after every attempt, since a proof is good once. */
type Captcha = { key: number; payload: string | null };

/** The spec's message under each field, translated (as shared/form.ts zodValidate shows the schema's). */
const validateLogin = (values: { email: string; password: string }) =>
  Object.fromEntries(Object.entries(checkLogin(values)).map(([k, v]) => [k, translateField(v) ?? '']));

/** `/`: login in two steps (§2.3); a stored token goes straight to the admin area. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [ticket, setTicket] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const form = useLightForm({ initialValues: { email: '', password: '' }, validate: validateLogin });
  const renewCaptcha = () => setCaptcha((c) => (c ? { key: c.key + 1, payload: null } : c));
  const login = useAction({
    call: loginCall,
    onSuccess: (result) => {
      renewCaptcha();
      if ('token' in result) {
        setToken(result.token);
        navigate('/admin', { replace: true });
      } else setTicket(result.ticket);
    },
    onError: (err) => {
      renewCaptcha();
      if (isApiError(err) && err.code === 'invalidCaptchaException') {
        setCaptcha((c) => c ?? { key: 0, payload: null });
        setError(t('login.captchaNeeded'));
      } else if (isApiError(err) && !err.fields && err.status !== 0) setError(translateError(err.code));
      else showServerErrors(form, err);
    },
  });

  if (getToken()) return <Navigate to="/admin" replace />;

  const restart = (message?: string) => {
    setTicket(null);
    setError(message ?? null);
  };

  return (
    <AuthLayout>
      {ticket ? (
        <Suspense fallback={<Loader mx="auto" aria-label={t('common.loading')} />}>
          <TwoFactorStep
            ticket={ticket}
            onDone={(token) => {
              setToken(token);
              navigate('/admin', { replace: true });
            }}
            onRestart={restart}
          />
        </Suspense>
      ) : (
        <form
          noValidate
          onSubmit={form.onSubmit((values) => {
            setError(null);
            login.mutate(captcha?.payload ? { ...values, captcha: captcha.payload } : values);
          })}
        >
          <Stack gap="lg">
            <div>
              <Title order={1} fz={30}>
                {t('login.title')}
              </Title>
              <Text c="dimmed" mt={6}>
                {t('login.subtitle')}
              </Text>
            </div>
            {error && (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertCircle size={18} />}
                data-testid="login-error"
              >
                {error}
              </Alert>
            )}
            <TextInput
              label={t('login.email')}
              type="email"
              autoComplete="username"
              size="md"
              withAsterisk
              {...form.getInputProps('email')}
            />
            <PasswordInput
              label={t('login.password')}
              autoComplete="current-password"
              size="md"
              withAsterisk
              {...form.getInputProps('password')}
            />
            <Anchor component={Link} to="/restore" size="sm" mt={-8}>
              {t('login.trouble')}
            </Anchor>
            {captcha && (
              <Suspense fallback={<Loader size="sm" mx="auto" aria-label={t('common.loading')} />}>
                <CaptchaField
                  key={captcha.key}
                  onChange={(payload) => setCaptcha((c) => (c ? { ...c, payload } : c))}
                />
              </Suspense>
            )}
            <Button
              type="submit"
              size="md"
              loading={login.isPending}
              disabled={!!captcha && !captcha.payload}
              fullWidth
            >
              {t('login.submit')}
            </Button>
            <Text size="sm" c="dimmed" ta="center">
              <RichText
                text={t('login.noAccount')}
                components={{
                  trial: <Anchor component={Link} to="/signup" />,
                  landing: <Anchor href="/landing" />,
                }}
              />
            </Text>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
