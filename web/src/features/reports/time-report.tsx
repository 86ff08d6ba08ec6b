import { ScrollArea, Table } from '@mantine/core';
import type { TimeReport } from '@smartconnect/contracts';
import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams } from 'echarts';
import { useMemo } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import Chart, { echarts } from './chart.tsx';
import { hms, ReportFrame } from './report-frame.tsx';
import { useReport } from './report-tabs.tsx';

const STATES = ['online', 'break', 'offline'] as const;
const COLORS = { online: '#2f9e44', break: '#f08c00', offline: '#adb5bd' } as const;

type Props = { report: TimeReport };

/** Operators' In work / Break / offline intervals as bars on a time axis, drawn on a canvas. */
function WorkingTimeChart({ report }: Props) {
  const { t, i18n } = useTranslation();
  const rows = report.rows;
  const option = useMemo(() => {
    const fmt = new Intl.DateTimeFormat(i18n.language, {
      timeZone: report.period.timeZone,
      day: '2-digit',
      month: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    const names = rows.map((r) => r.name);
    const renderItem = (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI) => {
      const y = api.value(0);
      const a = api.coord([api.value(1), y]);
      const b = api.coord([api.value(2), y]);
      const height = (api.size?.([0, 1]) as number[])[1] * 0.6;
      const grid = params.coordSys as unknown as { x: number; y: number; width: number; height: number };
      const shape = echarts.graphic.clipRectByRect(
        { x: a[0], y: a[1] - height / 2, width: Math.max(1, b[0] - a[0]), height },
        { x: grid.x, y: grid.y, width: grid.width, height: grid.height },
      );
      return shape ? { type: 'rect' as const, shape, style: api.style() } : null;
    };
    return {
      tooltip: {
        formatter: (p: { seriesName: string; value: [number, number, number] }) =>
          `${names[p.value[0]]}: ${p.seriesName}, ${fmt.format(p.value[1])} – ${fmt.format(p.value[2])}`,
      },
      legend: { top: 0 },
      grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
      xAxis: {
        type: 'time',
        min: Date.parse(report.period.start),
        max: Date.parse(report.period.end),
        axisLabel: { formatter: (v: number) => fmt.format(v), hideOverlap: true },
      },
      yAxis: { type: 'category', data: names, inverse: true },
      series: STATES.map((state) => ({
        type: 'custom',
        name: t(`reports.states.${state}`),
        renderItem,
        itemStyle: { color: COLORS[state] },
        encode: { x: [1, 2], y: 0 },
        data: rows.flatMap((r, i) =>
          r.intervals
            .filter((x) => x.state === state)
            .map((x) => [i, Date.parse(x.start), Date.parse(x.end)]),
        ),
      })),
    };
  }, [rows, report.period, i18n.language, t]);
  return (
    <Chart
      option={option}
      height={Math.max(160, 60 + rows.length * 36)}
      label={t('reports.workingChart')}
      testId="working-time-chart"
    />
  );
}

export function TimeTab() {
  const { t } = useTranslation();
  const query = useReport<TimeReport>('time');
  return (
    <ReportFrame
      title={t('reports.time')}
      query={query}
      empty={(r) => !r.rows.some((x) => x.onlineSeconds + x.breakSeconds > 0)}
      zone={query.data?.period.timeZone}
      testId="time-report"
    >
      {(r) => (
        <>
          <WorkingTimeChart report={r} />
          <ScrollArea
            type="auto"
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('reports.time') }}
          >
            <Table striped miw={480} data-testid="time-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('reports.name')}</Table.Th>
                  {STATES.map((s) => (
                    <Table.Th key={s}>{t(`reports.states.${s}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.rows.map((x) => (
                  <Table.Tr key={x.userId}>
                    <Table.Td>{x.name}</Table.Td>
                    <Table.Td>{hms(x.onlineSeconds)}</Table.Td>
                    <Table.Td>{hms(x.breakSeconds)}</Table.Td>
                    <Table.Td>{hms(x.offlineSeconds)}</Table.Td>
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
