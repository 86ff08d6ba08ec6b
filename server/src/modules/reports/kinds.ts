import type {
  CategoriesReport,
  DialogFigures,
  GroupedReport,
  ReportQuery,
  SummaryReport,
  SummaryRow,
  TimeReport,
  TimeRow,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { NIL } from './rollup.ts';
import { emptySums, figures, type ResolvedPeriod, resolveReportPeriod, rollupSource } from './service.ts';

/**
 * The report kinds beside Dialogs, all from the hourly rollups (rollup.ts) or, for working time, from the presence
 * log (a few rows per operator and day, never messages). Every query is scoped to the organisation.
 */

const periodDto = (p: ResolvedPeriod) => ({
  from: p.from,
  to: p.to,
  start: p.start.toISOString(),
  end: p.end.toISOString(),
  timeZone: p.timeZone,
});

type GroupBy = 'channels' | 'employees' | 'teams';
const GROUP_COLUMN: Record<GroupBy, string> = {
  channels: 'channel_id',
  employees: 'operator_id',
  teams: 'team_id',
};
const NAMES_OF: Record<GroupBy, string> = {
  channels: 'select id, name from channels where organisation_id = $1',
  employees: 'select id, name from users where organisation_id = $1',
  teams: 'select id, name from teams where organisation_id = $1',
};

/** Channels, employees, teams: the Dialogs figures per row (rows with any figure), ordered by name. */
export async function groupedReport(
  app: AppContext,
  orgId: string,
  query: ReportQuery,
  by: GroupBy,
): Promise<GroupedReport> {
  const period = await resolveReportPeriod(app, orgId, query);
  const col = GROUP_COLUMN[by];
  const src = rollupSource(orgId, period);
  const params = src.params;
  const cond = `${src.range}${by === 'employees' ? ` and operator_id <> '${NIL}'` : ''}`;
  const [sums, hist, names] = await Promise.all([
    app.db.query<Record<string, number | string>>(
      `select ${col} as id, sum(dialogs_new)::int as dialogs_new, sum(dialogs_closed)::int as dialogs_closed,
              sum(dialogs_transferred)::int as dialogs_transferred,
              sum(first_response_count)::int as fr_count, sum(first_response_sum_ms)::bigint as fr_sum,
              sum(handling_count)::int as h_count, sum(handling_sum_ms)::bigint as h_sum,
              sum(rating_1)::int as r1, sum(rating_2)::int as r2, sum(rating_3)::int as r3, sum(rating_4)::int as r4,
              sum(rating_5)::int as r5, sum(messages_in)::int as messages_in, sum(messages_out)::int as messages_out
         from ${src.dialogs} where ${cond} group by ${col}`,
      params,
    ),
    app.db.query<{ id: string; metric: string; bucket: number; count: number }>(
      `select ${col} as id, metric, bucket, sum(count)::int as count from ${src.hist} where ${cond}
        group by ${col}, metric, bucket`,
      params,
    ),
    app.db.query<{ id: string; name: string }>(NAMES_OF[by], [orgId]),
  ]);
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  const rows = new Map<string, ReturnType<typeof emptySums>>();
  for (const r of sums) {
    const s = emptySums();
    s.dialogsNew = Number(r.dialogs_new);
    s.dialogsClosed = Number(r.dialogs_closed);
    s.dialogsTransferred = Number(r.dialogs_transferred);
    s.frCount = Number(r.fr_count);
    s.frSum = Number(r.fr_sum);
    s.hCount = Number(r.h_count);
    s.hSum = Number(r.h_sum);
    s.ratings = [r.r1, r.r2, r.r3, r.r4, r.r5].map(Number);
    s.messagesIn = Number(r.messages_in);
    s.messagesOut = Number(r.messages_out);
    rows.set(String(r.id), s);
  }
  for (const h of hist) {
    const s = rows.get(h.id);
    if (!s) continue;
    const m = h.metric === 'first_response' ? s.frBuckets : s.hBuckets;
    m.set(h.bucket, (m.get(h.bucket) ?? 0) + h.count);
  }
  const out = [...rows.entries()]
    .map(([id, s]) => ({ id, name: nameOf.get(id) ?? (id === NIL ? '' : id), ...figures(s) }))
    .filter((r) => hasFigures(r));
  out.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return { period: periodDto(period), rows: out };
}

const hasFigures = (f: DialogFigures) =>
  f.dialogsNew + f.dialogsClosed + f.dialogsTransferred + f.messagesIn + f.messagesOut > 0 ||
  f.ratings.some((n) => n > 0);

/** The organisation's operators (holders of AUTHORITY_CHAT_DISTRIBUTION, active) with their current presence. */
async function operators(app: AppContext, orgId: string) {
  return app.db.query<{
    id: string;
    name: string;
    presence: string;
    presence_changed_at: Date | null;
    created_at: Date;
  }>(
    `select u.id, u.name, u.presence, u.presence_changed_at, u.created_at from users u join roles r on r.id = u.role_id
      where u.organisation_id = $1 and u.active and 'AUTHORITY_CHAT_DISTRIBUTION' = any(r.rights)
      order by u.name, u.id`,
    [orgId],
  );
}

/** The part of [a, b) inside [start, end), in ms. */
const overlap = (a: number, b: number, start: number, end: number) =>
  Math.max(0, Math.min(b, end) - Math.max(a, start));

/**
 * Summary: a row per channel (dialogs, accepted and missed messages) and per operator (online and break time from
 * the presence rollup plus the current open interval, dialogs closed, accepted and missed messages).
 */
export async function summaryReport(
  app: AppContext,
  orgId: string,
  query: ReportQuery,
): Promise<SummaryReport> {
  const period = await resolveReportPeriod(app, orgId, query);
  const params = [orgId, period.start.toISOString(), period.end.toISOString()];
  const src = rollupSource(orgId, period);
  const [channels, byChannel, byOperator, presence, ops] = await Promise.all([
    app.db.query<{ id: string; name: string }>(
      'select id, name from channels where organisation_id = $1 order by name, id',
      [orgId],
    ),
    app.db.query<{ id: string; dialogs: number; accepted: number; missed: number }>(
      `select channel_id as id, sum(dialogs_new)::int as dialogs, sum(messages_in)::int as accepted,
              sum(messages_missed)::int as missed
         from ${src.dialogs} where ${src.range} group by channel_id`,
      src.params,
    ),
    app.db.query<{ id: string; dialogs: number; accepted: number; missed: number }>(
      `select operator_id as id, sum(dialogs_closed)::int as dialogs, sum(messages_in)::int as accepted,
              sum(messages_missed)::int as missed
         from ${src.dialogs} where ${src.range} and operator_id <> '${NIL}' group by operator_id`,
      src.params,
    ),
    app.db.query<{ id: string; online: string; brk: string }>(
      `select user_id as id, sum(online_ms)::bigint as online, sum(break_ms)::bigint as brk
         from report_presence_hourly where organisation_id = $1 and hour >= $2 and hour < $3 group by user_id`,
      params,
    ),
    operators(app, orgId),
  ]);
  const chan = new Map(byChannel.map((r) => [r.id, r]));
  const opFig = new Map(byOperator.map((r) => [r.id, r]));
  const pres = new Map(presence.map((r) => [r.id, r]));
  const now = app.clock.now().getTime();
  const start = period.start.getTime();
  const end = period.end.getTime();
  const rows: SummaryRow[] = channels.map((c) => ({
    kind: 'channel',
    id: c.id,
    name: c.name,
    onlineSeconds: null,
    breakSeconds: null,
    dialogs: chan.get(c.id)?.dialogs ?? 0,
    acceptedMessages: chan.get(c.id)?.accepted ?? 0,
    missedMessages: chan.get(c.id)?.missed ?? 0,
  }));
  for (const u of ops) {
    let online = Number(pres.get(u.id)?.online ?? 0);
    let brk = Number(pres.get(u.id)?.brk ?? 0);
    // The interval still open (not folded yet: it closes at the next change) counts up to now.
    if (u.presence_changed_at) {
      const open = overlap(new Date(u.presence_changed_at).getTime(), now, start, end);
      if (u.presence === 'online') online += open;
      if (u.presence === 'break') brk += open;
    }
    rows.push({
      kind: 'operator',
      id: u.id,
      name: u.name,
      onlineSeconds: Math.round(online / 1000),
      breakSeconds: Math.round(brk / 1000),
      dialogs: opFig.get(u.id)?.dialogs ?? 0,
      acceptedMessages: opFig.get(u.id)?.accepted ?? 0,
      missedMessages: opFig.get(u.id)?.missed ?? 0,
    });
  }
  return { period: periodDto(period), rows };
}

type PresenceState = 'online' | 'break' | 'offline';

/**
 * Working time: each operator's intervals of In work / Break / offline inside the period (cut at now, and from the
 * account's creation), from the presence log: the state at the start is the one the first change after it left.
 */
export async function timeReport(app: AppContext, orgId: string, query: ReportQuery): Promise<TimeReport> {
  const period = await resolveReportPeriod(app, orgId, query);
  const start = period.start.getTime();
  const now = app.clock.now().getTime();
  const end = Math.min(period.end.getTime(), now);
  const [ops, changes, after] = await Promise.all([
    operators(app, orgId),
    app.db.query<{ user_id: string; presence: PresenceState; previous: PresenceState; created_at: Date }>(
      `select user_id, presence, previous, created_at from presence_history
        where organisation_id = $1 and created_at >= $2 and created_at < $3 order by user_id, created_at, id`,
      [orgId, period.start.toISOString(), new Date(Math.max(start, end)).toISOString()],
    ),
    // The first change after the window tells the state the window ended in for users with no change inside it.
    app.db.query<{ id: string; previous: PresenceState | null }>(
      `select u.id, (select p.previous from presence_history p where p.user_id = u.id and p.created_at >= $2
                      order by p.created_at, p.id limit 1) as previous
         from users u where u.organisation_id = $1`,
      [orgId, new Date(Math.max(start, end)).toISOString()],
    ),
  ]);
  const byUser = new Map<string, typeof changes>();
  for (const c of changes) {
    const list = byUser.get(c.user_id) ?? [];
    list.push(c);
    byUser.set(c.user_id, list);
  }
  const stateAfter = new Map(after.map((a) => [a.id, a.previous]));
  const rows: TimeRow[] = [];
  for (const u of ops) {
    const list = byUser.get(u.id) ?? [];
    const intervals: TimeRow['intervals'] = [];
    const secs = { online: 0, break: 0, offline: 0 };
    // An account counts from its creation: before it there was nobody to be offline (issue 36.13).
    const from = Math.max(start, new Date(u.created_at).getTime());
    if (end > from) {
      let state: PresenceState =
        list[0]?.previous ?? stateAfter.get(u.id) ?? (u.presence as PresenceState) ?? 'offline';
      let cursor = from;
      const push = (s: PresenceState, a: number, b: number) => {
        if (b <= a) return;
        secs[s] += b - a;
        const last = intervals[intervals.length - 1];
        if (last && last.state === s && Date.parse(last.end) === a) last.end = new Date(b).toISOString();
        else intervals.push({ state: s, start: new Date(a).toISOString(), end: new Date(b).toISOString() });
      };
      for (const c of list) {
        const t = new Date(c.created_at).getTime();
        push(state, cursor, t);
        state = c.presence;
        cursor = t;
      }
      push(state, cursor, end);
    }
    rows.push({
      userId: u.id,
      name: u.name,
      onlineSeconds: Math.round(secs.online / 1000),
      breakSeconds: Math.round(secs.break / 1000),
      offlineSeconds: Math.round(secs.offline / 1000),
      intervals,
    });
  }
  return { period: periodDto(period), rows };
}

/** Inquiry categories: requests closed per channel and category; without a category only on request. */
export async function categoriesReport(
  app: AppContext,
  orgId: string,
  query: ReportQuery,
): Promise<CategoriesReport> {
  const period = await resolveReportPeriod(app, orgId, query);
  const params: unknown[] = [orgId, period.start.toISOString(), period.end.toISOString()];
  let cond = 'r.organisation_id = $1 and r.hour >= $2 and r.hour < $3';
  if (query.channelId) {
    params.push(query.channelId);
    cond += ` and r.channel_id = $${params.length}`;
  }
  if (query.includeWithoutCategory !== 'true') cond += ` and r.category_id <> '${NIL}'`;
  const rows = await app.db.query<{
    channel_id: string;
    channel_name: string | null;
    category_id: string;
    category_name: string | null;
    requests: number;
  }>(
    `select r.channel_id, ch.name as channel_name, r.category_id, k.name as category_name,
            sum(r.requests)::int as requests
       from report_category_hourly r
       left join channels ch on ch.id = r.channel_id and ch.organisation_id = r.organisation_id
       left join request_categories k on k.id = r.category_id and k.organisation_id = r.organisation_id
      where ${cond}
      group by r.channel_id, ch.name, r.category_id, k.name
      order by ch.name, r.channel_id, (r.category_id = '${NIL}'), k.name`,
    params,
  );
  return {
    period: periodDto(period),
    rows: rows.map((r) => ({
      channelId: r.channel_id,
      channelName: r.channel_name ?? '',
      categoryId: r.category_id === NIL ? null : r.category_id,
      categoryName: r.category_id === NIL ? null : (r.category_name ?? ''),
      requests: r.requests,
    })),
  };
}
