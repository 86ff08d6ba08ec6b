import { Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { type ReportPeriod, reportPeriods } from '@smartconnect/contracts';
import { IconChartBar } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { setPeriodState, usePeriod } from './use-period.ts';

/** The period dropdown (§9 periods) with the dates an arbitrary period or date needs; shared by every tab. */
export function PeriodPicker() {
  const { t } = useTranslation();
  const { period, from, to, complete } = usePeriod();
  return (
    <>
      <Select
        label={t('reports.period')}
        value={period}
        allowDeselect={false}
        onChange={(v) => v && setPeriodState({ period: v as ReportPeriod })}
        data={reportPeriods.map((p) => ({ value: p, label: t(`reports.periods.${p}`) }))}
        w={200}
        data-testid="report-period"
      />
      {(period === 'custom' || period === 'date') && (
        <TextInput
          type="date"
          label={t(period === 'date' ? 'reports.date' : 'reports.from')}
          value={from}
          onChange={(e) => setPeriodState({ from: e.currentTarget.value })}
          error={!complete && !from ? t('reports.periodRequired') : undefined}
          data-testid="report-from"
        />
      )}
      {period === 'custom' && (
        <TextInput
          type="date"
          label={t('reports.to')}
          value={to}
          onChange={(e) => setPeriodState({ to: e.currentTarget.value })}
          error={!complete && from && (!to || to < from) ? t('reports.periodRequired') : undefined}
          data-testid="report-to"
        />
      )}
    </>
  );
}

type Props<T> = {
  title: string;
  /** Controls beside the period (filters, downloads). */
  controls?: ReactNode;
  query: UseQueryResult<T>;
  empty: (data: T) => boolean;
  zone?: string;
  children: (data: T) => ReactNode;
  testId: string;
};

/** A report tab: title, period, then loading / error / §8 'No data for period' / the report itself. */
export function ReportFrame<T>({ title, controls, query, empty, zone, children, testId }: Props<T>) {
  const { t } = useTranslation();
  const { complete } = usePeriod();
  const data = query.data;
  return (
    <Paper p="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" align="flex-end">
          <Title order={2} size="h4">
            {title}
          </Title>
          <Group gap="sm" wrap="wrap" align="flex-end">
            <PeriodPicker />
            {controls}
          </Group>
        </Group>
        {zone && (
          <Text size="xs" c="dimmed">
            {t('reports.timeZone', { zone })}
          </Text>
        )}
        {!complete ? (
          <Text size="sm" c="dimmed" data-testid="report-needs-period">
            {t('reports.periodRequired')}
          </Text>
        ) : query.isPending ? (
          <SectionLoader />
        ) : query.isError ? (
          <ErrorState onRetry={() => query.refetch()} retrying={query.isFetching} />
        ) : data === undefined || empty(data) ? (
          <EmptyState icon={<IconChartBar size={32} />} title={t('reports.noData')} />
        ) : (
          <Stack gap="md" aria-busy={query.isFetching} data-testid={testId}>
            {children(data)}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** Seconds as a short duration (sec, min, h, d) or a dash. */
export function useDuration() {
  const { t } = useTranslation();
  return (s: number | null) => {
    if (s === null) return t('reports.none');
    if (s < 60) return t('reports.seconds', { n: Math.round(s) });
    if (s < 3600) return t('reports.minutes', { n: Math.round((s / 60) * 10) / 10 });
    if (s < 86_400) return t('reports.hours', { n: Math.round((s / 3600) * 10) / 10 });
    return t('reports.days', { n: Math.round((s / 86_400) * 10) / 10 });
  };
}

/** Seconds as h:mm:ss, as the summary's download writes them. */
export function hms(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
