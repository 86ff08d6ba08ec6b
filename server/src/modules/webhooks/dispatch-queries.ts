import type { LoggedEventType, WebhookEventType } from '@smartconnect/contracts';
import { maybe, type Queryable, statement } from '../../db/index.ts';

/**
 * The internal event types (contracts realtime.ts: sockets' and log-only ones) that are public webhook events, with
 * their public names.
 */
export const PUBLIC_NAMES: Readonly<Partial<Record<LoggedEventType, WebhookEventType>>> = {
  'chat.created': 'chat.created',
  'chat.assigned': 'chat.assigned',
  'chat.transferred': 'chat.transferred',
  'chat.closed': 'chat.closed',
  'message.created': 'message.created',
  'message.status': 'message.status_changed',
  'client.created': 'client.created',
  'client.updated': 'client.updated',
  'client.merged': 'client.merged',
  'rating.created': 'rating.created',
  'mailing.finished': 'mailing.finished',
};

const NAME_PAIRS = Object.entries(PUBLIC_NAMES)
  .map(([internal, name]) => `('${internal}', '${name}')`)
  .join(', ');

export type DispatchCursor = { scannedTo: number; missing: Record<string, number> };

/** The dispatcher's cursor, held for this transaction; undefined while another instance holds it. */
export async function lockCursor(q: Queryable): Promise<DispatchCursor | undefined> {
  const row = await maybe<{ scanned_to: string; missing: Record<string, number> }>(
    q,
    'select scanned_to::text as scanned_to, missing from webhook_dispatch where id = 1 for update skip locked',
  );
  return row && { scannedTo: Number(row.scanned_to), missing: row.missing ?? {} };
}

export async function saveCursor(q: Queryable, cursor: DispatchCursor): Promise<void> {
  await q.query('update webhook_dispatch set scanned_to = $1, missing = $2 where id = 1', [
    cursor.scannedTo,
    JSON.stringify(cursor.missing),
  ]);
}

const EVENTS_AFTER = statement(
  'webhook_events_after',
  'select id::text as id from events where id > $1 order by id limit $2',
);
/** Ids of committed events after `after`, in id order. */
export async function eventIdsAfter(q: Queryable, after: number, limit: number): Promise<number[]> {
  const rows = await q.query<{ id: string }>(EVENTS_AFTER, [after, limit]);
  return rows.map((r) => Number(r.id));
}

/** Which of these ids have committed by now. */
export async function committedIds(q: Queryable, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await q.query<{ id: string }>(
    'select id::text as id from events where id = any($1::bigint[])',
    [ids],
  );
  return rows.map((r) => Number(r.id));
}

/**
 * One delivery per (enabled endpoint subscribed to its public type, event): the envelope is built here once and
 * every attempt sends these bytes. A pair already made is left alone, so reading an event twice sends it once.
 */
const FAN_OUT = statement(
  'webhook_fan_out',
  `insert into webhook_deliveries
     (endpoint_id, organisation_id, event_id, event_type, body, status, next_attempt_at, retry_until, created_at)
   select e.id, ev.organisation_id, ev.id, m.name,
          json_build_object(
            'id', ev.id::text, 'type', m.name,
            'createdAt', to_char(ev.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'organisationId', ev.organisation_id, 'data', ev.payload)::text,
          'pending', $2, $3, $2
     from events ev
     join (values ${NAME_PAIRS}) as m(internal, name) on m.internal = ev.type
     join webhook_endpoints e on e.organisation_id = ev.organisation_id and e.enabled
                             and m.name = any(e.event_types) and ev.id > e.start_event_id
    where ev.id = any($1::bigint[])
    order by ev.id, e.id
   on conflict (endpoint_id, event_id) where event_id is not null do nothing
   returning 1`,
);
export async function fanOut(q: Queryable, ids: number[], now: Date, retryUntil: Date): Promise<number> {
  if (!ids.length) return 0;
  const rows = await q.query(FAN_OUT, [ids, now, retryUntil]);
  return rows.length;
}

const SUBSCRIBED = statement(
  'webhook_subscribed_organisations',
  `select distinct organisation_id from webhook_endpoints
    where organisation_id = any($1::uuid[]) and enabled and $2 = any(event_types)`,
);
/** The organisations among these with an enabled endpoint subscribed to the public type. */
export async function subscribedOrganisations(
  q: Queryable,
  organisationIds: string[],
  type: WebhookEventType,
): Promise<Set<string>> {
  const rows = await q.query<{ organisation_id: string }>(SUBSCRIBED, [organisationIds, type]);
  return new Set(rows.map((r) => r.organisation_id));
}
