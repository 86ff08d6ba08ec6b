import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { queryClient } from '../../shared/query.ts';
import { setToken } from '../../shared/storage.ts';
import { AuthLayout } from '../auth/auth-layout.tsx';
import { CodeStep } from './code-step.tsx';
import { StartStep } from './start-step.tsx';

/**
 * /signup (§2.5): company, e-mail, phone, consent and the captcha; then the e-mail code and the SMS code. With
 * ?token= (also /registration/phone-confirmation/{token}) it resumes where the registration stands. When done,
 * the new administrator's session is stored like login's and the admin area opens.
 */
export function SignupPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  // Public pages have no react-query provider of their own (the admin layout holds it): the sign-up brings its own.
  return (
    <QueryClientProvider client={queryClient}>
      <AuthLayout>
        <Stack gap="lg">
          <Title order={1} fz={30}>
            {t('signup.title')}
          </Title>
          {token ? (
            <CodeStep
              key={token}
              token={token}
              onDone={(session) => {
                setToken(session);
                navigate('/admin', { replace: true });
              }}
            />
          ) : (
            <StartStep onStarted={(next) => setParams({ token: next }, { replace: true })} />
          )}
          <Group gap="lg" mt="xs">
            <Text size="sm" c="dimmed">
              {t('signup.haveAccount')}{' '}
              <Anchor component={Link} to="/" size="sm" underline="always">
                {t('restore.signIn')}
              </Anchor>
            </Text>
          </Group>
        </Stack>
      </AuthLayout>
    </QueryClientProvider>
  );
}
