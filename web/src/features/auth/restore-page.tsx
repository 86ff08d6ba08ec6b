import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { recoveryCheck } from './api.ts';
import { AuthLayout } from './auth-layout.tsx';
import { ExpiredLink, RecoveryEmailStep } from './recovery-email-step.tsx';
import { RecoveryPasswordStep } from './recovery-password-step.tsx';

/** /restore (§2.4): the e-mail step, or with ?token= from the mail the new-password step. */
export function RestorePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <AuthLayout>
      <Stack gap="lg">
        <Title order={1} fz={30}>
          {t('restore.title')}
        </Title>
        {token ? <TokenStep token={token} /> : <RecoveryEmailStep />}
        <Group gap="lg" mt="xs" data-testid="restore-links">
          <Anchor component={Link} to="/restore" reloadDocument={!!token} size="sm">
            {t('restore.renew')}
          </Anchor>
          <Anchor component={Link} to="/" size="sm">
            {t('restore.signIn')}
          </Anchor>
        </Group>
      </Stack>
    </AuthLayout>
  );
}

function TokenStep({ token }: { token: string }) {
  const { t } = useTranslation();
  const check = useQuery({
    queryKey: ['recovery', token],
    queryFn: () => recoveryCheck(token),
    retry: false,
    meta: { silent: true },
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (check.isLoading)
    return (
      <>
        <Text c="dimmed">{t('restore.checking')}</Text>
        <SectionLoader />
      </>
    );
  if (check.isError) return <ExpiredLink />;
  return <RecoveryPasswordStep token={token} />;
}
