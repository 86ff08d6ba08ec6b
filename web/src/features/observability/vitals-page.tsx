import { Badge, Group, Paper, ScrollArea, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import {
  type VitalRating,
  type VitalsSummaryDto,
  WEB_VITAL_THRESHOLDS,
  WEB_VITALS,
} from '@smartconnect/contracts';
import { IconActivityHeartbeat } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { telemetryKeys } from './keys.ts';

/** The rating colours of web-vitals: good green, needs improvement orange, poor red. */
export const RATING_COLOR: Record<VitalRating, string> = {
  good: 'teal',
  'needs-improvement': 'orange',
  poor: 'red',
};

const format = (name: string, value: number) => (name === 'CLS' ? value.toFixed(3) : `${value} ms`);

/** Preferences -> Web vitals (platform staff): per page, p75 of each vital over the last 24 hours or 7 days. */
export function VitalsPage() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<'day' | 'week'>('day');
  const summary = useQuery({
    queryKey: telemetryKeys.vitals,
    queryFn: () => get<VitalsSummaryDto>('/api/telemetry/vitals'),
    refetchInterval: 60_000,
  });
  const pages = (summary.data?.pages ?? []).filter((p) => p[period].length > 0);
  return (
    <Paper p="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('observability.title')}
          </Title>
          <SegmentedControl
            aria-label={t('observability.period')}
            value={period}
            onChange={(v) => setPeriod(v as 'day' | 'week')}
            data={[
              { value: 'day', label: t('observability.day') },
              { value: 'week', label: t('observability.week') },
            ]}
          />
        </Group>
        <Text size="sm" c="dimmed">
          {t('observability.hint')}
        </Text>
        {summary.isPending ? (
          <SectionLoader />
        ) : summary.isError ? (
          <ErrorState onRetry={() => summary.refetch()} retrying={summary.isFetching} />
        ) : pages.length === 0 ? (
          <EmptyState icon={<IconActivityHeartbeat size={32} />} title={t('observability.empty')} />
        ) : (
          <ScrollArea
            type="auto"
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('observability.title') }}
          >
            <Table striped miw={760} data-testid="vitals-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('observability.page')}</Table.Th>
                  {WEB_VITALS.map((name) => (
                    <Table.Th
                      key={name}
                      title={t('observability.thresholds', {
                        good: format(name, WEB_VITAL_THRESHOLDS[name][0]),
                        poor: format(name, WEB_VITAL_THRESHOLDS[name][1]),
                      })}
                    >
                      {name}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {pages.map((p) => (
                  <Table.Tr key={p.page}>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {p.page}
                      </Text>
                    </Table.Td>
                    {WEB_VITALS.map((name) => {
                      const stat = p[period].find((s) => s.name === name);
                      return (
                        <Table.Td key={name} miw={96}>
                          {stat ? (
                            <Stack gap={2}>
                              <Badge
                                color={RATING_COLOR[stat.rating]}
                                variant="light"
                                tt="none"
                                style={{ overflow: 'visible' }}
                                aria-label={`${name} ${format(name, stat.p75)}: ${t(`observability.rating.${stat.rating}`)}`}
                              >
                                {format(name, stat.p75)}
                              </Badge>
                              <Text size="xs" c="dimmed">
                                {t('observability.samples', { count: stat.samples })}
                              </Text>
                            </Stack>
                          ) : (
                            <Text size="sm" c="dimmed">
                              —
                            </Text>
                          )}
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
    </Paper>
  );
}
