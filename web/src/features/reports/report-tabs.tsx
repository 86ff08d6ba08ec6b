import { Button, Checkbox, Group, ScrollArea, Select, Table } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { CategoriesReport, GroupedReport, SummaryReport } from '@smartconnect/contracts';
import { IconDownload } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { get } from '../../shared/api/client.ts';
import { downloadFile } from '../../shared/download.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess } from '../../shared/session.tsx';
import { OwnReportTab, RatingCells, RatingHeaders, SERIES_COLORS } from './dialogs-report.tsx';
import { reportKeys } from './keys.ts';
import { LazyChart } from './lazy-chart.tsx';
import { hms, ReportFrame, useDuration } from './report-frame.tsx';
import { periodParams, usePeriod } from './use-period.ts';

/** One report of the shared period: `kind` with extra parameters, fetched when the period is complete. */
export function useReport<T>(kind: string, extra: Record<string, string> = {}) {
  const chosen = usePeriod();
  const path = `/api/reports/${kind}?${periodParams(chosen, extra)}`;
  return useQuery({
    queryKey: reportKeys.report(kind, path),
    queryFn: () => get<T>(path),
    enabled: chosen.complete,
    placeholderData: keepPreviousData,
  });
}

export const tableRegion = (label: string) => ({ tabIndex: 0, role: 'region', 'aria-label': label });

/**
 * /admin/reports/report: the Summary report for holders of AUTHORITY_ALL_STAT on a plan with statistics; the
 * signed-in user's own figures for everyone else (the unguarded /report, DECISIONS.md).
 */
export function ReportTab() {
  const { can, has } = useAccess();
  return can('AUTHORITY_ALL_STAT') && has('OPTION_STATISTIC') ? <SummaryTab /> : <OwnReportTab />;
}

/** Downloads the summary's rows as the server writes them (CSV or XLSX). */
function download(params: URLSearchParams, format: 'csv' | 'xlsx') {
  params.set('format', format);
  return downloadFile(`/api/reports/summary/export?${params}`, `summary.${format}`);
}

