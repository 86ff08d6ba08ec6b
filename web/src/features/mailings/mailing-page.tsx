import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconClock, IconPlayerPause } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { dateFormat } from '../../shared/intl.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useMailing } from './api.ts';
import { MailingActions } from './mailing-actions.tsx';
import { UUID } from './mailing-form-page.tsx';
import { MailingStats } from './mailing-stats.tsx';
import { MailingSummary } from './mailing-summary.tsx';
import { MailingStatusBadge } from './status.tsx';

/** /admin/mailings/:id: a mailing's status, progress (asked for every 2 s while sending), statistics and actions. */
export function MailingPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const valid = !!id && UUID.test(id);
  const mailing = useMailing(valid ? id : undefined);
  if (!valid) return <Navigate to="/not-found" replace />;
  const m = mailing.data;
  if (!m)
    return mailing.isError && !mailing.isFetching ? (
      <Paper>
        <ErrorState onRetry={() => void mailing.refetch()} retrying={mailing.isFetching} />
      </Paper>
    ) : (
      <SectionLoader />
    );
  const when = (iso: string) =>
    dateFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <Stack gap="lg" maw={1040}>
      <Anchor component={Link} to="/admin/mailings" size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden /> {t('mailings.title')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={6} style={{ minWidth: 0, flex: '1 1 280px' }}>
          <Group gap="sm" wrap="wrap">
            <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="mailing-name">
              <UserText>{m.name}</UserText>
            </Title>
            <MailingStatusBadge status={m.status} />
          </Group>
          <Text size="sm" c="gray.7">
            {m.finishedAt
              ? t('mailings.finishedAt', { at: when(m.finishedAt) })
              : m.startedAt
                ? t('mailings.startedAt', { at: when(m.startedAt) })
                : m.scheduledAt
                  ? t(m.status === 'draft' ? 'mailings.draftScheduled' : 'mailings.scheduledAtText', {
                      at: when(m.scheduledAt),
                    })
                  : t('mailings.createdAt', { at: when(m.createdAt) })}
          </Text>
        </Stack>
        <MailingActions mailing={m} />
      </Group>
      {m.status === 'paused' && (
        <Alert
          variant="light"
          color="orange"
          icon={<IconPlayerPause size={18} />}
          data-testid="mailing-paused"
        >
          {t(`mailings.pausedBy.${m.pauseReason ?? 'author'}`)}
        </Alert>
      )}
      {m.status === 'sending' && m.waitingForWindow && m.sendWindow && (
        <Alert variant="light" color="blue" icon={<IconClock size={18} />} data-testid="mailing-waiting">
          {t('mailings.waitingForWindow', { from: m.sendWindow.from, to: m.sendWindow.to })}
        </Alert>
      )}
      {m.status === 'sending' && m.waitingForLimitUntil && (
        <Alert
          variant="light"
          color="blue"
          icon={<IconClock size={18} />}
          data-testid="mailing-waiting-limit"
        >
          {t('mailings.waitingForLimit', { at: when(m.waitingForLimitUntil) })}
        </Alert>
      )}
      {m.startedAt && <MailingStats mailing={m} />}
      <MailingSummary mailing={m} />
    </Stack>
  );
}
