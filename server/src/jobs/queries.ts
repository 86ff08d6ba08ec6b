import type { Queryable } from '../db/index.ts';

export type TimerKind =
  | 'auto_close'
  | 'inactivity_close'
  | 'redistribute'
  | 'overdue_half'
  | 'overdue_expired'
  | 'auto_break'
  | 'auto_reply_holding';
export type TimerRow = {
  id: string;
  organisation_id: string;
  kind: TimerKind;
  subject_id: string;
  due_at: Date;
};

/**
 * Sets the timer of (kind, subject) to fire at `dueAt`, replacing an earlier setting. A re-armed timer is a new
 * one: a runner's claim on the old setting ends (that runner finds it no longer claimed and leaves it).
 */
export const upsertTimer = (q: Queryable, orgId: string, kind: TimerKind, subjectId: string, dueAt: Date) =>
  q.query(
    `insert into timers (organisation_id, kind, subject_id, due_at) values ($1, $2, $3, $4)
     on conflict (kind, subject_id) do update set due_at = excluded.due_at, claimed_by = null, lease_until = null`,
    [orgId, kind, subjectId, dueAt],
  );

/** Sets the timer only when none is pending: the earliest setting wins. */
export const insertTimerIfAbsent = (
  q: Queryable,
  orgId: string,
  kind: TimerKind,
  subjectId: string,
  dueAt: Date,
) =>
  q.query(
    `insert into timers (organisation_id, kind, subject_id, due_at) values ($1, $2, $3, $4)
     on conflict (kind, subject_id) do nothing`,
    [orgId, kind, subjectId, dueAt],
  );

const kindLiteral = (kind: TimerKind) => {
  if (!/^[a-z_]+$/.test(kind)) throw new Error(`not a timer kind: ${kind}`);
  return `'${kind}'`;
};

/**
 * Timers as a part (a data-modifying CTE) of another module's statement: `rows` answers organisation_id, kind,
 * subject_id and due_at. A pending timer of a kind in `rearm` takes the new time (a runner's claim on the old setting
 * ends); one of another kind keeps its time (a running clock).
 */
export const armTimersCte = (rows: string, rearm: readonly TimerKind[]) =>
  `insert into timers (organisation_id, kind, subject_id, due_at)
       ${rows}
       on conflict (kind, subject_id) do update set due_at = excluded.due_at, claimed_by = null, lease_until = null
         where excluded.kind in (${rearm.map(kindLiteral).join(', ')})`;

/**
 * Arms the timers of one kind for the rows a module selects (`rows` answers organisation_id, subject_id and due_at),
 * in one statement: the module says which subjects and when, the timers table stays written here only.
 */
export const armTimersFor = (q: Queryable, kind: TimerKind, rows: string, params: unknown[]) =>
  q.query(
    armTimersCte(`select r.organisation_id, ${kindLiteral(kind)}, r.subject_id, r.due_at from (${rows}) r`, [
      kind,
    ]),
    params,
  );

/** Removes the timers of one kind of the subjects a module selects (`subjects` answers their ids). */
export const deleteTimersFor = (q: Queryable, kind: TimerKind, subjects: string, params: unknown[]) =>
  q.query(`delete from timers where kind = ${kindLiteral(kind)} and subject_id in (${subjects})`, params);

export const deleteTimers = (q: Queryable, subjectId: string, kinds: TimerKind[]) =>
  q.query('delete from timers where subject_id = $1 and kind = any($2::text[])', [subjectId, kinds]);

/**
 * Claims due timers that no runner holds (or whose runner's lease ran out) for `claimedBy` until `leaseUntil`,
 * in one autocommit statement: no lock is kept, so the runner never holds a timer row while it waits for a chat.
 */
export const claimDueTimers = (q: Queryable, now: Date, claimedBy: string, leaseUntil: Date, limit: number) =>
  q.query<TimerRow>(
    `update timers set claimed_by = $2, lease_until = $3
      where id in (select id from timers where due_at <= $1 and (lease_until is null or lease_until <= $1)
                    order by due_at, id limit $4 for update skip locked)
      returning id, organisation_id, kind, subject_id, due_at`,
    [now, claimedBy, leaseUntil, limit],
  );

/**
 * Consumes a claimed timer, with its subject already locked: true when it is still this runner's and due
 * (it fires now); false when it was re-armed, deleted or claimed again since (it must not fire).
 */
export const takeClaimedTimer = async (q: Queryable, id: string, claimedBy: string, now: Date) =>
  (
    await q.query('delete from timers where id = $1 and claimed_by = $2 and due_at <= $3 returning id', [
      id,
      claimedBy,
      now,
    ])
  ).length === 1;

