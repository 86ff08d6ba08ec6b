import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { PRESENCE } from './users.ts';

/** §2.6 Monitoring: the four live tables. */
export const MONITORING_VIEWS = ['channels', 'teams', 'operators', 'abonents'] as const;
export type MonitoringView = (typeof MONITORING_VIEWS)[number];

/** The columns of each view, in their default order (every one shown by default). */
export const MONITORING_COLUMNS = {
  channels: ['name', 'type', 'team', 'waiting', 'inProgress', 'longestWait'],
  teams: ['name', 'waiting', 'inProgress', 'longestWait', 'inWork', 'onBreak', 'offline'],
  operators: ['name', 'status', 'statusSince', 'load', 'teams'],
  abonents: ['client', 'channel', 'team', 'waitingFor'],
} as const satisfies Record<MonitoringView, readonly string[]>;
export type MonitoringColumn<V extends MonitoringView = MonitoringView> =
  (typeof MONITORING_COLUMNS)[V][number];

/** At most this many waiting clients are listed (the longest waits first). */
export const MONITORING_ABONENTS_MAX = 500;
/** Live rows of one organisation are recomputed at most this often (a burst of changes is one push). */
export const MONITORING_PUSH_MS = 500;

export const monitoringViewParams = z.object({ view: z.enum(MONITORING_VIEWS, M.valueIncorrect) });

const since = z.string().nullable();
export const monitoringChannelRow = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  teamId: z.string(),
  teamName: z.string(),
  waiting: z.number().int(),
  inProgress: z.number().int(),
  /** When the longest current wait began (null: nobody waits); the screen counts the duration from it. */
  waitingSince: since,
});
export const monitoringTeamRow = z.object({
  id: z.string(),
  name: z.string(),
  waiting: z.number().int(),
  inProgress: z.number().int(),
  waitingSince: since,
  inWork: z.number().int(),
  onBreak: z.number().int(),
  offline: z.number().int(),
});
export const monitoringOperatorRow = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(PRESENCE),
  statusSince: since,
  /** Chats In progress now, against `limit` (the highest dialog limit of their teams; 0 without a team). */
  inProgress: z.number().int(),
  limit: z.number().int(),
  teamIds: z.array(z.string()),
  teamNames: z.array(z.string()),
});
export const monitoringAbonentRow = z.object({
  /** The waiting chat. */
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  channelId: z.string(),
  channelName: z.string(),
  teamId: z.string(),
  teamName: z.string(),
  waitingSince: z.string(),
});
export type MonitoringChannelRow = z.infer<typeof monitoringChannelRow>;
export type MonitoringTeamRow = z.infer<typeof monitoringTeamRow>;
export type MonitoringOperatorRow = z.infer<typeof monitoringOperatorRow>;
export type MonitoringAbonentRow = z.infer<typeof monitoringAbonentRow>;
export type MonitoringRows = {
  channels: MonitoringChannelRow;
  teams: MonitoringTeamRow;
  operators: MonitoringOperatorRow;
  abonents: MonitoringAbonentRow;
};
export type MonitoringRow = MonitoringRows[MonitoringView];

/** `GET /api/monitoring/{view}`: the rows now, and the server's clock (`at`) the durations are counted against. */
export const monitoringSnapshotDto = z.object({
  view: z.enum(MONITORING_VIEWS),
  at: z.string(),
  rows: z.array(
    z.union([monitoringChannelRow, monitoringTeamRow, monitoringOperatorRow, monitoringAbonentRow]),
  ),
});
export type MonitoringSnapshot<V extends MonitoringView = MonitoringView> = {
  view: V;
  at: string;
  rows: MonitoringRows[V][];
};

/**
 * The `monitoring` topic of the realtime socket: after `{"type":"subscribe","topic":"monitoring","params":{"view"}}`
 * a `topic` frame with the full rows (`full: true`), then, on changes, the rows that changed and the ids removed.
 */
export type MonitoringPush = {
  view: MonitoringView;
  at: string;
  full: boolean;
  rows: MonitoringRow[];
  removed: string[];
};

const columnSetting = z.object({
  key: z.string(M.valueIncorrect).max(32, M.valueIncorrect),
  visible: z.boolean(M.valueIncorrect),
});
/** `PUT /api/monitoring/settings/{view}`: the columns in the order shown, each with whether it is shown. */
export const monitoringSettingsSchema = z.object({
  columns: z.array(columnSetting, M.valueIncorrect).max(32, M.valueIncorrect),
});
export const monitoringSettingsDto = z.object({
  view: z.enum(MONITORING_VIEWS),
  columns: z.array(z.object({ key: z.string(), visible: z.boolean() })),
});
export type MonitoringSettings = z.infer<typeof monitoringSettingsDto>;
