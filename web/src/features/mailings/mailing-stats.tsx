import { Button, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MAILING_SKIP_REASONS, type MailingDto } from '@smartconnect/contracts';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadFile } from '../../shared/download.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { progressOf } from './status.tsx';

const FIGURES = [
  'recipients',
  'pending',
  'skipped',
  'sent',
  'delivered',
  'read',
  'failed',
  'replied',
  'optedOut',
] as const;

/** The progress bar and the statistics of a mailing: every figure, skips by reason, failures by the provider's reason. */
export function MailingStats({ mailing: m }: { mailing: MailingDto }) {
  const { t } = useTranslation();
  const s = m.stats;
  const progress = progressOf(s);
  const skipped = MAILING_SKIP_REASONS.filter((r) => (s.skippedBy[r] ?? 0) > 0);
  return (
    <Stack gap="lg">
      <Paper p="md" component="section" aria-labelledby="mailing-progress">
        <Group justify="space-between" mb={6}>
          <Title order={3} size="h5" id="mailing-progress">
            {t('mailings.progress')}
          </Title>
          <Text size="sm" fw={600} data-testid="mailing-progress-value">
            {progress}%
          </Text>
        </Group>
        <Progress
          value={progress}
          size="lg"
          animated={m.status === 'sending'}
          aria-label={t('mailings.progress')}
          data-testid="mailing-progress"
        />
        <Text size="xs" c="gray.7" mt={6}>
          {t('mailings.progressHint', { done: s.sent + s.failed + s.skipped, total: s.recipients })}
        </Text>
      </Paper>
      <Paper p="md" component="section" aria-labelledby="mailing-stats">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
          <Title order={3} size="h5" id="mailing-stats">
            {t('mailings.statistics')}
          </Title>
          {s.recipients > 0 && <ExportButtons id={m.id} />}
        </Group>
        <SimpleGrid
          cols={{ base: 2, xs: 3, md: 5 }}
          spacing="sm"
          component="dl"
          m={0}
          data-testid="mailing-stats"
        >
          {FIGURES.map((f) => (
            <Paper key={f} withBorder p="sm" data-testid={`stat-${f}`}>
              <Text component="dt" size="xs" c="gray.7">
                {t(`mailings.stats.${f}`)}
              </Text>
              <Text component="dd" m={0} fw={700} fz="lg">
                {s[f]}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
        {(skipped.length > 0 || s.errors.length > 0) && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" mt="md">
            {skipped.length > 0 && (
              <Breakdown
                title={t('mailings.skippedBy')}
                testId="skipped-by"
                rows={skipped.map((r) => ({ label: t(`mailings.skip.${r}`), count: s.skippedBy[r] ?? 0 }))}
              />
            )}
            {s.errors.length > 0 && (
              <Breakdown
                title={t('mailings.failedBy')}
                testId="failed-by"
                rows={s.errors.map((e) => ({ label: e.reason, count: e.count }))}
              />
            )}
          </SimpleGrid>
        )}
      </Paper>
    </Stack>
  );
}

function Breakdown({
  title,
  rows,
  testId,
}: {
  title: string;
  rows: { label: string; count: number }[];
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Table data-testid={testId} verticalSpacing={4}>
      <Table.Caption style={{ captionSide: 'top', textAlign: 'start', fontWeight: 600 }}>
        {title}
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('mailings.reason')}</Table.Th>
          <Table.Th ta="end">{t('mailings.recipientsShort')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.label}>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <UserText>{r.label}</UserText>
            </Table.Td>
            <Table.Td ta="end">{r.count}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The recipients as a file (a row each: state, delivery status, reasons), CSV or XLSX. */
function ExportButtons({ id }: { id: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const save = async (format: 'csv' | 'xlsx') => {
    setBusy(format);
    try {
      await downloadFile(`/api/mailings/${id}/export?format=${format}`, `mailing.${format}`);
    } catch {
      notifications.show({ color: 'red', message: t('reports.downloadFailed') });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="xs">
      {(['csv', 'xlsx'] as const).map((f) => (
        <Button
          key={f}
          size="compact-sm"
          variant="default"
          leftSection={<IconDownload size={14} aria-hidden />}
          loading={busy === f}
          onClick={() => save(f)}
          data-testid={`mailing-export-${f}`}
        >
          {t(f === 'csv' ? 'reports.downloadCsv' : 'reports.downloadXlsx')}
        </Button>
      ))}
    </Group>
  );
}
