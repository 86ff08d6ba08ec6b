import { type AppContext, stateSlot } from '../context.ts';
import type { Queryable } from '../db/index.ts';
import { withSpan } from '../lib/tracing.ts';
import { type Emit, withEvents } from '../realtime/emit.ts';
import * as Q from './queries.ts';
import { jobsStopping } from './stopping.ts';

/** How one delivery went: sent (with the provider's id of the message), or failed, worth retrying or not. */
export type DeliveryOutcome =
  | { ok: true; externalId?: string }
  | { ok: false; retryable: boolean; error: string; retryAfterMs?: number };

/**
 * What delivers outbox rows, registered by the domain that owns them (the channels module): `send` outside any
 * transaction, `settle` in the transaction that finishes the row (the message's status, the provider's id).
 * jobs/ imports no domain module.
 */
export type OutboxHandler = {
  send(app: AppContext, row: Q.OutboxRow): Promise<DeliveryOutcome>;
  settle(
    tx: { q: Queryable; emit: Emit; now: Date },
    row: Q.OutboxRow,
    result: { status: 'sent' | 'undelivered'; externalId?: string; reason?: string },
  ): Promise<void>;
  /**
   * `send` of many rows at once, their reads shared (a mailing's chunk): one promise per row, in the rows' order,
   * each settling when its own send ends.
   */
  sendMany?(app: AppContext, rows: Q.OutboxRow[]): Promise<Promise<DeliveryOutcome>[]>;
  /** `settle` of many rows the providers accepted, at once (in the transaction that finishes them). */
  settleSent?(
    tx: { q: Queryable; emit: Emit; now: Date },
    sent: { row: Q.OutboxRow; externalId?: string }[],
  ): Promise<void>;
};
let handler: OutboxHandler | null = null;

export function registerOutboxHandler(h: OutboxHandler): void {
  handler = h;
}

export const OUTBOX = {
  maxAttempts: 6,
  /** Backoff before attempt n+1: base * 2^(n-1), capped. */
  baseDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
  /** A claimed row is left alone this long; if its instance dies mid-send another one retries it. */
  leaseMs: 60_000,
  batch: 20,
} as const;

export const backoffMs = (attempts: number) =>
  Math.min(OUTBOX.baseDelayMs * 2 ** Math.max(0, attempts - 1), OUTBOX.maxDelayMs);

/** Records one delivery's outcome in the caller's transaction: done and settled, retried later, or failed. */
async function record(
  h: OutboxHandler,
  tx: { q: Queryable; emit: Emit; now: Date },
  row: Q.OutboxRow,
  result: DeliveryOutcome,
) {
  const { q } = tx;
  if (result.ok) {
    await Q.finishOutbox(q, row.id, 'done', null);
    await h.settle(tx, row, { status: 'sent', externalId: result.externalId });
  } else if (!result.retryable || row.attempts >= OUTBOX.maxAttempts) {
    await Q.finishOutbox(q, row.id, 'failed', result.error);
    await h.settle(tx, row, { status: 'undelivered', reason: result.error.slice(0, 500) });
  } else {
    // A provider's own wait (429 retry_after) is honoured when longer than our backoff.
    const wait = Math.max(backoffMs(row.attempts), result.retryAfterMs ?? 0);
    await Q.retryOutbox(q, row.id, new Date(tx.now.getTime() + wait), result.error);
  }
}

const handlerOf = () => {
  if (!handler) throw new Error('no outbox handler registered');
  return handler;
};

async function deliver(app: AppContext, row: Q.OutboxRow): Promise<DeliveryOutcome> {
  const h = handlerOf();
  const result = await h.send(app, row);
  await withEvents(app, (q, emit) => record(h, { q, emit, now: app.clock.now() }, row, result));
  return result;
}

/**
 * Delivers every due outbox row: claims a batch with SKIP LOCKED (so instances share the work and no row is
 * sent twice at once), sends outside any transaction, then records sent / retry with backoff / undelivered.
 */
export async function runOutbox(app: AppContext): Promise<number> {
  let done = 0;
  for (;;) {
    // Stopping: the sends in flight finish; no new batch is claimed.
    if (jobsStopping(app)) return done;
    const now = app.clock.now();
    const batch = await app.db.tx((q) =>
      Q.claimOutbox(q, now, new Date(now.getTime() + OUTBOX.leaseMs), OUTBOX.batch),
    );
    if (!batch.length) return done;
    // Chats in parallel, the messages of one chat in their order.
    const byChat = new Map<string, Q.OutboxRow[]>();
    // uuid v7 ids sort by creation time.
    for (const row of [...batch].sort((a, b) => a.id.localeCompare(b.id))) {
      const key = row.chat_id ?? row.id;
      byChat.set(key, [...(byChat.get(key) ?? []), row]);
    }
    await Promise.all(
      [...byChat.values()].map(async (rows) => {
        for (const row of rows)
          await withSpan('outbox.deliver', { 'outbox.attempt': row.attempts }, () => deliver(app, row)).catch(
            (err) => app.log.error({ err, outbox: row.id }, 'outbox delivery failed'),
          );
      }),
    );
    done += batch.length;
  }
}

