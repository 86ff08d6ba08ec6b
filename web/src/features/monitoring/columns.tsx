import { Badge, Group, Progress, Text } from '@mantine/core';
import type {
  MonitoringAbonentRow,
  MonitoringChannelRow,
  MonitoringOperatorRow,
  MonitoringRow,
  MonitoringTeamRow,
  MonitoringView,
} from '@smartconnect/contracts';
import type { ReactNode } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { formatDuration } from './duration.ts';

type T = (key: string, opts?: Record<string, unknown>) => string;
/** What a cell needs: the translator and the server's time now (durations count from it). */
export type CellContext = { t: T; now: number };
type Cell<R> = (row: R, c: CellContext) => ReactNode;

const since = (iso: string | null, c: CellContext) =>
  iso ? formatDuration(c.t, c.now - Date.parse(iso)) : c.t('monitoring.none');
const count = (n: number) => n;

const statusColor = { online: 'teal', break: 'yellow', offline: 'gray' } as const;

const cells: { [V in MonitoringView]: Record<string, Cell<never>> } = {
  channels: {
    name: (r: MonitoringChannelRow) => isolate(r.name),
    type: (r: MonitoringChannelRow, c) => c.t(`channels.types.${r.type}`, { defaultValue: r.type }),
    team: (r: MonitoringChannelRow) => isolate(r.teamName),
    waiting: (r: MonitoringChannelRow) => count(r.waiting),
    inProgress: (r: MonitoringChannelRow) => count(r.inProgress),
    longestWait: (r: MonitoringChannelRow, c) => since(r.waitingSince, c),
  },
  teams: {
    name: (r: MonitoringTeamRow) => isolate(r.name),
    waiting: (r: MonitoringTeamRow) => count(r.waiting),
    inProgress: (r: MonitoringTeamRow) => count(r.inProgress),
    longestWait: (r: MonitoringTeamRow, c) => since(r.waitingSince, c),
    inWork: (r: MonitoringTeamRow) => count(r.inWork),
    onBreak: (r: MonitoringTeamRow) => count(r.onBreak),
    offline: (r: MonitoringTeamRow) => count(r.offline),
  },
  operators: {
    name: (r: MonitoringOperatorRow) => isolate(r.name),
    status: (r: MonitoringOperatorRow, c) => (
      <Badge color={statusColor[r.status]} variant="light">
        {c.t(`monitoring.status.${r.status}`)}
      </Badge>
    ),
    statusSince: (r: MonitoringOperatorRow, c) => since(r.statusSince, c),
    load: (r: MonitoringOperatorRow, c) => (
      <Group gap="xs" wrap="nowrap">
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          {c.t('monitoring.loadOf', { n: r.inProgress, limit: r.limit })}
        </Text>
        <Progress
          w={64}
          value={r.limit ? Math.min(100, (r.inProgress / r.limit) * 100) : 0}
          color={r.limit && r.inProgress >= r.limit ? 'red' : 'brand'}
          aria-hidden
        />
      </Group>
    ),
    teams: (r: MonitoringOperatorRow, c) =>
      r.teamNames.length ? r.teamNames.map(isolate).join(', ') : c.t('monitoring.none'),
  },
  abonents: {
    client: (r: MonitoringAbonentRow) => isolate(r.clientName),
    channel: (r: MonitoringAbonentRow) => isolate(r.channelName),
    team: (r: MonitoringAbonentRow) => isolate(r.teamName),
    waitingFor: (r: MonitoringAbonentRow, c) => since(r.waitingSince, c),
  },
};

export function renderCell(view: MonitoringView, key: string, row: MonitoringRow, c: CellContext): ReactNode {
  const cell = cells[view][key] as Cell<MonitoringRow> | undefined;
  return cell ? cell(row, c) : null;
}

/** Rows in a steady order: by name, clients by the longest wait first. */
export function sortRows(view: MonitoringView, rows: MonitoringRow[]): MonitoringRow[] {
  const copy = [...rows];
  if (view === 'abonents')
    return copy.sort((a, b) =>
      (a as MonitoringAbonentRow).waitingSince.localeCompare((b as MonitoringAbonentRow).waitingSince),
    );
  const name = (r: MonitoringRow) => ('name' in r ? r.name : '');
  return copy.sort((a, b) => name(a).localeCompare(name(b)) || a.id.localeCompare(b.id));
}
