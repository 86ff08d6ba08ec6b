import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { type AppContext, stateSlot } from '../context.ts';
import type { Queryable } from '../db/index.ts';

/**
 * A channel's background sessions: pull providers (IMAP and the like, kind 'inbound') and the mailing sender (kind
 * 'mailing'), one durable row per channel and kind, claimed like timers. A runner leases a due row
 * (FOR UPDATE SKIP LOCKED), so one instance at a time reads a channel's mailbox; it keeps the lease while its
 * session runs (an IDLE connection may stay open for minutes) and gives the row back with its next due time. If
 * the instance dies, the lease runs out and another one takes over from the stored cursor. jobs/ imports no domain
 * module: the channels module registers what a poll does.
 */
export const POLLS = {
  leaseMs: 60_000,
  /** The lease is renewed this often while a session runs. */
  renewMs: 20_000,
  /** A session (an IDLE connection) ends after this long and the row is due again at once: connections are renewed. */
  sessionMs: 10 * 60_000,
  /** A poll that failed is tried again this much later. */
  retryFailedMs: 60_000,
  batch: 20,
} as const;

/** What one session of a claimed channel has at hand. */
export type PollRun = {
  channelId: string;
  organisationId: string;
  cursor: Record<string, unknown>;
  /** Stores the cursor, only while this run still holds the claim; false when the claim was lost (stop then). */
  saveCursor(cursor: Record<string, unknown>): Promise<boolean>;
  /** Aborted when the session must end: its time is up, the claim was lost, or the server stops. */
  signal: AbortSignal;
};

/** What a poll does: reads new items; answers when the row is due again (ms from now; 0: at once). */
export type Poller = (app: AppContext, run: PollRun) => Promise<{ againInMs: number }>;

/**
 * A channel's background sessions of different kinds run side by side, each with its own row and lease: 'inbound'
 * (a pull provider reading new messages, the channels module), 'mailing' (the mailings module's sender, one
 * per channel so the provider's rate holds across instances) and 'import' (an SMS channel's file imports, the
 * sms-import module: one instance at a time, resumed after a crash from the last chunk counted).
 */
export type PollKind = 'inbound' | 'mailing' | 'import';
const pollers = new Map<PollKind, Poller>();
export function registerPoller(p: Poller, kind: PollKind = 'inbound'): void {
  pollers.set(kind, p);
}

type PollRow = {
  channel_id: string;
  kind: PollKind;
  organisation_id: string;
  cursor: Record<string, unknown>;
};

/** Makes the channel's poll of that kind due by `dueAt` (a new or re-activated channel); its cursor is kept. */
export const schedulePoll = (
  q: Queryable,
  orgId: string,
  channelId: string,
  dueAt: Date,
  kind: PollKind = 'inbound',
) =>
  q.query(
    `insert into channel_polls (channel_id, kind, organisation_id, due_at) values ($1, $4, $2, $3)
     on conflict (channel_id, kind) do update set due_at = least(channel_polls.due_at, excluded.due_at)`,
    [channelId, orgId, dueAt, kind],
  );

/**
 * Takes the channel's poll back from whoever runs it (its settings changed, it was deactivated or deleted): the
 * running session loses its claim at its next lease renewal and ends; the next one reads the new settings.
 */
export const resetPoll = (q: Queryable, channelId: string, dueAt: Date, kind: PollKind = 'inbound') =>
  q.query(
    `update channel_polls set claimed_by = null, lease_until = null, due_at = $2, updated_at = now()
      where channel_id = $1 and kind = $3`,
    [channelId, dueAt, kind],
  );

/**
 * Ends this instance's running session of the channel at once, after its poll was reset (resetPoll, committed): a
 * long poll or IDLE connection is not left to read on until its next lease renewal. Sessions on other instances
 * end at theirs.
 */
export function endPollSession(app: AppContext, channelId: string, kind: PollKind = 'inbound'): void {
  sessionsOf(app).ending.get(`${kind}:${channelId}`)?.abort();
}

/**
 * Claims due polls of live, active channels of active organisations in one autocommit statement. A claimed row's
 * due time is set to infinity: a schedulePoll while its session runs (a mailing started, a channel changed) brings
 * it back to now, and the release keeps that (least of the two) instead of the session's own next time. A row whose
 * lease ran out (its instance died) is claimable whatever its due time.
 */
const claimDuePolls = (
  q: Queryable,
  now: Date,
  claimedBy: string,
  leaseUntil: Date,
  limit: number,
  kinds: PollKind[],
) =>
  q.query<PollRow>(
    `update channel_polls set claimed_by = $2, lease_until = $3, due_at = 'infinity'
      where (channel_id, kind) in (
        select p.channel_id, p.kind from channel_polls p
          join channels c on c.id = p.channel_id join organisations o on o.id = c.organisation_id
         where ((p.due_at <= $1 and p.lease_until is null) or p.lease_until <= $1) and p.kind = any($5::text[])
           and c.deleted_at is null and c.status = 'active' and o.status = 'active'
         order by p.due_at, p.channel_id limit $4 for update of p skip locked)
      returning channel_id, kind, organisation_id, cursor`,
    [now, claimedBy, leaseUntil, limit, kinds],
  );

