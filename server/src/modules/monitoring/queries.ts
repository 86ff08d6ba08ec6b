import type {
  MonitoringAbonentRow,
  MonitoringChannelRow,
  MonitoringOperatorRow,
  MonitoringTeamRow,
  PlanOption,
} from '@smartconnect/contracts';
import { MONITORING_ABONENTS_MAX } from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';

// Every query reads current state only: open chats through chats_org_status_idx (organisation, status, team),
// loads through chats_operator_idx (operator, status); never messages.

/** How long a waiting chat has waited: since its oldest unanswered client message, else since it was queued. */
const waitStart = 'coalesce(c.unanswered_since, c.updated_at)';
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

type Counts = { waiting: number; in_progress: number; waiting_since: Date | null };

export async function channelRows(q: Queryable, orgId: string): Promise<MonitoringChannelRow[]> {
  const rows = await q.query<
    Counts & { id: string; name: string; type: string; team_id: string; team_name: string }
  >(
    `with open as (
       select c.channel_id, c.status, ${waitStart} as since
         from chats c where c.organisation_id = $1 and c.status in ('waiting', 'in_progress')
     ), agg as (
       select channel_id, count(*) filter (where status = 'waiting')::int as waiting,
              count(*) filter (where status = 'in_progress')::int as in_progress,
              min(since) filter (where status = 'waiting') as waiting_since
         from open group by channel_id
     )
     select ch.id, ch.name, ch.type, ch.team_id, t.name as team_name,
            coalesce(a.waiting, 0) as waiting, coalesce(a.in_progress, 0) as in_progress, a.waiting_since
       from channels ch join teams t on t.id = ch.team_id
       left join agg a on a.channel_id = ch.id
      where ch.organisation_id = $1 and ch.deleted_at is null
      order by lower(ch.name), ch.id`,
    [orgId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    type: r.type,
    teamId: r.team_id,
    teamName: r.team_name,
    waiting: r.waiting,
    inProgress: r.in_progress,
    waitingSince: iso(r.waiting_since),
  }));
}

export async function teamRows(q: Queryable, orgId: string): Promise<MonitoringTeamRow[]> {
  const rows = await q.query<
    Counts & { id: string; name: string; in_work: number; on_break: number; offline: number }
  >(
    `with agg as (
       select c.team_id, count(*) filter (where c.status = 'waiting')::int as waiting,
              count(*) filter (where c.status = 'in_progress')::int as in_progress,
              min(${waitStart}) filter (where c.status = 'waiting') as waiting_since
         from chats c where c.organisation_id = $1 and c.status in ('waiting', 'in_progress')
        group by c.team_id
     ), people as (
       select m.team_id, count(*) filter (where u.presence = 'online')::int as in_work,
              count(*) filter (where u.presence = 'break')::int as on_break,
              count(*) filter (where u.presence = 'offline')::int as offline
         from team_members m join users u on u.id = m.user_id join roles r on r.id = u.role_id
        where m.organisation_id = $1 and u.active and 'AUTHORITY_CHAT_DISTRIBUTION' = any(r.rights)
        group by m.team_id
     )
     select t.id, t.name, coalesce(a.waiting, 0) as waiting, coalesce(a.in_progress, 0) as in_progress,
            a.waiting_since, coalesce(p.in_work, 0) as in_work, coalesce(p.on_break, 0) as on_break,
            coalesce(p.offline, 0) as offline
       from teams t left join agg a on a.team_id = t.id left join people p on p.team_id = t.id
      where t.organisation_id = $1 and t.deleted_at is null
      order by lower(t.name), t.id`,
    [orgId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    waiting: r.waiting,
    inProgress: r.in_progress,
    waitingSince: iso(r.waiting_since),
    inWork: r.in_work,
    onBreak: r.on_break,
    offline: r.offline,
  }));
}

/** Operators: active users who receive dialogs (AUTHORITY_CHAT_DISTRIBUTION). */
export async function operatorRows(q: Queryable, orgId: string): Promise<MonitoringOperatorRow[]> {
  const rows = await q.query<{
    id: string;
    name: string;
    presence: MonitoringOperatorRow['status'];
    presence_changed_at: Date | null;
    in_progress: number;
    dialog_limit: number;
    team_ids: string[];
    team_names: string[];
  }>(
    `select u.id, u.name, u.presence, u.presence_changed_at,
            (select count(*)::int from chats c where c.operator_id = u.id and c.status = 'in_progress') as in_progress,
            coalesce(tm.dialog_limit, 0) as dialog_limit,
            coalesce(tm.team_ids, '{}') as team_ids, coalesce(tm.team_names, '{}') as team_names
       from users u join roles r on r.id = u.role_id
       left join lateral (
         select max(t.dialog_limit)::int as dialog_limit, array_agg(t.id order by lower(t.name), t.id) as team_ids,
                array_agg(t.name order by lower(t.name), t.id) as team_names
           from team_members m join teams t on t.id = m.team_id and t.deleted_at is null
          where m.user_id = u.id
       ) tm on true
      where u.organisation_id = $1 and u.active and 'AUTHORITY_CHAT_DISTRIBUTION' = any(r.rights)
      order by lower(u.name), u.id`,
    [orgId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.presence,
    statusSince: iso(r.presence_changed_at),
    inProgress: r.in_progress,
    limit: r.dialog_limit,
    teamIds: r.team_ids,
    teamNames: r.team_names,
  }));
}

/** Clients waiting now (chats in the Waiting queue), the longest waits first. */
export async function abonentRows(q: Queryable, orgId: string): Promise<MonitoringAbonentRow[]> {
  const rows = await q.query<{
    id: string;
    client_id: string;
    client_name: string;
    channel_id: string;
    channel_name: string;
    team_id: string;
    team_name: string;
    since: Date;
  }>(
    `select c.id, c.client_id, cl.name as client_name, c.channel_id, ch.name as channel_name, c.team_id,
            t.name as team_name, ${waitStart} as since
       from chats c join clients cl on cl.id = c.client_id join channels ch on ch.id = c.channel_id
       join teams t on t.id = c.team_id
      where c.organisation_id = $1 and c.status = 'waiting'
      order by since, c.id limit ${MONITORING_ABONENTS_MAX}`,
    [orgId],
  );
  return rows.map((r) => ({
    id: r.id,
    clientId: r.client_id,
    clientName: r.client_name,
    channelId: r.channel_id,
    channelName: r.channel_name,
    teamId: r.team_id,
    teamName: r.team_name,
    waitingSince: new Date(r.since).toISOString(),
  }));
}

export const organisationOptions = async (q: Queryable, orgId: string): Promise<PlanOption[]> =>
  (
    await maybe<{ options: PlanOption[] }>(
      q,
      `select options from organisations where id = $1 and status = 'active'`,
      [orgId],
    )
  )?.options ?? [];

export const readSettings = (q: Queryable, userId: string, view: string) =>
  maybe<{ columns: { key: string; visible: boolean }[] }>(
    q,
    'select columns from monitoring_settings where user_id = $1 and view = $2',
    [userId, view],
  );

export const writeSettings = (
  q: Queryable,
  orgId: string,
  userId: string,
  view: string,
  columns: { key: string; visible: boolean }[],
  now: Date,
) =>
  q.query(
    `insert into monitoring_settings (organisation_id, user_id, view, columns, updated_at)
     values ($1, $2, $3, $4::jsonb, $5)
     on conflict (user_id, view) do update set columns = excluded.columns, updated_at = excluded.updated_at`,
    [orgId, userId, view, JSON.stringify(columns), now],
  );