export function SummaryTab() {
  const { t } = useTranslation();
  const chosen = usePeriod();
  const query = useReport<SummaryReport>('summary');
  const [busy, setBusy] = useState<string | null>(null);
  const save = async (format: 'csv' | 'xlsx') => {
    setBusy(format);
    try {
      await download(periodParams(chosen), format);
    } catch {
      notifications.show({ color: 'red', message: t('reports.downloadFailed') });
    } finally {
      setBusy(null);
    }
  };
  const empty = (r: SummaryReport) =>
    !r.rows.some(
      (x) =>
        x.dialogs + x.acceptedMessages + x.missedMessages + (x.onlineSeconds ?? 0) + (x.breakSeconds ?? 0) >
        0,
    );
  return (
    <ReportFrame
      title={t('reports.report')}
      query={query}
      empty={empty}
      zone={query.data?.period.timeZone}
      testId="summary-report"
      controls={
        <Group gap="xs">
          {(['csv', 'xlsx'] as const).map((f) => (
            <Button
              key={f}
              variant="light"
              leftSection={<IconDownload size={16} />}
              loading={busy === f}
              disabled={!chosen.complete || !query.data || empty(query.data)}
              onClick={() => save(f)}
              data-testid={`download-${f}`}
            >
              {t(f === 'csv' ? 'reports.downloadCsv' : 'reports.downloadXlsx')}
            </Button>
          ))}
        </Group>
      }
    >
      {(r) => (
        <ScrollArea type="auto" viewportProps={tableRegion(t('reports.report'))}>
          <Table striped miw={720} data-testid="summary-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('reports.type')}</Table.Th>
                <Table.Th>{t('reports.name')}</Table.Th>
                <Table.Th>{t('reports.onlineTime')}</Table.Th>
                <Table.Th>{t('reports.breakTime')}</Table.Th>
                <Table.Th>{t('reports.dialogsCount')}</Table.Th>
                <Table.Th>{t('reports.acceptedMessages')}</Table.Th>
                <Table.Th>{t('reports.missedMessages')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.rows.map((x) => (
                <Table.Tr key={`${x.kind}-${x.id}`}>
                  <Table.Td>
                    {t(x.kind === 'channel' ? 'reports.kindChannel' : 'reports.kindOperator')}
                  </Table.Td>
                  <Table.Td>{x.name}</Table.Td>
                  <Table.Td>{x.onlineSeconds === null ? '' : hms(x.onlineSeconds)}</Table.Td>
                  <Table.Td>{x.breakSeconds === null ? '' : hms(x.breakSeconds)}</Table.Td>
                  <Table.Td>{x.dialogs}</Table.Td>
                  <Table.Td>{x.acceptedMessages}</Table.Td>
                  <Table.Td>{x.missedMessages}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </ReportFrame>
  );
}

/** The most rows a comparison chart draws (the largest first); the table lists them all. */
const CHART_ROWS = 15;

/** Rows compared as horizontal bars, one bar per series, the largest row on top. */
function BarsChart({
  rows,
  label,
  testId,
}: {
  rows: { name: string; values: Record<string, number> }[];
  label: string;
  testId: string;
}) {
  const option = useMemo(() => {
    const total = (r: (typeof rows)[number]) => Object.values(r.values).reduce((a, b) => a + b, 0);
    const top = [...rows].sort((a, b) => total(b) - total(a)).slice(0, CHART_ROWS);
    const names = Object.keys(top[0]?.values ?? {});
    return {
      color: SERIES_COLORS,
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, show: names.length > 1 },
      grid: { left: 8, right: 24, top: names.length > 1 ? 32 : 8, bottom: 8, containLabel: true },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: {
        type: 'category',
        inverse: true,
        data: top.map((r) => r.name),
        axisLabel: { width: 160, overflow: 'truncate' },
      },
      series: names.map((name) => ({ type: 'bar', name, data: top.map((r) => r.values[name]) })),
    };
  }, [rows]);
  const count = Math.min(rows.length, CHART_ROWS);
  // Nothing to compare (every value 0): the table says it, an empty chart would not.
  if (!rows.some((r) => Object.values(r.values).some((v) => v > 0))) return null;
  return <LazyChart option={option} height={Math.max(140, 56 + count * 32)} label={label} testId={testId} />;
}

/** Channels, employees, teams: the Dialogs figures, a row each. */
function GroupedTab({ kind }: { kind: 'channels' | 'employees' | 'teams' }) {
  const { t } = useTranslation();
  const duration = useDuration();
  const query = useReport<GroupedReport>(kind);
  return (
    <ReportFrame
      title={t(`reports.${kind}`)}
      query={query}
      empty={(r) => r.rows.length === 0}
      zone={query.data?.period.timeZone}
      testId={`${kind}-report`}
    >
      {(r) => (
        <>
          <BarsChart
            rows={r.rows.map((x) => ({
              name: x.name || t('reports.none'),
              values: {
                [t('reports.dialogsNew')]: x.dialogsNew,
                [t('reports.dialogsClosed')]: x.dialogsClosed,
              },
            }))}
            label={t(`reports.groupedChart.${kind}`)}
            testId={`${kind}-chart`}
          />
          <ScrollArea type="auto" viewportProps={tableRegion(t(`reports.${kind}`))}>
            <Table striped miw={900} data-testid={`${kind}-table`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('reports.name')}</Table.Th>
                  <Table.Th>{t('reports.dialogsNew')}</Table.Th>
                  <Table.Th>{t('reports.dialogsClosed')}</Table.Th>
                  <Table.Th>{t('reports.dialogsTransferred')}</Table.Th>
                  <Table.Th>{t('reports.firstResponse')}</Table.Th>
                  <Table.Th>{t('reports.handling')}</Table.Th>
                  <RatingHeaders />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.rows.map((x) => (
                  <Table.Tr key={x.id}>
                    <Table.Td>{x.name || t('reports.none')}</Table.Td>
                    <Table.Td>{x.dialogsNew}</Table.Td>
                    <Table.Td>{x.dialogsClosed}</Table.Td>
                    <Table.Td>{x.dialogsTransferred}</Table.Td>
                    <Table.Td>
                      {t('reports.medianP90', {
                        median: duration(x.firstResponse.medianSeconds),
                        p90: duration(x.firstResponse.p90Seconds),
                      })}
                    </Table.Td>
                    <Table.Td>
                      {t('reports.medianP90', {
                        median: duration(x.handling.medianSeconds),
                        p90: duration(x.handling.p90Seconds),
                      })}
                    </Table.Td>
                    <RatingCells ratings={x.ratings} />
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </>
      )}
    </ReportFrame>
  );
}

export const ChannelsTab = () => <GroupedTab kind="channels" />;
export const EmployeesTab = () => <GroupedTab kind="employees" />;
export const TeamsTab = () => <GroupedTab kind="teams" />;

/** The requests of each category over the listed channels (the table splits them by channel). */
function byCategory(r: CategoriesReport, without: string, requests: string) {
  const sums = new Map<string | null, { name: string; n: number }>();
  for (const x of r.rows) {
    const sum = sums.get(x.categoryId) ?? { name: x.categoryName ?? without, n: 0 };
    sum.n += x.requests;
    sums.set(x.categoryId, sum);
  }
  return [...sums.values()].map(({ name, n }) => ({ name, values: { [requests]: n } }));
}

/** Inquiry categories by channel, optionally with the requests closed without one. */
export function CategoriesTab() {
  const { t } = useTranslation();
  const [channelId, setChannelId] = useState<string | null>(null);
  const [withoutCategory, setWithoutCategory] = useState(false);
  const extra: Record<string, string> = withoutCategory ? { includeWithoutCategory: 'true' } : {};
  if (channelId) extra.channelId = channelId;
  const query = useReport<CategoriesReport>('categories', extra);
  // The channels to filter by are the summary's channel rows (the same right; no channel-management right needed).
  const summary = useReport<SummaryReport>('summary');
  const channels = (summary.data?.rows ?? []).filter((x) => x.kind === 'channel');
  return (
    <ReportFrame
      title={t('reports.categories')}
      query={query}
      empty={(r) => r.rows.length === 0}
      zone={query.data?.period.timeZone}
      testId="categories-report"
      controls={
        <>
          <Select
            label={t('reports.channel')}
            placeholder={t('reports.allChannels')}
            clearable
            value={channelId}
            onChange={setChannelId}
            data={channels.map((c) => ({ value: c.id, label: c.name }))}
            w={200}
          />
          <Checkbox
            label={t('reports.includeWithoutCategory')}
            checked={withoutCategory}
            onChange={(e) => setWithoutCategory(e.currentTarget.checked)}
            mb={8}
            data-testid="include-without-category"
          />
        </>
      }
    >
      {(r) => (
        <>
          <BarsChart
            rows={byCategory(r, t('reports.withoutCategory'), t('reports.requests'))}
            label={t('reports.categoriesChart')}
            testId="categories-chart"
          />
          <ScrollArea type="auto" viewportProps={tableRegion(t('reports.categories'))}>
            <Table striped miw={480} data-testid="categories-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('reports.channel')}</Table.Th>
                  <Table.Th>{t('reports.category')}</Table.Th>
                  <Table.Th>{t('reports.requests')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.rows.map((x) => (
                  <Table.Tr key={`${x.channelId}-${x.categoryId}`}>
                    <Table.Td>{x.channelName}</Table.Td>
                    <Table.Td>{x.categoryName ?? t('reports.withoutCategory')}</Table.Td>
                    <Table.Td>{x.requests}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </>
      )}
    </ReportFrame>
  );
}
