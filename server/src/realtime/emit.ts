import type { Audience, LoggedEventType } from '@smartconnect/contracts';
import type { AppContext } from '../context.ts';
import type { Queryable, TxOptions } from '../db/index.ts';
import type { StoredEvent } from './bus.ts';
import { runConsumers } from './consumers.ts';
import { insertEvents, type NewEvent } from './queries.ts';

export type Emit = (
  organisationId: string,
  type: LoggedEventType,
  payload: unknown,
  audience: Audience,
) => Promise<void>;

/** Everything a state change inside one transaction needs. */
export type Tx = { q: Queryable; emit: Emit; now: Date };

/**
 * Hands events that have committed to the bus (every instance's subscribers), then to this instance's
 * consumers (`onEvent`). Call it only after the commit that stored them.
 */
export async function publishCommitted(app: AppContext, events: StoredEvent[]): Promise<void> {
  if (!events.length) return;
  try {
    await app.bus.publish(events);
  } finally {
    await runConsumers(app, events);
  }
}

/**
 * Runs fn in one transaction with an `emit` that writes events in that same transaction,
 * and publishes them on the bus and to the event consumers only after the commit: no event for a change that
 * rolled back.
 *
 * The rows are written in one statement at the end of fn, just before the commit: event ids are taken
 * as late as possible, so ids commit nearly in order and readers that deliver in id order wait least.
 */
export async function withEvents<T>(
  app: AppContext,
  fn: (q: Queryable, emit: Emit) => Promise<T>,
): Promise<T> {
  const { result, emitted } = await commitWithEvents(app, fn);
  await publishCommitted(app, emitted);
  return result;
}

/**
 * withEvents without the publish: answers the committed events for the caller to publish after its own
 * bookkeeping (the ingest batcher publishes a whole batch's events, then answers its requests).
 */
export async function commitWithEvents<T>(
  app: AppContext,
  fn: (q: Queryable, emit: Emit) => Promise<T>,
  options?: TxOptions,
): Promise<{ result: T; emitted: StoredEvent[] }> {
  const pending: NewEvent[] = [];
  const payloads: unknown[] = [];
  let emitted: StoredEvent[] = [];
  let result: T;
  try {
    result = await app.db.tx(async (q) => {
      const emit: Emit = async (organisationId, type, payload, audience) => {
        pending.push({ organisationId, type, payloadJson: JSON.stringify(payload ?? null), audience });
        payloads.push(payload ?? null);
      };
      const out = await fn(q, emit);
      if (pending.length) {
        const rows = await insertEvents(q, pending);
        emitted = rows.map((r, i) => ({
          id: r.id,
          organisationId: pending[i].organisationId,
          type: pending[i].type,
          payload: payloads[i],
          audience: pending[i].audience,
          createdAt: r.createdAt,
        }));
      }
      return out;
    }, options);
  } catch (err) {
    // The ids were taken but will never commit: tell ordered readers not to wait for them.
    if (emitted.length && app.bus.discard)
      await app.bus.discard(emitted.map((e) => e.id)).catch(() => undefined);
    throw err;
  }
  return { result, emitted };
}
