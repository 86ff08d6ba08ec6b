import {
  Badge,
  Group,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { DialogFigures, DialogsReport, ReportPeriod } from '@smartconnect/contracts';
import { reportPeriods } from '@smartconnect/contracts';
import { IconChartBar } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get } from '../../shared/api/client.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const hasData = (f: DialogFigures) =>
  f.dialogsNew + f.dialogsClosed + f.dialogsTransferred + f.messagesIn + f.messagesOut > 0 ||
  f.ratings.some((n) => n > 0);

/** Reports -> Dialogs (the organisation's, `own` false) and /report (the signed-in user's own figures). */
export function DialogsReportView({ own = false }: { own?: boolean }) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<ReportPeriod>('last7');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [groupBy, setGroupBy] = useState<'day' | 'hour'>('day');
  const timeZone = browserZone();
  const complete = period === 'custom' ? !!from && !!to && from <= to : period === 'date' ? !!from : true;
  const params = new URLSearchParams({ period, groupBy, timeZone });
  if (period === 'custom' || period === 'date') params.set('from', from);
  if (period === 'custom') params.set('to', to);
  const path = `/api/reports/${own ? 'own/' : ''}dialogs?${params}`;
  const report = useQuery({
    queryKey: ['reports', 'dialogs', own, path],
    queryFn: () => get<DialogsReport>(path),
    enabled: complete,
    placeholderData: keepPreviousData,
  });

  const duration = (s: number | null) => {
    if (s === null) return t('reports.none');
    if (s < 60) return t('reports.seconds', { n: Math.round(s) });
    if (s < 3600) return t('reports.minutes', { n: Math.round((s / 60) * 10) / 10 });
    if (s < 86_400) return t('reports.hours', { n: Math.round((s / 3600) * 10) / 10 });
    return t('reports.days', { n: Math.round((s / 86_400) * 10) / 10 });
  };
  const data = report.data;
  const totals = data?.totals;

  return (
    <Paper p="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" align="flex-end">
          <Title order={2} size="h4">
            {t(own ? 'reports.own' : 'reports.dialogs')}
          </Title>
          <Group gap="sm" wrap="wrap" align="flex-end">
            <Select
              label={t('reports.period')}
              value={period}
              allowDeselect={false}
              onChange={(v) => v && setPeriod(v as ReportPeriod)}
              data={reportPeriods.map((p) => ({ value: p, label: t(`reports.periods.${p}`) }))}
              w={200}
              data-testid="report-period"
            />
            {(period === 'custom' || period === 'date') && (
              <TextInput
                type="date"
                label={t(period === 'date' ? 'reports.date' : 'reports.from')}
                value={from}
                onChange={(e) => setFrom(e.currentTarget.value)}
                error={!complete && !from ? t('reports.periodRequired') : undefined}
                data-testid="report-from"
              />
            )}
            {period === 'custom' && (
              <TextInput
                type="date"
                label={t('reports.to')}
                value={to}
                onChange={(e) => setTo(e.currentTarget.value)}
                error={!complete && from && (!to || to < from) ? t('reports.periodRequired') : undefined}
                data-testid="report-to"
              />
            )}
            <SegmentedControl
              aria-label={t('reports.groupBy')}
              value={groupBy}
              onChange={(v) => setGroupBy(v as 'day' | 'hour')}
              data={[
                { value: 'day', label: t('reports.byDay') },
                { value: 'hour', label: t('reports.byHour') },
              ]}
            />
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          {t('reports.timeZone', { zone: timeZone })}
        </Text>
        {!complete ? (
          <Text size="sm" c="dimmed" data-testid="report-needs-period">
            {t('reports.periodRequired')}
          </Text>
        ) : report.isPending ? (
          <SectionLoader />
        ) : report.isError ? (
          <ErrorState onRetry={() => report.refetch()} retrying={report.isFetching} />
        ) : !data || !totals || !hasData(totals) ? (
          <EmptyState icon={<IconChartBar size={32} />} title={t('reports.noData')} />
        ) : (
          <Stack gap="md" aria-busy={report.isFetching} data-testid="dialogs-report">
            <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
              {(
                [
                  ['dialogsNew', totals.dialogsNew],
                  ['dialogsClosed', totals.dialogsClosed],
                  ['dialogsTransferred', totals.dialogsTransferred],
                  ['messagesIn', totals.messagesIn],
                  ['messagesOut', totals.messagesOut],
                  ['ratingAverage', totals.ratingAverage ?? t('reports.none')],
                ] as const
              ).map(([key, value]) => (
                <Paper key={key} withBorder p="sm" data-testid={`total-${key}`}>
                  <Text size="xs" c="dimmed">
                    {t(`reports.${key}`)}
                  </Text>
                  <Text fw={700} size="xl">
                    {value}
                  </Text>
                </Paper>
              ))}
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              {(['firstResponse', 'handling'] as const).map((key) => (
                <Paper key={key} withBorder p="sm" data-testid={`total-${key}`}>
                  <Text size="xs" c="dimmed">
                    {t(`reports.${key}`)}
                  </Text>
                  <Text fw={700}>
                    {t('reports.medianP90', {
                      median: duration(totals[key].medianSeconds),
                      p90: duration(totals[key].p90Seconds),
                    })}
                  </Text>
                </Paper>
              ))}
              <Paper withBorder p="sm">
                <Text size="xs" c="dimmed">
                  {t('reports.ratings')}
                </Text>
                <Group gap={4} mt={4}>
                  {totals.ratings.map((count, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the index is the score
                    <Badge key={i} variant="light" tt="none">
                      {t('reports.ratingCount', { score: i + 1, count })}
                    </Badge>
                  ))}
                </Group>
              </Paper>
            </SimpleGrid>
            <ScrollArea
              type="auto"
              viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('reports.seriesLabel') }}
            >
              <Table striped miw={720} data-testid="dialogs-series">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('reports.when')}</Table.Th>
                    <Table.Th>{t('reports.dialogsNew')}</Table.Th>
                    <Table.Th>{t('reports.dialogsClosed')}</Table.Th>
                    <Table.Th>{t('reports.dialogsTransferred')}</Table.Th>
                    <Table.Th>{t('reports.firstResponse')}</Table.Th>
                    <Table.Th>{t('reports.handling')}</Table.Th>
                    <Table.Th>{t('reports.messagesIn')}</Table.Th>
                    <Table.Th>{t('reports.messagesOut')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.series.map((p) => (
                    <Table.Tr key={p.at}>
                      <Table.Td>{p.label}</Table.Td>
                      <Table.Td>{p.dialogsNew}</Table.Td>
                      <Table.Td>{p.dialogsClosed}</Table.Td>
                      <Table.Td>{p.dialogsTransferred}</Table.Td>
                      <Table.Td>{duration(p.firstResponse.medianSeconds)}</Table.Td>
                      <Table.Td>{duration(p.handling.medianSeconds)}</Table.Td>
                      <Table.Td>{p.messagesIn}</Table.Td>
                      <Table.Td>{p.messagesOut}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

export function DialogsTab() {
  return <DialogsReportView />;
}

export function OwnReportTab() {
  return <DialogsReportView own />;
}
