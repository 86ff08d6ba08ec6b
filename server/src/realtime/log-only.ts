import type { LogOnlyEventType } from '@smartconnect/contracts';
import type { Queryable } from '../db/index.ts';
import { onePlugPoint, pluggedOf } from '../plug-points.ts';
import type { Emit, Tx } from './emit.ts';

/*
 * Log-only events (contracts LOG_ONLY_EVENT_TYPES): kept in the events log for the event webhooks, never for a
 * socket. Each is written in the transaction of its change with an empty audience, so no socket receives it and no
 * replay reads it; and only for an organisation that reads its type (an enabled webhook endpoint subscribed to it:
 * modules/webhooks/register.ts gives the check; realtime/ imports no domain module). An event nobody reads is not
 * written, nor is its payload made: an SMS import's thousands of new clients cost nothing where nobody listens.
 */

/** Of these organisations, those that read log-only events of the type now; every one until a module gives it. */
export const LOG_ONLY_READERS = onePlugPoint<
  (q: Queryable, type: LogOnlyEventType, organisationIds: string[]) => Promise<Set<string>>
>('realtime.logOnlyReaders', async (_q, _type, organisationIds) => new Set(organisationIds));

/** The organisations among these that read `type` (one question for all). */
export const logOnlyReaders = async (
  q: Queryable,
  type: LogOnlyEventType,
  organisationIds: string[],
): Promise<Set<string>> =>
  organisationIds.length
    ? pluggedOf(LOG_ONLY_READERS)(q, type, [...new Set(organisationIds)])
    : new Set<string>();

/** A log-only event for a caller that asked logOnlyReaders itself (many events at once). */
export const writeLogOnly = (
  emit: Emit,
  organisationId: string,
  type: LogOnlyEventType,
  payload: unknown,
): Promise<void> => emit(organisationId, type, payload, {});

/** A log-only event, written when its organisation reads the type; `payload` is made only then. */
export async function emitLogOnly(
  tx: Pick<Tx, 'q' | 'emit'>,
  organisationId: string,
  type: LogOnlyEventType,
  payload: () => unknown,
): Promise<void> {
  if (!(await logOnlyReaders(tx.q, type, [organisationId])).has(organisationId)) return;
  await writeLogOnly(tx.emit, organisationId, type, await payload());
}
