import {
  FIELD_MESSAGES,
  MONITORING_COLUMNS,
  type MonitoringRow,
  type MonitoringRows,
  type MonitoringSettings,
  type MonitoringSnapshot,
  type MonitoringView,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { userTeamIds } from '../teams/readers.ts';
import * as Q from './queries.ts';

/** What a monitor sees: the whole organisation (AUTHORITY_ALL_CHATS), else what concerns their own teams. */
export type MonitorScope = { all: boolean; teams: ReadonlySet<string> };

export async function scopeOf(
  q: Queryable,
  user: { userId: string; rights: ReadonlySet<string> },
): Promise<MonitorScope> {
  const all = user.rights.has('AUTHORITY_ALL_CHATS');
  return { all, teams: new Set(all ? [] : await userTeamIds(q, user.userId)) };
}

const rowTeams: { [V in MonitoringView]: (r: MonitoringRows[V]) => string[] } = {
  channels: (r) => [r.teamId],
  teams: (r) => [r.id],
  operators: (r) => r.teamIds,
  abonents: (r) => [r.teamId],
};

/**
 * Whether a row is within the scope: a team-scoped monitor sees their teams, the channels those teams own, the
 * operators who are members of one of them, and the clients waiting in their queues.
 */
export const inScope = (view: MonitoringView, row: MonitoringRow, scope: MonitorScope): boolean =>
  scope.all || (rowTeams[view] as (r: MonitoringRow) => string[])(row).some((t) => scope.teams.has(t));

const compute: { [V in MonitoringView]: (q: Queryable, orgId: string) => Promise<MonitoringRows[V][]> } = {
  channels: Q.channelRows,
  teams: Q.teamRows,
  operators: Q.operatorRows,
  abonents: Q.abonentRows,
};

/** Every row of the view in the organisation, from the current state (no scope applied). */
export const viewRows = (q: Queryable, orgId: string, view: MonitoringView): Promise<MonitoringRow[]> =>
  compute[view](q, orgId);

/** `GET /api/monitoring/{view}`: the rows the caller may see now. */
export async function snapshot(
  app: AppContext,
  user: { userId: string; organisationId: string; rights: ReadonlySet<string> },
  view: MonitoringView,
): Promise<MonitoringSnapshot> {
  const scope = await scopeOf(app.db, user);
  const rows = await viewRows(app.db, user.organisationId, view);
  return { view, at: app.clock.now().toISOString(), rows: rows.filter((r) => inScope(view, r, scope)) };
}

type Column = { key: string; visible: boolean };

/** Stored columns of known keys, in their order, then the view's columns not stored yet (shown). */
function normalise(view: MonitoringView, stored: Column[]): Column[] {
  const keys: readonly string[] = MONITORING_COLUMNS[view];
  const kept = stored.filter(
    (c, i) => keys.includes(c.key) && stored.findIndex((o) => o.key === c.key) === i,
  );
  const missing = keys.filter((k) => !kept.some((c) => c.key === k)).map((key) => ({ key, visible: true }));
  return [...kept, ...missing];
}

export async function readSettings(
  app: AppContext,
  userId: string,
  view: MonitoringView,
): Promise<MonitoringSettings> {
  const row = await Q.readSettings(app.db, userId, view);
  return { view, columns: normalise(view, row?.columns ?? []) };
}

/**
 * Saves a user's columns of a view: every key one of the view's columns, each at most once, at least one shown.
 * Columns left out keep their default place at the end, shown.
 */
export async function saveSettings(
  app: AppContext,
  user: { userId: string; organisationId: string },
  view: MonitoringView,
  columns: Column[],
): Promise<MonitoringSettings> {
  const keys: readonly string[] = MONITORING_COLUMNS[view];
  const fields: Record<string, string> = {};
  columns.forEach((c, i) => {
    if (!keys.includes(c.key) || columns.findIndex((o) => o.key === c.key) !== i)
      fields[`columns.${i}.key`] = FIELD_MESSAGES.valueIncorrect;
  });
  const result = normalise(view, columns);
  if (!Object.keys(fields).length && !result.some((c) => c.visible))
    fields.columns = FIELD_MESSAGES.valueIncorrect;
  if (Object.keys(fields).length) throw new AppError('validationException', fields);
  await Q.writeSettings(app.db, user.organisationId, user.userId, view, result, app.clock.now());
  return { view, columns: result };
}
