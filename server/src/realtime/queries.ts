import type { Audience, LoggedEventType } from '@smartconnect/contracts';
import { maybe, one, type Queryable, statement } from '../db/index.ts';
import type { StoredEvent } from './bus.ts';

type EventRow = {
  id: string;
  organisation_id: string;
  type: LoggedEventType;
  payload: unknown;
  audience: Audience;
  created_at: Date | string;
};

const EVENT_COLUMNS = 'id::text as id, organisation_id, type, payload, audience, created_at';

const toEvent = (r: EventRow): StoredEvent => ({
  id: r.id,
  organisationId: r.organisation_id,
  type: r.type,
  payload: r.payload,
  audience: r.audience ?? {},
  createdAt: new Date(r.created_at).toISOString(),
});

export type NewEvent = {
  organisationId: string;
  type: LoggedEventType;
  payloadJson: string;
  audience: Audience;
};

/**
 * Inserts the events of one transaction in one statement, whatever their number (one text, prepared: it runs with
 * every ingest batch and command); ids come back in insertion order (the id sequence follows the arrays' order).
 */
const INSERT_EVENTS = statement(
  'insert_events',
  `insert into events (organisation_id, type, payload, audience)
   select e.organisation_id, e.type, p.value, a.value
     from unnest($1::uuid[], $2::text[]) with ordinality as e(organisation_id, type, n)
     join jsonb_array_elements($3::jsonb) with ordinality as p(value, n) on p.n = e.n
     join jsonb_array_elements($4::jsonb) with ordinality as a(value, n) on a.n = e.n
    order by e.n
   returning id::text, created_at`,
);
export async function insertEvents(
  q: Queryable,
  events: NewEvent[],
): Promise<{ id: string; createdAt: string }[]> {
  // The payloads are JSON already: joined into one array, they travel as one parameter, escaped by nobody.
  const rows = await q.query<{ id: string; created_at: Date | string }>(INSERT_EVENTS, [
    events.map((e) => e.organisationId),
    events.map((e) => e.type),
    `[${events.map((e) => e.payloadJson).join(',')}]`,
    JSON.stringify(events.map((e) => e.audience)),
  ]);
  return rows
    .sort((x, y) => Number(x.id) - Number(y.id))
    .map((r) => ({ id: r.id, createdAt: new Date(r.created_at).toISOString() }));
}

/** The highest event id committed so far (0 on an empty log). */
export async function maxEventId(q: Queryable): Promise<number> {
  const row = await one<{ max: string | null }>(q, 'select max(id)::text as max from events');
  return row.max ? Number(row.max) : 0;
}

/** Committed events with ids in (after, upTo], every organisation, in id order. */
export async function eventsBetween(q: Queryable, after: number, upTo: number | null, limit: number) {
  const rows = await q.query<EventRow>(
    `select ${EVENT_COLUMNS} from events where id > $1 and ($2::bigint is null or id <= $2) order by id limit $3`,
    [after, upTo, limit],
  );
  return rows.map(toEvent);
}

/**
 * One organisation's events with ids in (after, upTo], in id order: what a resuming socket missed. Events with an
 * empty audience reach no socket (the log-only ones of event webhooks): left out, so they never count towards a
 * replay's limit.
 */
export async function organisationEventsBetween(
  q: Queryable,
  organisationId: string,
  after: number,
  upTo: number,
  limit: number,
) {
  const rows = await q.query<EventRow>(
    `select ${EVENT_COLUMNS} from events
      where organisation_id = $1 and id > $2 and id <= $3 and audience <> '{}'::jsonb
      order by id limit $4`,
    [organisationId, after, upTo, limit],
  );
  return rows.map(toEvent);
}

/**
 * The transactions (virtual ids) that hold a write lock on `events` now, other than this session: the
 * only ones that may still commit an event whose id was already taken.
 */
export async function eventWriters(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ vxid: string }>(
    `select distinct virtualtransaction as vxid from pg_locks
      where locktype = 'relation' and relation = 'events'::regclass and mode = 'RowExclusiveLock'
        and database = (select oid from pg_database where datname = current_database())
        and pid is distinct from pg_backend_pid()`,
  );
  return rows.map((r) => r.vxid);
}

export async function prunedThrough(q: Queryable): Promise<number> {
  const row = await maybe<{ value: string }>(
    q,
    "select value::text as value from realtime_state where key = 'events_pruned_through'",
  );
  return row ? Number(row.value) : 0;
}

