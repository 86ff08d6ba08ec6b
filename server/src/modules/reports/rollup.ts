import type { AppContext } from '../../context.ts';
import type { Db, Queryable } from '../../db/index.ts';

/**
 * Report rollups: hourly UTC buckets per organisation x channel x team x operator, folded from the durable rows
 * (chat_history, messages) in id order (uuid v7, time ordered) behind a stored cursor per source. The cursor moves
 * in the same transaction as the rollup increments, so a crash or restart never counts a row twice nor skips one.
 *
 * Rows younger than `lagMs` (by the time inside their uuid v7) are left for the next pass, and on PostgreSQL so are
 * rows younger than the start of the oldest other transaction still open that has written: it may yet commit a row
 * whose id is older than rows already visible (uuid v7 is taken at insert, commit order differs). So the margin only
 * has to cover clock skew between the id's clock and ours, not slow transactions; `rebuildRollups` recomputes
 * everything.
 */

export const NIL = '00000000-0000-0000-0000-000000000000';
/** Upper bounds (seconds, exclusive) of the duration buckets; the last bucket is everything above. */
export const DURATION_BOUNDS_S = [
  5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 420, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200, 10800,
  14400, 21600, 28800, 43200, 86400, 172800, 345600, 604800,
] as const;
export const DEFAULT_LAG_MS = 500;
const BATCH = 1_000;

export function durationBucket(ms: number): number {
  const s = ms / 1000;
  const i = DURATION_BOUNDS_S.findIndex((b) => s < b);
  return i === -1 ? DURATION_BOUNDS_S.length : i;
}

/** The q-quantile (0..1) in seconds from bucket counts, interpolated linearly inside its bucket; null when empty. */
export function quantileFromBuckets(counts: ReadonlyMap<number, number>, q: number): number | null {
  let total = 0;
  for (const c of counts.values()) total += c;
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i <= DURATION_BOUNDS_S.length; i++) {
    const c = counts.get(i) ?? 0;
    if (c === 0) continue;
    const lower = i === 0 ? 0 : DURATION_BOUNDS_S[i - 1];
    if (seen + c >= rank) {
      if (i === DURATION_BOUNDS_S.length) return lower;
      const upper = DURATION_BOUNDS_S[i];
      return Math.round((lower + ((rank - seen) / c) * (upper - lower)) * 10) / 10;
    }
    seen += c;
  }
  return DURATION_BOUNDS_S[DURATION_BOUNDS_S.length - 1];
}

type Key = { org: string; hour: string; channel: string; team: string; operator: string };
type Counters = {
  dialogs_new: number;
  dialogs_closed: number;
  dialogs_transferred: number;
  first_response_count: number;
  first_response_sum_ms: number;
  handling_count: number;
  handling_sum_ms: number;
  rating_1: number;
  rating_2: number;
  rating_3: number;
  rating_4: number;
  rating_5: number;
  messages_in: number;
  messages_out: number;
  messages_missed: number;
};
export const COLUMNS = [
  'dialogs_new',
  'dialogs_closed',
  'dialogs_transferred',
  'first_response_count',
  'first_response_sum_ms',
  'handling_count',
  'handling_sum_ms',
  'rating_1',
  'rating_2',
  'rating_3',
  'rating_4',
  'rating_5',
  'messages_in',
  'messages_out',
  'messages_missed',
] as const satisfies readonly (keyof Counters)[];

class Delta {
  /** A source gave a whole batch: more rows may be waiting behind it. */
  full = false;
  rows = new Map<string, { key: Key; c: Counters }>();
  hist = new Map<string, { key: Key; metric: string; bucket: number; count: number }>();
  presence = new Map<string, { org: string; hour: string; user: string; online: number; break: number }>();
  categories = new Map<string, { org: string; hour: string; channel: string; category: string; n: number }>();

