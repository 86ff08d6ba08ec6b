import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/index.ts';
import { withSpan } from '../lib/tracing.ts';
import { type Tx, withEvents } from '../realtime/emit.ts';
import * as Q from './queries.ts';
import { jobsStopping } from './stopping.ts';

/** What fires the timers of one kind, registered by the module that owns them (jobs/ imports no domain module). */
export type TimerHandler = {
  /** Locks the timer's subject (chat or user): the lock every operation on it takes first. */
  lock: (q: Queryable, orgId: string, subjectId: string) => Promise<unknown>;
  /** What the timer does; it re-checks the subject's state, so a stale timer is harmless. */
  fire: (tx: Tx, orgId: string, subjectId: string) => Promise<void>;
};

const handlers = new Map<Q.TimerKind, TimerHandler>();

/** Registers what fires the timers of `kind` (at boot, from modules/setup.ts); registering a kind again replaces it. */
export function registerTimer(kind: Q.TimerKind, handler: TimerHandler): void {
  handlers.set(kind, handler);
}

export const TIMERS = {
  /** A claimed timer is left to its runner this long; if that instance dies another one fires it after. */
  leaseMs: 60_000,
  batch: 50,
  /** A handler that failed (or a kind with no handler registered) is tried again this much later. */
  retryFailedMs: 60_000,
} as const;

const LOCK_CYCLE = new Set(['40P01', '40001']);

/** Fires one claimed timer in its own transaction: subject locked first, then the timer taken if still ours. */
async function fire(app: AppContext, row: Q.TimerRow, claimedBy: string, now: Date): Promise<void> {
  const handler = handlers.get(row.kind);
  if (!handler) {
    // Nothing knows this kind (a module not set up, or a row of a newer version): give it back for later, untouched.
    app.log.error({ timer: row }, 'no handler registered for this timer kind');
    await Q.releaseTimer(app.db, row.id, claimedBy, new Date(now.getTime() + TIMERS.retryFailedMs));
    return;
  }
  try {
    await withEvents(app, async (q, emit) => {
      await handler.lock(q, row.organisation_id, row.subject_id);
      if (!(await Q.takeClaimedTimer(q, row.id, claimedBy, now))) return;
      await handler.fire({ q, emit, now }, row.organisation_id, row.subject_id);
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    // A lock cycle with something we do not know of is retried at the next poll; anything else a minute later.
    const retryAt = code && LOCK_CYCLE.has(code) ? null : new Date(now.getTime() + TIMERS.retryFailedMs);
    app.log.error({ err, timer: row }, 'timer failed');
    await Q.releaseTimer(app.db, row.id, claimedBy, retryAt);
  }
}

/**
 * Fires every timer due by `app.clock.now()`. Due timers are first claimed in a short committed step
 * (`FOR UPDATE SKIP LOCKED`, leased to this run); each then fires in a transaction of its own that locks the
 * chat (or user) first and only then takes the timer row, the order every operation uses, and only if the timer
 * is still this run's claim and due (an operation may have re-armed or deleted it meanwhile). Across runs and
 * instances each timer fires exactly once; a claim whose runner died is taken over when its lease ends; a
 * handler that throws rolls its change back and the timer is tried again later.
 */
export async function runDueTimers(app: AppContext, max = 1000): Promise<number> {
  const claimedBy = randomUUID();
  let fired = 0;
  while (fired < max) {
    const now = app.clock.now();
    const batch = await Q.claimDueTimers(
      app.db,
      now,
      claimedBy,
      new Date(now.getTime() + TIMERS.leaseMs),
      Math.min(TIMERS.batch, max - fired),
    );
    if (!batch.length) return fired;
    for (const [i, row] of batch.entries()) {
      if (jobsStopping(app)) {
        // Stopping: what this batch has not fired goes back at once (its due time kept) for another instance.
        await Q.releaseTimers(
          app.db,
          batch.slice(i).map((r) => r.id),
          claimedBy,
        );
        return fired;
      }
      await withSpan('timer.fire', { 'timer.kind': row.kind }, () => fire(app, row, claimedBy, now));
      fired++;
    }
  }
  return fired;
}