/** Deletes up to `batch` events older than `before` (oldest first) and raises the pruned-through mark. */
export async function pruneEvents(q: Queryable, before: Date, batch: number): Promise<number> {
  const rows = await q.query<{ max: string | null; n: string }>(
    `with gone as (
       delete from events where id in (select id from events where created_at < $1 order by id limit $2) returning id
     ), mark as (
       update realtime_state set value = greatest(value, (select coalesce(max(id), 0) from gone))
        where key = 'events_pruned_through'
     )
     select max(id)::text as max, count(*)::text as n from gone`,
    [before, batch],
  );
  return Number(rows[0]?.n ?? 0);
}

export type SessionState = {
  session_id: string;
  valid: boolean;
  rights: string[] | null;
  team_ids: string[] | null;
};

/** For live sockets: is each session still usable, and the user's current rights and teams. */
export async function sessionStates(
  q: Queryable,
  sessionIds: string[],
  idleCutoff: Date,
): Promise<SessionState[]> {
  return q.query<SessionState>(
    `select s.id as session_id,
            (s.revoked_at is null and u.active and o.status = 'active' and s.last_used_at > $2) as valid,
            r.rights,
            array(select tm.team_id::text from team_members tm where tm.user_id = u.id) as team_ids
       from sessions s
       join users u on u.id = s.user_id
       join roles r on r.id = u.role_id
       join organisations o on o.id = u.organisation_id
      where s.id = any($1::uuid[])`,
    [sessionIds, idleCutoff],
  );
}

/** Records this instance's live socket count for a user (0 removes the row). */
export async function setInstanceSockets(
  q: Queryable,
  instanceId: string,
  organisationId: string,
  userId: string,
  sockets: number,
): Promise<void> {
  if (sockets > 0) {
    await q.query(
      `insert into realtime_presence (instance_id, organisation_id, user_id, sockets, seen_at)
       values ($1, $2, $3, $4, now())
       on conflict (instance_id, user_id) do update set sockets = excluded.sockets, seen_at = now()`,
      [instanceId, organisationId, userId, sockets],
    );
  } else {
    await q.query('delete from realtime_presence where instance_id = $1 and user_id = $2', [
      instanceId,
      userId,
    ]);
  }
}

/** Marks every row of this instance as alive. */
export async function touchInstance(q: Queryable, instanceId: string): Promise<void> {
  await q.query('update realtime_presence set seen_at = now() where instance_id = $1', [instanceId]);
}

export async function hasLiveSockets(q: Queryable, userId: string): Promise<boolean> {
  const row = await one<{ live: boolean }>(
    q,
    'select exists (select 1 from realtime_presence where user_id = $1) as live',
    [userId],
  );
  return row.live;
}

/**
 * Removes rows of instances that stopped heartbeating; returns the users left without any live socket
 * anywhere who are not already offline. Each stale row is deleted by exactly one instance.
 */
export async function reapStalePresence(
  q: Queryable,
  staleSeconds: number,
): Promise<{ organisation_id: string; user_id: string }[]> {
  return q.query(
    `with gone as (
       delete from realtime_presence where seen_at < now() - make_interval(secs => $1) returning organisation_id, user_id
     )
     select distinct g.organisation_id, g.user_id from gone g
       join users u on u.id = g.user_id
      where u.presence <> 'offline'
        and not exists (select 1 from realtime_presence p where p.user_id = g.user_id and p.seen_at >= now() - make_interval(secs => $1))`,
    [staleSeconds],
  );
}

export async function userPresence(q: Queryable, userId: string): Promise<string | undefined> {
  const row = await maybe<{ presence: string }>(q, 'select presence from users where id = $1', [userId]);
  return row?.presence;
}

/**
 * What identifies this database whatever URL reached it: the server's system identifier (when the role may
 * read pg_control_system; 'unknown' otherwise), the database's name and the random id a migration wrote into it.
 */
export async function databaseIdentity(q: Queryable): Promise<string> {
  const own = await one<{ name: string; id: string | null }>(
    q,
    "select current_database() as name, (select value::text from realtime_state where key = 'database_id') as id",
  );
  let system = 'unknown';
  try {
    const row = await maybe<{ id: string }>(
      q,
      'select system_identifier::text as id from pg_control_system()',
    );
    if (row?.id) system = row.id;
  } catch {
    // Not readable by this role: the database's own random id still tells databases apart.
  }
  return `${system}:${own.name}:${own.id ?? ''}`;
}
