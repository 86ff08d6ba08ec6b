import type { WebhookAttemptError } from '@smartconnect/contracts';
import { maybe, one, type Queryable, setList } from '../../db/index.ts';

export type EndpointRow = {
  id: string;
  organisation_id: string;
  url: string;
  description: string;
  event_types: string[];
  secret_sealed: string;
  enabled: boolean;
  disabled_reason: 'failing' | 'manual' | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
};

export type DeliveryRow = {
  id: string;
  endpoint_id: string;
  organisation_id: string;
  event_id: string | null;
  event_type: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  retry_until: Date;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: WebhookAttemptError | null;
  delivered_at: Date | null;
  created_at: Date;
};

const DELIVERY_COLUMNS = `id, endpoint_id, organisation_id, event_id::text as event_id, event_type, body, status, attempts,
  next_attempt_at, retry_until, last_attempt_at, last_status_code, last_duration_ms, last_error, delivered_at, created_at`;

export async function listEndpoints(q: Queryable, orgId: string): Promise<EndpointRow[]> {
  return q.query<EndpointRow>(
    'select * from webhook_endpoints where organisation_id = $1 order by created_at, id',
    [orgId],
  );
}

export async function countEndpoints(q: Queryable, orgId: string): Promise<number> {
  const row = await one<{ n: number }>(
    q,
    'select count(*)::int as n from webhook_endpoints where organisation_id = $1',
    [orgId],
  );
  return row.n;
}

export async function findEndpoint(
  q: Queryable,
  orgId: string,
  id: string,
): Promise<EndpointRow | undefined> {
  return maybe<EndpointRow>(q, 'select * from webhook_endpoints where organisation_id = $1 and id = $2', [
    orgId,
    id,
  ]);
}

export async function insertEndpoint(
  q: Queryable,
  e: { orgId: string; url: string; description: string; eventTypes: string[]; secretSealed: string },
): Promise<EndpointRow> {
  // Events already in the log are not sent to a new endpoint: it starts at the log's end.
  return one<EndpointRow>(
    q,
    `insert into webhook_endpoints (organisation_id, url, description, event_types, secret_sealed, start_event_id)
     values ($1, $2, $3, $4, $5, (select coalesce(max(id), 0) from events))
     returning *`,
    [e.orgId, e.url, e.description, e.eventTypes, e.secretSealed],
  );
}

export type EndpointPatch = {
  url?: string;
  description?: string;
  eventTypes?: string[];
  secretSealed?: string;
};

export async function updateEndpoint(
  q: Queryable,
  orgId: string,
  id: string,
  patch: EndpointPatch,
  enabled: boolean | undefined,
): Promise<EndpointRow | undefined> {
  const params: unknown[] = [orgId, id];
  const sets = setList(
    { url: 'url', description: 'description', eventTypes: 'event_types', secretSealed: 'secret_sealed' },
    patch,
    params,
  );
  let toggle = '';
  if (enabled === true)
    toggle = 'enabled = true, disabled_reason = null, disabled_at = null, failing_since = null';
  if (enabled === false)
    toggle = "enabled = false, disabled_reason = 'manual', disabled_at = coalesce(disabled_at, now())";
  const all = [sets, toggle, 'updated_at = now()'].filter(Boolean).join(', ');
  return maybe<EndpointRow>(
    q,
    `update webhook_endpoints set ${all} where organisation_id = $1 and id = $2 returning *`,
    params,
  );
}

export async function deleteEndpoint(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await q.query(
    'delete from webhook_endpoints where organisation_id = $1 and id = $2 returning id',
    [orgId, id],
  );
  return rows.length > 0;
}

export async function listDeliveries(
  q: Queryable,
  endpointId: string,
  limit: number,
  offset: number,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const rows = await q.query<DeliveryRow>(
    `select ${DELIVERY_COLUMNS} from webhook_deliveries where endpoint_id = $1
      order by created_at desc, id desc limit $2 offset $3`,
    [endpointId, limit, offset],
  );
  const { n } = await one<{ n: number }>(
    q,
    'select count(*)::int as n from webhook_deliveries where endpoint_id = $1',
    [endpointId],
  );
  return { rows, total: n };
}

export async function findDelivery(
  q: Queryable,
  endpointId: string,
  id: string,
): Promise<DeliveryRow | undefined> {
  return maybe<DeliveryRow>(
    q,
    `select ${DELIVERY_COLUMNS} from webhook_deliveries where endpoint_id = $1 and id = $2`,
    [endpointId, id],
  );
}

/** A delivery made by hand (the test event), sent at once by the caller. */
export async function insertManualDelivery(
  q: Queryable,
  d: { id: string; endpointId: string; orgId: string; eventType: string; body: string; now: Date },
): Promise<DeliveryRow> {
  return one<DeliveryRow>(
    q,
    `insert into webhook_deliveries (id, endpoint_id, organisation_id, event_type, body, status, retry_until, created_at)
     values ($1, $2, $3, $4, $5, 'pending', $6, $6)
     returning ${DELIVERY_COLUMNS}`,
    [d.id, d.endpointId, d.orgId, d.eventType, d.body, d.now],
  );
}