/** A claim's row: the channel's poll of that kind, while `claimed_by` still holds it. */
type Claim = { channelId: string; kind: PollKind; claimedBy: string };

const renew = async (q: Queryable, c: Claim, leaseUntil: Date) =>
  (
    await q.query(
      `update channel_polls set lease_until = $4 where channel_id = $1 and kind = $2 and claimed_by = $3
       returning channel_id`,
      [c.channelId, c.kind, c.claimedBy, leaseUntil],
    )
  ).length === 1;

const storeCursor = async (q: Queryable, c: Claim, cursor: object) =>
  (
    await q.query(
      `update channel_polls set cursor = $4, updated_at = now() where channel_id = $1 and kind = $2 and claimed_by = $3
       returning channel_id`,
      [c.channelId, c.kind, c.claimedBy, JSON.stringify(cursor)],
    )
  ).length === 1;

const release = (q: Queryable, c: Claim, dueAt: Date, error: string | null) =>
  q.query(
    `update channel_polls set claimed_by = null, lease_until = null, due_at = least(due_at, $4), last_error = $5,
            updated_at = now()
      where channel_id = $1 and kind = $2 and claimed_by = $3`,
    [c.channelId, c.kind, c.claimedBy, dueAt, error],
  );

/** `ending`: each running session's way to end it, by kind and channel (this instance's sessions only). */
type Sessions = { running: Set<Promise<void>>; stop: AbortController; ending: Map<string, AbortController> };
const SESSIONS = stateSlot<Sessions>('polls.sessions', () => {
  const stop = new AbortController();
  // Every running session listens for the server's stop: as many listeners as polled channels.
  setMaxListeners(0, stop.signal);
  return { running: new Set(), stop, ending: new Map() };
});
const sessionsOf = (app: AppContext): Sessions => app.state.of(app, SESSIONS);

async function session(app: AppContext, row: PollRow, claimedBy: string): Promise<void> {
  const p = pollers.get(row.kind);
  const claim: Claim = { channelId: row.channel_id, kind: row.kind, claimedBy };
  const key = `${row.kind}:${row.channel_id}`;
  const end = new AbortController();
  const { ending } = sessionsOf(app);
  ending.set(key, end);
  const stop = sessionsOf(app).stop.signal;
  const onStop = () => end.abort();
  stop.addEventListener('abort', onStop);
  const timeUp = setTimeout(() => end.abort(), POLLS.sessionMs);
  const renewer = setInterval(() => {
    const until = new Date(app.clock.now().getTime() + POLLS.leaseMs);
    renew(app.db, claim, until)
      .then((held) => held || end.abort())
      .catch(() => end.abort());
  }, POLLS.renewMs);
  let dueAt: Date;
  let error: string | null = null;
  try {
    if (!p) throw new Error('no poller registered');
    const { againInMs } = await p(app, {
      channelId: row.channel_id,
      organisationId: row.organisation_id,
      cursor: row.cursor ?? {},
      saveCursor: (c) => storeCursor(app.db, claim, c),
      signal: end.signal,
    });
    dueAt = new Date(app.clock.now().getTime() + againInMs);
  } catch (err) {
    error = (err as Error).message?.slice(0, 500) ?? 'poll failed';
    if (!stop.aborted) app.log.warn({ err, channel: row.channel_id }, 'channel poll failed');
    dueAt = new Date(app.clock.now().getTime() + POLLS.retryFailedMs);
  } finally {
    clearTimeout(timeUp);
    clearInterval(renewer);
    stop.removeEventListener('abort', onStop);
    if (ending.get(key) === end) ending.delete(key);
  }
  // A stopping server gives the row back due at once: the next instance (or start) goes on from the cursor.
  if (stop.aborted) dueAt = app.clock.now();
  await release(app.db, claim, dueAt, error).catch((err) =>
    app.log.warn({ err, channel: row.channel_id }, 'channel poll not released; its lease will run out'),
  );
}

/**
 * Starts a session for every due poll this instance can claim; sessions run in the background (an IDLE session
 * lasts minutes) and are not awaited here. Answers the sessions started, for callers (tests) that wait on them.
 */
export async function runDuePolls(app: AppContext): Promise<Promise<void>[]> {
  const s = sessionsOf(app);
  if (s.stop.signal.aborted || !pollers.size) return [];
  const claimedBy = randomUUID();
  const now = app.clock.now();
  const rows = await claimDuePolls(
    app.db,
    now,
    claimedBy,
    new Date(now.getTime() + POLLS.leaseMs),
    POLLS.batch,
    [...pollers.keys()],
  );
  return rows.map((row) => {
    const run = session(app, row, claimedBy);
    s.running.add(run);
    run.finally(() => s.running.delete(run)).catch(() => undefined);
    return run;
  });
}

/** Ends every running session (IDLE connections are closed) and waits for them to give their rows back. */
export async function stopPolls(app: AppContext): Promise<void> {
  const s = sessionsOf(app);
  s.stop.abort();
  await Promise.allSettled([...s.running]);
}
