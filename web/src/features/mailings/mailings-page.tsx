import { Anchor, Button, Group, Paper, Progress, Select, Stack, Table, Text } from '@mantine/core';
import { MAILING_STATUSES, type MailingStatus } from '@smartconnect/contracts';
import { IconFileImport, IconFilterOff, IconPlus, IconSpeakerphone } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { dateFormat } from '../../shared/intl.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable } from '../../shared/ui/list-table.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useMailings } from './api.ts';
import { OptOutWordsButton } from './opt-out-words.tsx';
import { MailingStatusBadge, progressOf } from './status.tsx';

/** /admin/mailings: the organisation's mailings, newest first, filtered by status; each opens its page. */
export function MailingsPage() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<MailingStatus | null>(null);
  const mailings = useMailings(status);
  const items = mailings.data?.items ?? [];
  const when = dateFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <Stack gap={0}>
      <PageHeader
        title={t('mailings.title')}
        subtitle={t('mailings.subtitle')}
        actions={
          <>
            <OptOutWordsButton />
            <Button
              component={Link}
              to="/admin/sms-imports"
              variant="default"
              leftSection={<IconFileImport size={18} />}
              data-testid="import-sms"
            >
              {t('mailings.importSms')}
            </Button>
            <Button
              component={Link}
              to="/admin/mailings/new"
              leftSection={<IconPlus size={18} />}
              data-testid="add-mailing"
            >
              {t('mailings.add')}
            </Button>
          </>
        }
      />
      <Paper p={0}>
        <Group p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Select
            label={t('mailings.statusFilter')}
            placeholder={t('mailings.allStatuses')}
            data={MAILING_STATUSES.map((s) => ({ value: s, label: t(`mailings.status.${s}`) }))}
            value={status}
            onChange={(v) => setStatus(v as MailingStatus | null)}
            clearable
            w={240}
            maw="100%"
            data-testid="mailings-status-filter"
          />
        </Group>
        {mailings.isLoading ? (
          <SectionLoader />
        ) : mailings.isError && !mailings.data ? (
          <ErrorState onRetry={() => void mailings.refetch()} retrying={mailings.isFetching} />
        ) : !items.length ? (
          status ? (
            <EmptyState
              icon={<IconFilterOff size={30} />}
              title={t('mailings.notFound')}
              text={t('mailings.notFoundHint')}
            />
          ) : (
            <EmptyState
              icon={<IconSpeakerphone size={30} />}
              title={t('mailings.empty')}
              text={t('mailings.emptyHint')}
            />
          )
        ) : (
          <ListTable
            minWidth={720}
            testId="mailings-table"
            headings={[
              t('mailings.name'),
              t('mailings.statusLabel'),
              t('mailings.progress'),
              t('mailings.channel'),
              t('mailings.when'),
            ]}
          >
            {items.map((m) => (
              <Table.Tr key={m.id} data-testid="mailing-row">
                <Table.Td maw={320}>
                  <Anchor component={Link} to={`/admin/mailings/${m.id}`} fw={600} size="sm">
                    <UserText>{m.name}</UserText>
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <MailingStatusBadge status={m.status} />
                </Table.Td>
                <Table.Td w={180}>
                  <Progress
                    value={progressOf(m.stats)}
                    size="sm"
                    aria-label={t('mailings.progressOf', { name: isolate(m.name) })}
                  />
                  <Text size="xs" c="gray.7" mt={4}>
                    {t('mailings.sentOf', { sent: m.stats.sent, total: m.stats.recipients })}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    <UserText>{m.channel.name}</UserText>
                  </Text>
                  <Text size="xs" c="gray.7">
                    {t(`channels.types.${m.channel.type}`)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{when.format(new Date(m.startedAt ?? m.scheduledAt ?? m.createdAt))}</Text>
                  <Text size="xs" c="gray.7">
                    {t(
                      m.startedAt
                        ? 'mailings.started'
                        : m.scheduledAt
                          ? 'mailings.scheduledFor'
                          : 'mailings.created',
                    )}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </Paper>
    </Stack>
  );
}
