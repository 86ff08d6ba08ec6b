import { Badge, Button, Group, Table, Tooltip } from '@mantine/core';
import type { MonitoringView } from '@smartconnect/contracts';
import { IconActivityHeartbeat, IconColumns } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable } from '../../shared/ui/list-table.tsx';
import { useMonitoringSettings, useMonitoringTable, useNow } from './api.ts';
import { ColumnSettings } from './column-settings.tsx';
import { renderCell, sortRows } from './columns.tsx';

/** One monitoring table (channels, teams, operators, abonents): live rows, the user's columns, a settings dialog. */
function MonitoringTable({ view }: { view: MonitoringView }) {
  const { t } = useTranslation();
  const table = useMonitoringTable(view);
  const settings = useMonitoringSettings(view);
  const [open, setOpen] = useState(false);
  const now = useNow();
  if (table.isError || settings.isError)
    return (
      <ErrorState
        onRetry={() => {
          void table.refetch();
          void settings.refetch();
        }}
        retrying={table.isFetching || settings.isFetching}
      />
    );
  if (!table.data || !settings.data) return <SectionLoader />;
  const columns = settings.data.columns.filter((c) => c.visible);
  const rows = sortRows(view, table.data.rows);
  const ctx = { t, now: now + table.data.skewMs };
  return (
    <>
      <Group justify="space-between" mb="sm">
        <Tooltip label={t(table.data.live ? 'monitoring.liveHint' : 'monitoring.connectingHint')}>
          <Badge
            variant="dot"
            color={table.data.live ? 'teal' : 'gray'}
            data-testid="monitoring-live"
            data-live={table.data.live}
            tabIndex={0}
          >
            {t(table.data.live ? 'monitoring.live' : 'monitoring.connecting')}
          </Badge>
        </Tooltip>
        <Button
          variant="default"
          leftSection={<IconColumns size={16} />}
          onClick={() => setOpen(true)}
          data-testid="monitoring-columns"
        >
          {t('monitoring.columns')}
        </Button>
      </Group>
      {rows.length === 0 ? (
        <EmptyState
          icon={<IconActivityHeartbeat size={30} />}
          title={t(`monitoring.empty.${view}`)}
          text={t('monitoring.emptyHint')}
        />
      ) : (
        <ListTable
          minWidth={Math.max(360, columns.length * 120)}
          testId={`monitoring-${view}`}
          headings={columns.map((c) => t(`monitoring.col.${c.key}`))}
        >
          {rows.map((row) => (
            <Table.Tr key={row.id} data-row-id={row.id}>
              {columns.map((c) => (
                <Table.Td key={c.key} data-col={c.key}>
                  {renderCell(view, c.key, row, ctx)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </ListTable>
      )}
      <ColumnSettings
        view={view}
        columns={settings.data.columns}
        opened={open}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

export const ChannelsTab = () => <MonitoringTable view="channels" />;
export const TeamsTab = () => <MonitoringTable view="teams" />;
export const OperatorsTab = () => <MonitoringTable view="operators" />;
export const AbonentsTab = () => <MonitoringTable view="abonents" />;