/** Holds one delivery for a sender until `until`; false when another sender holds it. */
export async function claimDelivery(q: Queryable, id: string, now: Date, until: Date): Promise<boolean> {
  const rows = await q.query(
    `update webhook_deliveries set claimed_until = $3
      where id = $1 and (claimed_until is null or claimed_until < $2) returning id`,
    [id, now, until],
  );
  return rows.length > 0;
}

export type DueDelivery = DeliveryRow & { url: string; secret_sealed: string };

/**
 * Claims due deliveries of enabled endpoints, at most `perEndpoint` of each endpoint in event order, `limit` in all,
 * and holds them until `until` (a sender that dies lets them go then).
 */
export async function claimDue(
  q: Queryable,
  now: Date,
  until: Date,
  perEndpoint: number,
  limit: number,
): Promise<DueDelivery[]> {
  return q.query<DueDelivery>(
    `with due as (
       select d.id, d.endpoint_id, d.event_id, d.created_at from webhook_deliveries d
         join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
        where d.status = 'pending' and d.next_attempt_at <= $1 and (d.claimed_until is null or d.claimed_until < $1)
        order by d.next_attempt_at, d.event_id nulls first
        limit $4 * 4
        for update of d skip locked
     ), ranked as (
       select id, row_number() over (partition by endpoint_id order by event_id nulls first, created_at) as n
         from due
     ), chosen as (
       select id from ranked where n <= $3 order by n limit $4
     )
     update webhook_deliveries d set claimed_until = $2
       from chosen, webhook_endpoints e
      where d.id = chosen.id and e.id = d.endpoint_id
     returning d.id, d.endpoint_id, d.organisation_id, d.event_id::text as event_id, d.event_type, d.body, d.status,
            d.attempts, d.next_attempt_at, d.retry_until, d.last_attempt_at, d.last_status_code, d.last_duration_ms,
            d.last_error, d.delivered_at, d.created_at, e.url, e.secret_sealed`,
    [now, until, perEndpoint, limit],
  );
}

export type AttemptResult = {
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date | null;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: WebhookAttemptError | null;
};

/** Records attempts' outcomes in one statement and lets the deliveries go; answers the rows in the given order. */
export async function recordAttempts(
  q: Queryable,
  results: (AttemptResult & { id: string })[],
): Promise<DeliveryRow[]> {
  const rows = await q.query<DeliveryRow>(
    `update webhook_deliveries d
        set status = r.status, next_attempt_at = r.next_at, attempts = d.attempts + 1, last_attempt_at = r.at,
            last_status_code = r.code, last_duration_ms = r.duration, last_error = r.error, claimed_until = null,
            delivered_at = case when r.status = 'delivered' then r.at else d.delivered_at end
       from unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::int[], $7::text[])
            as r(id, status, next_at, at, code, duration, error)
      where d.id = r.id
      returning d.id, d.endpoint_id, d.organisation_id, d.event_id::text as event_id, d.event_type, d.body, d.status,
                d.attempts, d.next_attempt_at, d.retry_until, d.last_attempt_at, d.last_status_code, d.last_duration_ms,
                d.last_error, d.delivered_at, d.created_at`,
    [
      results.map((r) => r.id),
      results.map((r) => r.status),
      results.map((r) => r.nextAttemptAt),
      results.map((r) => r.at),
      results.map((r) => r.statusCode),
      results.map((r) => r.durationMs),
      results.map((r) => r.error),
    ],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return results.map((r) => byId.get(r.id) as DeliveryRow);
}

/** A delivery that worked clears its endpoint's failure record. */
export async function endpointSucceeded(q: Queryable, endpointId: string): Promise<void> {
  await q.query(
    'update webhook_endpoints set failing_since = null where id = $1 and failing_since is not null',
    [endpointId],
  );
}

/**
 * A failed attempt starts the endpoint's failure record; a record older than `failForMs` disables it. Answers the
 * endpoint when this call disabled it (its administrators are then told).
 */
export async function endpointFailed(
  q: Queryable,
  endpointId: string,
  now: Date,
  failForMs: number,
): Promise<EndpointRow | undefined> {
  await q.query('update webhook_endpoints set failing_since = $2 where id = $1 and failing_since is null', [
    endpointId,
    now,
  ]);
  return maybe<EndpointRow>(
    q,
    `update webhook_endpoints
        set enabled = false, disabled_reason = 'failing', disabled_at = $2, updated_at = $2
      where id = $1 and enabled and failing_since <= $2::timestamptz - make_interval(secs => $3::float8 / 1000)
      returning *`,
    [endpointId, now, failForMs],
  );
}

/** Makes a delivery due again now, for one more attempt (a manual redelivery). */
export async function rearmDelivery(q: Queryable, id: string, now: Date): Promise<void> {
  await q.query(
    `update webhook_deliveries set status = 'pending', next_attempt_at = $2,
            retry_until = greatest(retry_until, $2) where id = $1`,
    [id, now],
  );
}

/** Who is told when an endpoint is disabled: the organisation's active users who manage integrations. */
export async function integrationAdmins(
  q: Queryable,
  orgId: string,
): Promise<{ email: string; language: string }[]> {
  return q.query(
    `select u.email, o.language from users u
       join roles r on r.id = u.role_id
       join organisations o on o.id = u.organisation_id
      where u.organisation_id = $1 and u.active and 'AUTHORITY_INTEGRATION' = any(r.rights)`,
    [orgId],
  );
}