/**
 * Claims these held rows for a sender that paces its own deliveries (their due time was set later so the pollers
 * leave them alone meanwhile): the rows still pending and not taken by another runner, leased like the pollers'.
 * The caller then delivers each with `deliverClaimed` at its moment.
 */
export async function claimHeldRows(app: AppContext, ids: string[]): Promise<Q.OutboxRow[]> {
  const now = app.clock.now();
  return Q.claimOutboxRows(app.db, ids, now, new Date(now.getTime() + OUTBOX.leaseMs));
}

/**
 * Delivers one claimed row and records the outcome as the dispatcher does (sent, retried after a backoff or the
 * provider's Retry-After, or undelivered). Answers the outcome (a failure to record it is logged and answered as
 * a retryable failure: the lease runs out and the row is sent again).
 */
export async function deliverClaimed(app: AppContext, row: Q.OutboxRow): Promise<DeliveryOutcome> {
  return withSpan('outbox.deliver', { 'outbox.attempt': row.attempts }, () => deliver(app, row)).catch(
    (err) => {
      app.log.error({ err, outbox: row.id }, 'outbox delivery failed');
      return { ok: false, retryable: true, error: String(err) } as const;
    },
  );
}

/**
 * Delivers many claimed rows at once (a mailing's chunk with no rate to keep): every send in parallel, then every
 * outcome recorded in ONE transaction (one commit instead of one per message). Should that transaction fail, each
 * outcome is recorded in a transaction of its own, so one row's failure holds back no other. Answers the outcomes
 * in the rows' order.
 */
export async function deliverClaimedMany(app: AppContext, rows: Q.OutboxRow[]): Promise<DeliveryOutcome[]> {
  const h = handlerOf();
  const failed =
    (row: Q.OutboxRow) =>
    (err: unknown): DeliveryOutcome => {
      app.log.error({ err, outbox: row.id }, 'outbox delivery failed');
      return { ok: false, retryable: true, error: String(err) };
    };
  const sends = h.sendMany
    ? await h.sendMany(app, rows).catch((err) => rows.map((row) => Promise.resolve(failed(row)(err))))
    : rows.map((row) => h.send(app, row));
  const results = await Promise.all(sends.map((p, i) => p.catch(failed(rows[i]))));
  try {
    await withEvents(app, async (q, emit) => {
      const tx = { q, emit, now: app.clock.now() };
      const sent: { row: Q.OutboxRow; externalId?: string }[] = [];
      for (let i = 0; i < rows.length; i++) {
        const r = results[i];
        if (r.ok && h.settleSent) sent.push({ row: rows[i], externalId: r.externalId });
        else await record(h, tx, rows[i], r);
      }
      if (!sent.length || !h.settleSent) return;
      await Q.finishOutboxDone(
        q,
        sent.map((x) => x.row.id),
      );
      await h.settleSent(tx, sent);
    });
  } catch (err) {
    app.log.warn({ err, rows: rows.length }, 'outbox outcomes not recorded together; recording each alone');
    for (let i = 0; i < rows.length; i++)
      await withEvents(app, (q, emit) =>
        record(h, { q, emit, now: app.clock.now() }, rows[i], results[i]),
      ).catch(
        // Not recorded: the row's lease runs out and it is sent again.
        (e) => app.log.error({ err: e, outbox: rows[i].id }, 'outbox outcome not recorded'),
      );
  }
  return results;
}

type Kicker = { running: Promise<void> | null; again: boolean; stopped: boolean };
const KICKER = stateSlot<Kicker>('outbox.kicker', () => ({ running: null, again: false, stopped: false }));

/** Runs the dispatcher soon, after a commit that queued a delivery, without waiting for the next poll. */
export function kickOutbox(app: AppContext): void {
  const k = app.state.of(app, KICKER);
  if (k.stopped) return;
  if (k.running) {
    k.again = true;
    return;
  }
  const state = k;
  state.running = (async () => {
    do {
      state.again = false;
      await runOutbox(app).catch((err) => app.log.error({ err }, 'outbox run failed'));
    } while (state.again && !state.stopped);
    state.running = null;
  })();
}

/** Waits until no kicked run is in flight (a kick during the wait is waited for too). */
async function kicksIdle(app: AppContext): Promise<void> {
  for (let k = app.state.peek(KICKER); k?.running; k = app.state.peek(KICKER)) await k.running;
}

/**
 * Delivers what is due and returns once nothing is in flight: waits for a kicked run (a commit's own kick may be
 * sending right now, holding its rows), runs the dispatcher, and waits again. What a caller that must see the
 * outcome uses (tests, an operator's tool); the poll loop calls `runOutbox`.
 */
export async function drainOutbox(app: AppContext): Promise<number> {
  await kicksIdle(app);
  const done = await runOutbox(app);
  await kicksIdle(app);
  return done;
}

/** Stops kicks and waits for a kicked run in flight. */
export async function stopKicks(app: AppContext): Promise<void> {
  const k = app.state.of(app, KICKER);
  k.stopped = true;
  await k.running;
}
