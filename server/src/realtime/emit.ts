import type { Audience, RealtimeEventType } from '@smartconnect/contracts';
import type { AppContext } from '../context.ts';
import { one, type Queryable } from '../db/index.ts';
import type { StoredEvent } from './bus.ts';

export type Emit = (
  organisationId: string,
  type: RealtimeEventType,
  payload: unknown,
  audience: Audience,
) => Promise<void>;

/**
 * Runs fn in one transaction with an `emit` that writes events in that same transaction,
 * and publishes them on the bus only after the commit: no event for a change that rolled back.
 */
export async function withEvents<T>(
  app: AppContext,
  fn: (q: Queryable, emit: Emit) => Promise<T>,
): Promise<T> {
  const emitted: StoredEvent[] = [];
  const result = await app.db.tx(async (q) => {
    const emit: Emit = async (organisationId, type, payload, audience) => {
      const row = await one<{ id: string; created_at: Date }>(
        q,
        'insert into events (organisation_id, type, payload, audience) values ($1, $2, $3, $4) returning id::text, created_at',
        [organisationId, type, JSON.stringify(payload), JSON.stringify(audience)],
      );
      emitted.push({
        id: row.id,
        organisationId,
        type,
        payload,
        audience,
        createdAt: new Date(row.created_at).toISOString(),
      });
    };
    return fn(q, emit);
  });
  if (emitted.length) await app.bus.publish(emitted);
  return result;
}
