import {
  Badge,
  Group,
  Paper,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { DialogFigures, DialogsReport } from '@smartconnect/contracts';
import { IconChartBar } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { get } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { reportKeys } from './keys.ts';
import { LazyChart } from './lazy-chart.tsx';
import { PeriodPicker, useDuration } from './report-frame.tsx';
import { periodParams, usePeriod } from './use-period.ts';

export const hasData = (f: DialogFigures) =>
  f.dialogsNew + f.dialogsClosed + f.dialogsTransferred + f.messagesIn + f.messagesOut > 0 ||
  f.ratings.some((n) => n > 0);

/** Reports -> Dialogs (the organisation's, `own` false) and /report (the signed-in user's own figures). */
export function DialogsReportView({ own = false }: { own?: boolean }) {
  const { t } = useTranslation();
  const chosen = usePeriod();
  const { complete } = chosen;
  const [groupBy, setGroupBy] = useState<'day' | 'hour'>('day');
  const params = periodParams(chosen, { groupBy });
  const path = `/api/reports/${own ? 'own/' : ''}dialogs?${params}`;
  const report = useQuery({
    queryKey: reportKeys.dialogs(own, path),
    queryFn: () => get<DialogsReport>(path),
    enabled: complete,
    placeholderData: keepPreviousData,
  });

  const duration = useDuration();
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
            <PeriodPicker />
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
        {data && (
          <Text size="xs" c="dimmed">
            {t('reports.timeZone', { zone: data.period.timeZone })}
          </Text>
        )}
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
            <DialogsTrend series={data.series} />
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
                    <RatingHeaders />
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
                      <RatingCells ratings={p.ratings} />
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

/** Colours of the report charts' series (Mantine's blue, green, orange, grape). */
export const SERIES_COLORS = ['#1c7ed6', '#2f9e44', '#f08c00', '#9c36b5'];
const minutes = (s: number | null) => (s === null ? null : Math.round(s / 6) / 10);

/**
 * The period's trend, which the table below it lists point by point: dialogs new, closed and transferred as bars,
 * and the median first-response and handling times in minutes as lines (a point without dialogs leaves a gap).
 */
function DialogsTrend({ series }: { series: DialogsReport['series'] }) {
  const { t } = useTranslation();
  const [dialogs, times] = useMemo(() => {
    const labels = series.map((p) => p.label);
    const base = {
      color: SERIES_COLORS,
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: labels, axisLabel: { hideOverlap: true } },
    };
    const line = (name: string, data: (number | null)[]) => ({
      type: 'line',
      name,
      data,
      symbolSize: 6,
      showSymbol: data.length <= 31,
      connectNulls: false,
    });
    // Counts per period read best as bars (one day is a bar too, not a lone dot); times as lines.
    const bars = (name: string, data: number[]) => ({ type: 'bar', name, data, barMaxWidth: 28 });
    return [
      {
        ...base,
        yAxis: { type: 'value', minInterval: 1 },
        series: (['dialogsNew', 'dialogsClosed', 'dialogsTransferred'] as const).map((k) =>
          bars(
            t(`reports.${k}`),
            series.map((p) => p[k]),
          ),
        ),
      },
      {
        ...base,
        yAxis: { type: 'value', name: t('reports.minutesAxis') },
        series: (['firstResponse', 'handling'] as const).map((k) =>
          line(
            t(`reports.${k}`),
            series.map((p) => minutes(p[k].medianSeconds)),
          ),
        ),
      },
    ];
  }, [series, t]);
  // No response or handling time in the period yet: that chart would be empty axes, so only the dialogs show.
  const timed = series.some(
    (p) => p.firstResponse.medianSeconds !== null || p.handling.medianSeconds !== null,
  );
  return (
    <SimpleGrid cols={{ base: 1, lg: timed ? 2 : 1 }} spacing="sm">
      <LazyChart option={dialogs} height={260} label={t('reports.dialogsChart')} testId="dialogs-chart" />
      {timed && (
        <LazyChart option={times} height={260} label={t('reports.timesChart')} testId="times-chart" />
      )}
    </SimpleGrid>
  );
}

/** The ratings 1-5 distribution as five columns, each headed 'Rated N of 5' (the scale is the widget's, §2.6). */
export function RatingHeaders() {
  const { t } = useTranslation();
  return [1, 2, 3, 4, 5].map((score) => (
    <Table.Th key={score} data-testid={`rating-header-${score}`}>
      {t('reports.ratingColumn', { score })}
    </Table.Th>
  ));
}

export function RatingCells({ ratings }: { ratings: readonly number[] }) {
  return [0, 1, 2, 3, 4].map((i) => <Table.Td key={i}>{ratings[i] ?? 0}</Table.Td>);
}

export function DialogsTab() {
  return <DialogsReportView />;
}

export function OwnReportTab() {
  return <DialogsReportView own />;
}
