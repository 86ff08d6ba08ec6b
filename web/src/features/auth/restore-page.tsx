import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { isApiError } from '../../shared/api/errors.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { useLoad } from '../../shared/use-call.ts';
import { recoveryCheck } from './api.ts';
import { AuthLayout } from './auth-layout.tsx';
import { ExpiredLink, RecoveryEmailStep } from './recovery-email-step.tsx';
import { RecoveryPasswordStep } from './recovery-password-step.tsx';

/** /restore (§2.4): the e-mail step, or with ?token= from the mail the new-password step. */
export function RestorePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Every visit of /restore (the Renew Password link included) starts a fresh e-mail step.
  const { key } = useLocation();
  const token = params.get('token');
  return (
    <AuthLayout>
      <Stack gap="lg">
        <Title order={1} fz={30}>
          {t('restore.title')}
        </Title>
        {token ? <TokenStep key={token} token={token} /> : <RecoveryEmailStep key={key} />}
        <Group gap="lg" mt="xs" data-testid="restore-links">
          <Anchor component={Link} to="/restore" size="sm">
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

/** The link from the mail: only a link the server calls expired shows the expired notice. */
function TokenStep({ token }: { token: string }) {
  const { t } = useTranslation();
  const check = useLoad(token, () => recoveryCheck(token));
  if (check.isLoading)
    return (
      <>
        <Text c="dimmed">{t('restore.checking')}</Text>
        <SectionLoader />
      </>
    );
  if (check.isError) {
    if (isApiError(check.error) && check.error.code === 'recoveryLinkExpiredException')
      return <ExpiredLink />;
    return (
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertCircle size={20} />}
        title={t('restore.checkFailedTitle')}
        data-testid="recovery-check-failed"
      >
        <Text size="sm">{t('restore.checkFailed')}</Text>
        <Button
          size="xs"
          variant="light"
          color="red"
          mt="sm"
          loading={check.isFetching}
          onClick={() => void check.refetch()}
        >
          {t('common.retry')}
        </Button>
      </Alert>
    );
  }
  return <RecoveryPasswordStep token={token} />;
}