  /** Adds the presence interval [from, to) in `state` to each UTC hour it covers. */
  presenceInterval(org: string, user: string, state: string, from: number, to: number) {
    if (state !== 'online' && state !== 'break') return;
    for (let t = from; t < to; ) {
      const hourStart = t - (t % 3_600_000);
      const next = Math.min(to, hourStart + 3_600_000);
      const hour = new Date(hourStart).toISOString();
      const k = `${org}|${hour}|${user}`;
      const r = this.presence.get(k) ?? { org, hour, user, online: 0, break: 0 };
      if (state === 'online') r.online += next - t;
      else r.break += next - t;
      this.presence.set(k, r);
      t = next;
    }
  }
  category(org: string, hour: string, channel: string, category: string) {
    const k = `${org}|${hour}|${channel}|${category}`;
    const r = this.categories.get(k) ?? { org, hour, channel, category, n: 0 };
    r.n++;
    this.categories.set(k, r);
  }

  #row(key: Key) {
    const k = `${key.org}|${key.hour}|${key.channel}|${key.team}|${key.operator}`;
    let r = this.rows.get(k);
    if (!r) {
      r = { key, c: Object.fromEntries(COLUMNS.map((c) => [c, 0])) as Counters };
      this.rows.set(k, r);
    }
    return r.c;
  }
  add(key: Key, col: keyof Counters, n = 1) {
    this.#row(key)[col] += n;
  }
  duration(key: Key, metric: 'first_response' | 'handling', ms: number) {
    const c = this.#row(key);
    const d = Math.max(0, Math.round(ms));
    if (metric === 'first_response') {
      c.first_response_count++;
      c.first_response_sum_ms += d;
    } else {
      c.handling_count++;
      c.handling_sum_ms += d;
    }
    const bucket = durationBucket(d);
    const k = `${key.org}|${key.hour}|${key.channel}|${key.team}|${key.operator}|${metric}|${bucket}`;
    const h = this.hist.get(k) ?? { key, metric, bucket, count: 0 };
    h.count++;
    this.hist.set(k, h);
  }

  async apply(q: Queryable) {
    for (const { key, c } of this.rows.values()) {
      const vals = COLUMNS.map((col) => c[col]);
      await q.query(
        `insert into report_dialog_hourly (organisation_id, hour, channel_id, team_id, operator_id, ${COLUMNS.join(', ')})
         values ($1, $2, $3, $4, $5, ${COLUMNS.map((_, i) => `$${i + 6}`).join(', ')})
         on conflict (organisation_id, hour, channel_id, team_id, operator_id) do update set
         ${COLUMNS.map((col) => `${col} = report_dialog_hourly.${col} + excluded.${col}`).join(', ')}`,
        [key.org, key.hour, key.channel, key.team, key.operator, ...vals],
      );
      // The same increments to the local day of the organisation's zone (read under the cursor lock, which a zone
      // change also takes before rebuilding the daily rows).
      await q.query(
        `insert into report_dialog_daily (organisation_id, day, channel_id, team_id, operator_id, ${COLUMNS.join(', ')})
         select $1, ($2::timestamptz at time zone o.time_zone)::date, $3, $4, $5,
                ${COLUMNS.map((_, i) => `$${i + 6}::bigint`).join(', ')}
           from organisations o where o.id = $1
         on conflict (organisation_id, day, channel_id, team_id, operator_id) do update set
         ${COLUMNS.map((col) => `${col} = report_dialog_daily.${col} + excluded.${col}`).join(', ')}`,
        [key.org, key.hour, key.channel, key.team, key.operator, ...vals],
      );
    }
    for (const p of this.presence.values())
      await q.query(
        `insert into report_presence_hourly (organisation_id, hour, user_id, online_ms, break_ms)
         values ($1, $2, $3, $4, $5)
         on conflict (organisation_id, hour, user_id) do update set
           online_ms = report_presence_hourly.online_ms + excluded.online_ms,
           break_ms = report_presence_hourly.break_ms + excluded.break_ms`,
        [p.org, p.hour, p.user, p.online, p.break],
      );
    for (const c of this.categories.values())
      await q.query(
        `insert into report_category_hourly (organisation_id, hour, channel_id, category_id, requests)
         values ($1, $2, $3, $4, $5)
         on conflict (organisation_id, hour, channel_id, category_id) do update set
           requests = report_category_hourly.requests + excluded.requests`,
        [c.org, c.hour, c.channel, c.category, c.n],
      );
    for (const h of this.hist.values()) {
      await q.query(
        `insert into report_duration_hist (organisation_id, hour, channel_id, team_id, operator_id, metric, bucket, count)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (organisation_id, hour, channel_id, team_id, operator_id, metric, bucket)
         do update set count = report_duration_hist.count + excluded.count`,
        [h.key.org, h.key.hour, h.key.channel, h.key.team, h.key.operator, h.metric, h.bucket, h.count],
      );
      await q.query(
        `insert into report_duration_daily (organisation_id, day, channel_id, team_id, operator_id, metric, bucket, count)
         select $1, ($2::timestamptz at time zone o.time_zone)::date, $3, $4, $5, $6, $7, $8
           from organisations o where o.id = $1
         on conflict (organisation_id, day, channel_id, team_id, operator_id, metric, bucket)
         do update set count = report_duration_daily.count + excluded.count`,
        [h.key.org, h.key.hour, h.key.channel, h.key.team, h.key.operator, h.metric, h.bucket, h.count],
      );
    }
  }
}

