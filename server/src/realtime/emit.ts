import type { Audience, RealtimeEventType } from '@smartconnect/contracts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/index.ts';
import type { StoredEvent } from './bus.ts';
import { insertEvents, type NewEvent } from './queries.ts';

export type Emit = (
  organisationId: string,
  type: RealtimeEventType,
  payload: unknown,
  audience: Audience,
) => Promise<void>;

/**
 * Runs fn in one transaction with an `emit` that writes events in that same transaction,
 * and publishes them on the bus only after the commit: no event for a change that rolled back.
 *
 * The rows are written in one statement at the end of fn, just before the commit: event ids are taken
 * as late as possible, so ids commit nearly in order and readers that deliver in id order wait least.
 */
export async function withEvents<T>(
  app: AppContext,
  fn: (q: Queryable, emit: Emit) => Promise<T>,
): Promise<T> {
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
    });
  } catch (err) {
    // The ids were taken but will never commit: tell ordered readers not to wait for them.
    if (emitted.length && app.bus.discard)
      await app.bus.discard(emitted.map((e) => e.id)).catch(() => undefined);
    throw err;
  }
  if (emitted.length) await app.bus.publish(emitted);
  return result;
}