/** Gives claimed timers back as they were (a stopping runner): another instance's poll fires them. */
export const releaseTimers = (q: Queryable, ids: string[], claimedBy: string) =>
  q.query(
    'update timers set claimed_by = null, lease_until = null where id = any($1::uuid[]) and claimed_by = $2',
    [ids, claimedBy],
  );

/** Gives a claimed timer back (at `dueAt`, or when it was due): another poll fires it. */
export const releaseTimer = (q: Queryable, id: string, claimedBy: string, dueAt: Date | null) =>
  q.query(
    `update timers set claimed_by = null, lease_until = null, due_at = coalesce($3, due_at)
      where id = $1 and claimed_by = $2`,
    [id, claimedBy, dueAt],
  );

// ---- outbox ----

export type OutboxEvent = 'message.created' | 'message.updated';

export type OutboxRow = {
  id: string;
  organisation_id: string;
  channel_id: string;
  message_id: string;
  /** The message's chat: messages of one chat are delivered in their order. */
  chat_id: string | null;
  event: OutboxEvent;
  attempts: number;
};

/** Queues the delivery of one of our messages: the row names the message; the adapter renders it when it sends. */
export const insertOutbox = (
  q: Queryable,
  o: { orgId: string; channelId: string; messageId: string; event: OutboxEvent; now: Date },
) =>
  q.query(
    `insert into outbox (organisation_id, channel_id, message_id, event, next_attempt_at) values ($1, $2, $3, $4, $5)`,
    [o.orgId, o.channelId, o.messageId, o.event, o.now],
  );

/**
 * The outbox row of a message another module inserts in the same statement: a data-modifying CTE over `from` (the
 * CTE answering the message's id), with the organisation, channel and due time as SQL expressions (parameters).
 */
export const outboxRowCte = (
  from: string,
  p: { orgId: string; channelId: string; at: string; returning?: boolean },
) =>
  `insert into outbox (organisation_id, channel_id, message_id, event, next_attempt_at)
   select ${p.orgId}, ${p.channelId}, ${from}.id, 'message.created', ${p.at} from ${from}${
     p.returning ? ' returning id, message_id' : ''
}`;

/**
 * Claims due deliveries: each is leased until `leaseUntil` (another instance skips it meanwhile,
 * and picks it up again if this one dies mid-send) and its attempt is counted.
 */
export const claimOutbox = (q: Queryable, now: Date, leaseUntil: Date, limit: number) =>
  q.query<OutboxRow>(
    `update outbox set attempts = attempts + 1, next_attempt_at = $2, updated_at = now()
      where id in (select id from outbox where status = 'pending' and next_attempt_at <= $1
                    order by next_attempt_at, id limit $3 for update skip locked)
      returning id, organisation_id, channel_id, message_id, event, attempts,
                (select m.chat_id from messages m where m.id = outbox.message_id) as chat_id`,
    [now, leaseUntil, limit],
  );

/**
 * Claims these deliveries now, whatever their due time (a sender that paces its own rows, e.g. a mailing's): the
 * rows still pending and not leased by another runner, leased like claimOutbox's.
 */
export const claimOutboxRows = (q: Queryable, ids: string[], now: Date, leaseUntil: Date) =>
  q.query<OutboxRow>(
    `update outbox set attempts = attempts + 1, next_attempt_at = $3, updated_at = now()
      where id in (select id from outbox where id = any($1::uuid[]) and status = 'pending'
                      and (attempts = 0 or next_attempt_at <= $2)
                    for update skip locked)
      returning id, organisation_id, channel_id, message_id, event, attempts,
                (select m.chat_id from messages m where m.id = outbox.message_id) as chat_id`,
    [ids, now, leaseUntil],
  );

export const finishOutbox = (q: Queryable, id: string, status: 'done' | 'failed', error: string | null) =>
  q.query('update outbox set status = $2, last_error = $3, updated_at = now() where id = $1', [
    id,
    status,
    error,
  ]);

/** Many rows sent: done in one statement. */
export const finishOutboxDone = (q: Queryable, ids: string[]) =>
  q.query(
    "update outbox set status = 'done', last_error = null, updated_at = now() where id = any($1::uuid[])",
    [ids],
  );

export const retryOutbox = (q: Queryable, id: string, at: Date, error: string) =>
  q.query('update outbox set next_attempt_at = $2, last_error = $3, updated_at = now() where id = $1', [
    id,
    at,
    error,
  ]);