const hourOf = (d: Date) => {
  const t = new Date(d);
  t.setUTCMinutes(0, 0, 0);
  return t.toISOString();
};
const ms = (d: unknown) => new Date(d as string | Date).getTime();

/** The smallest uuid v7 of an instant: ids below it were generated before it. */
export function uuidV7Floor(t: number): string {
  const hex = Math.max(0, Math.floor(t)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-0000-0000-000000000000`;
}

/** An operator's reply: outgoing, by a user, not internal, not a mailing. */
export const REPLY = `p.direction = 'out' and p.author_id is not null and not p.internal and p.kind not in ('internal', 'mailing')`;

type HistoryRow = {
  id: string;
  organisation_id: string;
  kind: string;
  created_at: Date;
  from_user_id: string | null;
  to_user_id: string | null;
  from_team_id: string | null;
  to_team_id: string | null;
  score: number | null;
  channel_id: string;
  team_id: string;
  operator_id: string | null;
  started_at: Date | null;
  category_id: string | null;
  missed: number | null;
};

async function foldHistory(
  q: Queryable,
  after: string,
  before: string,
  delta: Delta,
  batch: number,
): Promise<string | null> {
  const rows = await q.query<HistoryRow>(
    `select h.id, h.organisation_id, h.kind, h.created_at, h.from_user_id, h.to_user_id, h.from_team_id,
            h.to_team_id, h.score, c.channel_id, c.team_id, c.operator_id, s.started_at, k.category_id,
            case when s.started_at is null or exists (
                   select 1 from messages p
                    where p.chat_id = h.chat_id and ${REPLY} and p.created_at >= s.started_at
                      and p.created_at <= h.created_at) then 0
                 else (select count(*)::int from messages i
                        where i.chat_id = h.chat_id and i.direction = 'in' and not i.internal
                          and i.created_at >= s.started_at and i.created_at <= h.created_at) end as missed
       from chat_history h
       join chats c on c.id = h.chat_id
       left join lateral (
         select p.created_at as started_at from chat_history p
          where p.chat_id = h.chat_id and p.kind in ('created', 'reopen') and p.created_at <= h.created_at
          order by p.created_at desc limit 1
       ) s on h.kind in ('close', 'auto_close', 'inactivity_close')
       -- The request's category at the close: the latest set or removal up to it.
       left join lateral (
         select p.category_id from chat_history p
          where p.chat_id = h.chat_id and p.kind in ('category_set', 'category_removed')
            and p.created_at <= h.created_at
          order by p.created_at desc, p.id desc limit 1
       ) k on h.kind in ('close', 'auto_close', 'inactivity_close')
      where h.id > $1 and h.id < $2
      order by h.id limit $3`,
    [after, before, batch],
  );
  for (const h of rows) {
    const at = new Date(h.created_at);
    const base = { org: h.organisation_id, hour: hourOf(at), channel: h.channel_id };
    switch (h.kind) {
      case 'created':
      case 'reopen':
        delta.add({ ...base, team: h.to_team_id ?? h.team_id, operator: NIL }, 'dialogs_new');
        break;
      case 'close':
      case 'auto_close':
      case 'inactivity_close': {
        const key = {
          ...base,
          team: h.from_team_id ?? h.team_id,
          operator: h.from_user_id ?? h.operator_id ?? NIL,
        };
        delta.add(key, 'dialogs_closed');
        if (h.missed) delta.add(key, 'messages_missed', h.missed);
        delta.category(h.organisation_id, base.hour, h.channel_id, h.category_id ?? NIL);
        if (h.started_at) delta.duration(key, 'handling', at.getTime() - ms(h.started_at));
        break;
      }
      case 'transfer':
        delta.add(
          { ...base, team: h.from_team_id ?? h.team_id, operator: h.from_user_id ?? NIL },
          'dialogs_transferred',
        );
        break;
      case 'rated':
        if (h.score && h.score >= 1 && h.score <= 5)
          delta.add(
            { ...base, team: h.team_id, operator: h.operator_id ?? NIL },
            `rating_${h.score}` as keyof Counters,
          );
        break;
    }
  }
  if (rows.length >= batch) delta.full = true;
  return rows.length ? rows[rows.length - 1].id : null;
}

type MessageRow = {
  id: string;
  organisation_id: string;
  channel_id: string;
  direction: 'in' | 'out';
  kind: string;
  internal: boolean;
  author_id: string | null;
  created_at: Date;
  team_id: string;
  operator_id: string | null;
  started_at: Date | null;
  first_response: boolean;
};

async function foldMessages(
  q: Queryable,
  after: string,
  before: string,
  delta: Delta,
  batch: number,
): Promise<string | null> {
  const rows = await q.query<MessageRow>(
    `select m.id, m.organisation_id, m.channel_id, m.direction, m.kind, m.internal, m.author_id, m.created_at,
            c.team_id, c.operator_id, s.started_at,
            (s.started_at is not null and not exists (
               select 1 from messages p
                where p.chat_id = m.chat_id and ${REPLY} and p.created_at >= s.started_at
                  and (p.created_at, p.id) < (m.created_at, m.id))) as first_response
       from messages m
       join chats c on c.id = m.chat_id
       left join lateral (
         select h.created_at as started_at from chat_history h
          where h.chat_id = m.chat_id and h.kind in ('created', 'reopen') and h.created_at <= m.created_at
          order by h.created_at desc limit 1
       ) s on m.direction = 'out' and m.author_id is not null
      where m.id > $1 and m.id < $2
      order by m.id limit $3`,
    [after, before, batch],
  );
  for (const m of rows) {
    if (m.internal || m.kind === 'internal') continue;
    const at = new Date(m.created_at);
    const base = { org: m.organisation_id, hour: hourOf(at), channel: m.channel_id, team: m.team_id };
    if (m.direction === 'in') {
      delta.add({ ...base, operator: m.operator_id ?? NIL }, 'messages_in');
      continue;
    }
    // Messages out are operators' replies: automatic texts (rating requests, auto-replies, bots) are not counted.
    if (!m.author_id) continue;
    const key = { ...base, operator: m.author_id };
    delta.add(key, 'messages_out');
    if (m.kind !== 'mailing' && m.first_response && m.started_at)
      delta.duration(key, 'first_response', at.getTime() - ms(m.started_at));
  }
  if (rows.length >= batch) delta.full = true;
  return rows.length ? rows[rows.length - 1].id : null;
}

type PresenceRow = {
  id: string;
  organisation_id: string;
  user_id: string;
  previous: string;
  previous_at: Date | null;
  created_at: Date;
};

/** Each presence change closes the interval of the state it leaves: its time goes to the hours it covered. */
async function foldPresence(
  q: Queryable,
  after: string,
  before: string,
  delta: Delta,
  batch: number,
): Promise<string | null> {
  const rows = await q.query<PresenceRow>(
    `select id, organisation_id, user_id, previous, previous_at, created_at from presence_history
      where id > $1 and id < $2 order by id limit $3`,
    [after, before, batch],
  );
  for (const r of rows)
    if (r.previous_at)
      delta.presenceInterval(r.organisation_id, r.user_id, r.previous, ms(r.previous_at), ms(r.created_at));
  if (rows.length >= batch) delta.full = true;
  return rows.length ? rows[rows.length - 1].id : null;
}

/**
 * The start (ms) of the oldest other open transaction that has written, on PostgreSQL; Infinity when none. Sessions
 * of the server's own database role are visible in pg_stat_activity (other roles' need pg_read_all_stats), and the
 * servers write through their own role, so every transaction that can insert a source row is seen.
 */
export async function openWritersSince(db: Db, q: Queryable): Promise<number> {
  if (db.kind !== 'postgres') return Number.POSITIVE_INFINITY;
  const [r] = await q.query<{ at: Date | null }>(
    `select min(xact_start) as at from pg_stat_activity
      where backend_xid is not null and pid <> pg_backend_pid() and datname = current_database()`,
  );
  return r?.at ? new Date(r.at).getTime() : Number.POSITIVE_INFINITY;
}

/**
 * Folds one batch of each source into the rollups, in one transaction with the cursors (locked FOR UPDATE, so
 * two instances never fold the same rows). Answers how many rows were folded (0 when caught up).
 */
export async function advanceRollups(
  db: Db,
  opts: { lagMs?: number; now?: number; batch?: number } = {},
): Promise<number> {
  return (await advance(db, opts)).folded;
}

/** One batch (advanceRollups); `more` when a source gave a whole batch, so rows may be waiting behind it. */
async function advance(db: Db, opts: { lagMs?: number; now?: number; batch?: number }) {
  const now = opts.now ?? Date.now();
  return db.tx(async (q) => {
    const before = uuidV7Floor(Math.min(now - (opts.lagMs ?? DEFAULT_LAG_MS), await openWritersSince(db, q)));
    const cursors = await q.query<{ source: string; last_id: string }>(
      `select source, last_id from report_cursors order by source for update`,
    );
    const at = new Map(cursors.map((c) => [c.source, c.last_id]));
    const delta = new Delta();
    let folded = 0;
    const lastHistory = await foldHistory(
      q,
      at.get('chat_history') ?? NIL,
      before,
      delta,
      opts.batch ?? BATCH,
    );
    const lastMessage = await foldMessages(q, at.get('messages') ?? NIL, before, delta, opts.batch ?? BATCH);
    const lastPresence = await foldPresence(
      q,
      at.get('presence_history') ?? NIL,
      before,
      delta,
      opts.batch ?? BATCH,
    );
    await delta.apply(q);
    for (const [source, last] of [
      ['chat_history', lastHistory],
      ['messages', lastMessage],
      ['presence_history', lastPresence],
    ] as const) {
      if (!last) continue;
      folded++;
      await q.query(`update report_cursors set last_id = $2, updated_at = now() where source = $1`, [
        source,
        last,
      ]);
    }
    const rows = folded === 0 ? 0 : delta.rows.size + delta.presence.size + folded;
    return { folded: rows, more: delta.full };
  });
}

/**
 * Folds until caught up (bounded by `maxBatches`); answers the number of batches that folded rows. A batch that
 * was not whole reached the horizon: the next one would only find what was committed meanwhile (under a steady
 * load, a few rows for eight statements), so that waits for the next poll.
 */
export async function catchUpRollups(
  db: Db,
  opts: { lagMs?: number; maxBatches?: number } = {},
): Promise<number> {
  let n = 0;
  while (n < (opts.maxBatches ?? 1_000)) {
    const batch = await advance(db, { lagMs: opts.lagMs });
    if (batch.folded > 0) n++;
    if (!batch.more) break;
  }
  return n;
}

/**
 * The job runner's step (each second): folds batches until caught up, at most `POLL_BATCHES` (20,000 rows of each
 * source) so a poll stays short, yet a steady 1,000 messages a second never falls behind.
 */
const POLL_BATCHES = 20;
export async function runReportRollups(app: AppContext): Promise<void> {
  await catchUpRollups(app.db, { maxBatches: POLL_BATCHES });
}
