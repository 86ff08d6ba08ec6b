import type {
  MonitoringPush,
  MonitoringRow,
  MonitoringSettings,
  MonitoringSnapshot,
  MonitoringView,
} from '@smartconnect/contracts';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { get, put } from '../../shared/api/client.ts';
import { subscribeTopic } from '../../shared/realtime/client.ts';
import { monitoringKeys } from './keys.ts';

/** A table's rows and how far the server's clock is ahead of this browser's (durations count on the server's). */
export type LiveTable = { rows: MonitoringRow[]; skewMs: number; live: boolean };

const fromSnapshot = (s: { at: string; rows: MonitoringRow[] }, live: boolean): LiveTable => ({
  rows: s.rows,
  skewMs: Date.parse(s.at) - Date.now(),
  live,
});

/** Applies a push of the `monitoring` topic to the cached table: all rows, or the changed ones and the removed. */
export function applyPush(client: QueryClient, p: MonitoringPush): void {
  client.setQueryData<LiveTable>(monitoringKeys.rows(p.view), (old) => {
    if (p.full || !old) return fromSnapshot(p, true);
    const changed = new Map(p.rows.map((r) => [r.id, r]));
    const removed = new Set(p.removed);
    const rows = old.rows.filter((r) => !removed.has(r.id)).map((r) => changed.get(r.id) ?? r);
    for (const r of p.rows) if (!old.rows.some((o) => o.id === r.id)) rows.push(r);
    return { rows, skewMs: Date.parse(p.at) - Date.now(), live: true };
  });
}

/**
 * The rows of a monitoring table: read once over HTTP, then kept current by the realtime socket's `monitoring` topic
 * (no polling); after a reconnect the topic sends the whole table again.
 */
export function useMonitoringTable(view: MonitoringView) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: monitoringKeys.rows(view),
    queryFn: async () => {
      const snapshot = await get<MonitoringSnapshot>(`/api/monitoring/${view}`);
      // The socket's full rows came first: they are as new or newer than this answer.
      const pushed = client.getQueryData<LiveTable>(monitoringKeys.rows(view));
      return pushed?.live ? pushed : fromSnapshot(snapshot, false);
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(
    () =>
      subscribeTopic('monitoring', { view }, (p) => {
        const data = p.data as MonitoringPush | undefined;
        if (data?.view === view) applyPush(client, data);
      }),
    [client, view],
  );
  // Leaving the tab drops its rows: coming back reads them fresh (the topic pushes only while subscribed).
  useEffect(() => () => client.removeQueries({ queryKey: monitoringKeys.rows(view) }), [client, view]);
  return query;
}

export function useMonitoringSettings(view: MonitoringView) {
  return useQuery({
    queryKey: monitoringKeys.settings(view),
    queryFn: () => get<MonitoringSettings>(`/api/monitoring/settings/${view}`),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export const saveMonitoringSettings = (view: MonitoringView, columns: MonitoringSettings['columns']) =>
  put<MonitoringSettings>(`/api/monitoring/settings/${view}`, { columns });

/** The time now, refreshed every second while a table shows durations. */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}
