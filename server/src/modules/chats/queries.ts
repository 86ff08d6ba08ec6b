import type {
  Attachment,
  Audience,
  ChatHistoryKind,
  ChatStatus,
  DeliveryStatus,
  MessageKind,
  OverdueLevel,
} from '@smartconnect/contracts';
import { maybe, one, type Queryable } from '../../db/index.ts';

export type ChatRow = {
  id: string;
  organisation_id: string;
  channel_id: string;
  channel_name: string;
  channel_type: 'api';
  channel_status: 'active' | 'inactive';
  channel_deleted: boolean;
  half_expired_minutes: number | null;
  expired_minutes: number | null;
  client_id: string;
  client_name: string;
  client_external_id: string;
  personal_manager_id: string | null;
  contact_id: string;
  team_id: string;
  team_name: string;
  operator_id: string | null;
  operator_name: string | null;
  category_id: string | null;
  category_name: string | null;
  status: ChatStatus;
  session_no: number;
  overdue_level: OverdueLevel;
  assigned_at: Date | null;
  closed_at: Date | null;
  last_client_message_at: Date | null;
  last_operator_message_at: Date | null;
  unanswered_since: Date | null;
  last_message_text: string | null;
  last_message_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const selectChat = `
  select c.id, c.organisation_id, c.channel_id, ch.name as channel_name, ch.type as channel_type,
         ch.status as channel_status, ch.deleted_at is not null as channel_deleted,
         ch.half_expired_minutes, ch.expired_minutes,
         c.client_id, cl.name as client_name, ct.external_id as client_external_id, cl.personal_manager_id,
         c.contact_id, c.team_id, t.name as team_name, c.operator_id, u.name as operator_name,
         c.category_id, rc.name as category_name, c.status, c.session_no, c.overdue_level, c.assigned_at,
         c.closed_at, c.last_client_message_at, c.last_operator_message_at, c.unanswered_since,
         c.last_message_text, c.last_message_at, c.created_at, c.updated_at
    from chats c
    join channels ch on ch.id = c.channel_id
    join teams t on t.id = c.team_id
    join clients cl on cl.id = c.client_id
    join contacts ct on ct.id = c.contact_id
    left join users u on u.id = c.operator_id
    left join request_categories rc on rc.id = c.category_id`;

export const findChat = (q: Queryable, orgId: string, id: string) =>
  maybe<ChatRow>(q, `${selectChat} where c.id = $1 and c.organisation_id = $2`, [id, orgId]);

/** Locks the chat row for the rest of the transaction (operations on one chat serialise). */
export async function lockChat(q: Queryable, orgId: string, id: string): Promise<ChatRow | undefined> {
  const locked = await maybe(
    q,
    'select id from chats where id = $1 and organisation_id = $2 for no key update',
    [id, orgId],
  );
  return locked ? findChat(q, orgId, id) : undefined;
}

/** Who is asking: their id, whether they see every chat, and their teams. */
export type Viewer = { userId: string; all: boolean; teamIds: string[] };

export const userTeamIds = async (q: Queryable, userId: string) =>
  (await q.query<{ team_id: string }>('select team_id from team_members where user_id = $1', [userId])).map(
    (r) => r.team_id,
  );

/** The SQL twin of policy.canSee: $2 all chats, $3 the viewer, $4 the viewer's teams. */
const visible = `($2::boolean or c.operator_id = $3::uuid or (c.status = 'waiting' and c.team_id = any($4::uuid[])))`;
const filterWhere = {
  assigned: `c.status = 'in_progress' and ${visible}`,
  waiting: `c.status = 'waiting' and ${visible}`,
  closed: `c.status = 'closed' and ${visible}`,
} as const;
const filterOrder = {
  assigned: 'coalesce(c.last_message_at, c.created_at) desc, c.id desc',
  waiting: 'c.created_at, c.id',
  closed: 'c.closed_at desc, c.id desc',
} as const;

export async function listChats(
  q: Queryable,
  orgId: string,
  viewer: Viewer,
  filter: keyof typeof filterWhere,
  limit: number,
  offset: number,
) {
  const where = `where c.organisation_id = $1 and ${filterWhere[filter]}`;
  const params = [orgId, viewer.all, viewer.userId, viewer.teamIds];
  const items = await q.query<ChatRow>(
    `${selectChat} ${where} order by ${filterOrder[filter]} limit $5 offset $6`,
    [...params, limit, offset],
  );
  const { total } = await one<{ total: number }>(
    q,
    `select count(*)::int as total from chats c ${where}`,
    params,
  );
  return { items, total };
}

export const countChats = (q: Queryable, orgId: string, viewer: Viewer) =>
  one<{ in_progress: number; waiting: number }>(
    q,
    `select count(*) filter (where ${filterWhere.assigned})::int as in_progress,
            count(*) filter (where ${filterWhere.waiting})::int as waiting
       from chats c where c.organisation_id = $1 and c.status <> 'closed'`,
    [orgId, viewer.all, viewer.userId, viewer.teamIds],
  );

// ---- ingest ----

export const findMessageByExternal = (q: Queryable, channelId: string, externalId: string) =>
  maybe<{ id: string; chat_id: string }>(
    q,
    'select id, chat_id from messages where channel_id = $1 and external_message_id = $2',
    [channelId, externalId],
  );

/**
 * The whole common ingest path in ONE autocommit statement (one round trip, atomic): find the client's open
 * chat, touch it (row lock; nothing when it was closed meanwhile or the message is already stored), insert the
 * message, re-arm auto-close, start the overdue clocks when this message opens an unanswered window, and write
 * the `message.created` event row with the audience of policy.chatAudience. No row, or no message_id: the
 * caller takes the transactional path (new client, new session, retry).
 */
export const appendToOpenChat = (
  q: Queryable,
  a: {
    orgId: string;
    channelId: string;
    externalClientId: string;
    now: Date;
    text: string;
    attachments: Attachment[];
    externalMessageId: string;
    /** message.created payload without id and chatId, which the statement fills in. */
    payloadJson: string;
    halfExpiredMinutes: number | null;
    expiredMinutes: number | null;
  },
) =>
  maybe<{
    chat_id: string;
    status: ChatStatus;
    operator_id: string | null;
    team_id: string;
    message_id: string | null;
    event_id: string | null;
    event_created_at: Date | null;
    audience: Audience | null;
  }>(
    q,
    `with k as (
       select c.id as chat_id from contacts ct join chats c on c.contact_id = ct.id and c.status <> 'closed'
        where ct.channel_id = $2 and ct.external_id = $3
     ), u as (
       update chats set last_client_message_at = $4, unanswered_since = coalesce(unanswered_since, $4),
              last_message_text = $5, last_message_at = $4, updated_at = $4
        where id = (select chat_id from k) and status <> 'closed'
          and not exists (select 1 from messages where channel_id = $2 and external_message_id = $7)
        returning id, status, operator_id, team_id, unanswered_since,
                  (select auto_close_minutes from teams t where t.id = chats.team_id) as auto_close_minutes
     ), m as (
       insert into messages (organisation_id, chat_id, channel_id, direction, kind, internal, text, attachments,
                             external_message_id, created_at)
       select $1::uuid, u.id, $2::uuid, 'in', 'normal', false, $5::text, $6::jsonb, $7::text, $4::timestamptz from u
       on conflict (channel_id, external_message_id) do nothing
       returning id, chat_id
     ), t as (
       insert into timers (organisation_id, kind, subject_id, due_at)
       select $1::uuid, 'auto_close', u.id, $4::timestamptz + make_interval(mins => u.auto_close_minutes)
         from u where u.auto_close_minutes is not null
       union all
       select $1::uuid, 'overdue_half', u.id, $4::timestamptz + make_interval(mins => $9::int)
         from u where $9::int is not null and u.unanswered_since = $4::timestamptz
       union all
       select $1::uuid, 'overdue_expired', u.id, $4::timestamptz + make_interval(mins => $10::int)
         from u where $10::int is not null and u.unanswered_since = $4::timestamptz
       on conflict (kind, subject_id) do update set due_at = case when excluded.kind = 'auto_close'
         then excluded.due_at else timers.due_at end
     ), e as (
       insert into events (organisation_id, type, payload, audience)
       select $1::uuid, 'message.created',
              $8::jsonb || jsonb_build_object('id', m.id, 'chatId', m.chat_id),
              jsonb_build_object('rights', jsonb_build_array('AUTHORITY_ALL_CHATS'))
                || case when u.operator_id is not null
                        then jsonb_build_object('userIds', jsonb_build_array(u.operator_id)) else '{}'::jsonb end
                || case when u.status = 'waiting'
                        then jsonb_build_object('teamIds', jsonb_build_array(u.team_id)) else '{}'::jsonb end
         from m join u on u.id = m.chat_id
       returning id, created_at, audience
     )
     select u.id as chat_id, u.status, u.operator_id, u.team_id, (select id from m) as message_id,
            (select id::text from e) as event_id, (select created_at from e) as event_created_at,
            (select audience from e) as audience
       from u`,
    [
      a.orgId,
      a.channelId,
      a.externalClientId,
      a.now,
      a.text,
      JSON.stringify(a.attachments),
      a.externalMessageId,
      a.payloadJson,
      a.halfExpiredMinutes,
      a.expiredMinutes,
    ],
  );

/**
 * The contact of (channel, external id), created with its client when first seen.
 * Concurrent first messages of one client: the unique key makes the second wait and then reuse the first.
 */
export async function upsertContact(
  q: Queryable,
  orgId: string,
  channelId: string,
  externalId: string,
  name: string,
): Promise<{ id: string; client_id: string; created: boolean }> {
  const inserted = await maybe<{ id: string; client_id: string }>(
    q,
    `with c as (
       insert into contacts (organisation_id, channel_id, client_id, external_id, name)
       values ($1, $2, uuid_generate_v7(), $3, $4)
       on conflict (channel_id, external_id) do nothing returning id, client_id
     ), cl as (
       insert into clients (id, organisation_id, name) select client_id, $1, $4 from c
     )
     select id, client_id from c`,
    [orgId, channelId, externalId, name],
  );
  if (inserted) return { ...inserted, created: true };
  const existing = await one<{ id: string; client_id: string }>(
    q,
    'select id, client_id from contacts where channel_id = $1 and external_id = $2',
    [channelId, externalId],
  );
  return { ...existing, created: false };
}

/**
 * Opens a new session for the contact, already carrying its first client message, unless one is open.
 * A new chat answers when its unanswered window started and its team's auto-close time.
 */
export async function openChat(
  q: Queryable,
  c: {
    orgId: string;
    channelId: string;
    clientId: string;
    contactId: string;
    teamId: string;
    text: string;
    now: Date;
  },
): Promise<
  | { id: string; created: true; unanswered_since: Date; auto_close_minutes: number | null }
  | { id: string; created: false }
> {
  const inserted = await maybe<{ id: string; unanswered_since: Date; auto_close_minutes: number | null }>(
    q,
    `insert into chats (organisation_id, channel_id, client_id, contact_id, team_id, session_no, created_at, updated_at,
                        last_client_message_at, unanswered_since, last_message_text, last_message_at)
     values ($1, $2, $3, $4, $5, (select count(*) + 1 from chats where client_id = $3), $6, $6, $6, $6, $7, $6)
     on conflict (channel_id, contact_id) where status <> 'closed' do nothing
     returning id, unanswered_since, (select auto_close_minutes from teams where id = $5) as auto_close_minutes`,
    [c.orgId, c.channelId, c.clientId, c.contactId, c.teamId, c.now, c.text],
  );
  if (inserted) return { ...inserted, created: true };
  const open = await one<{ id: string }>(
    q,
    `select id from chats where channel_id = $1 and contact_id = $2 and status <> 'closed' for no key update`,
    [c.channelId, c.contactId],
  );
  return { id: open.id, created: false };
}

export const hadEarlierChat = async (q: Queryable, clientId: string, chatId: string) =>
  !!(await maybe(q, 'select 1 from chats where client_id = $1 and id <> $2 limit 1', [clientId, chatId]));

/** Records a client message on the chat; answers when the unanswered window started (now, if this message opened it). */
export async function touchChatOnClientMessage(q: Queryable, chatId: string, text: string, now: Date) {
  return one<{ unanswered_since: Date; auto_close_minutes: number | null }>(
    q,
    `update chats set last_client_message_at = $2, unanswered_since = coalesce(unanswered_since, $2),
            last_message_text = $3, last_message_at = $2, updated_at = $2
      where id = $1
      returning unanswered_since, (select auto_close_minutes from teams t where t.id = chats.team_id) as auto_close_minutes`,
    [chatId, now, text],
  );
}

export async function touchChatOnOperatorMessage(q: Queryable, chatId: string, text: string, now: Date) {
  await q.query(
    `update chats set last_operator_message_at = $2, unanswered_since = null, overdue_level = 'none',
            last_message_text = $3, last_message_at = $2, updated_at = $2
      where id = $1`,
    [chatId, now, text],
  );
}

// ---- messages ----

export type MessageRow = {
  id: string;
  chat_id: string;
  direction: 'in' | 'out';
  kind: MessageKind;
  internal: boolean;
  text: string;
  attachments: Attachment[];
  status: DeliveryStatus | null;
  author_id: string | null;
  author_name: string | null;
  external_message_id: string | null;
  edited_at: Date | null;
  created_at: Date;
};

const messageColumns = `m.id, m.chat_id, m.direction, m.kind, m.internal, m.text, m.attachments, m.status,
  m.author_id, (select name from users where id = m.author_id) as author_name, m.external_message_id,
  m.edited_at, m.created_at`;

export type MessageInsert = {
  orgId: string;
  chatId: string;
  channelId: string;
  direction: 'in' | 'out';
  kind: MessageKind;
  internal: boolean;
  text: string;
  attachments: Attachment[];
  status: DeliveryStatus | null;
  authorId: string | null;
  externalMessageId: string | null;
  now: Date;
};

/** Inserts a message; answers nothing when (channel, external id) is already stored (a provider retry). */
export const insertMessage = (q: Queryable, m: MessageInsert) =>
  maybe<MessageRow>(
    q,
    `insert into messages as m (organisation_id, chat_id, channel_id, direction, kind, internal, text, attachments,
                                status, author_id, external_message_id, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     on conflict (channel_id, external_message_id) do nothing
     returning ${messageColumns}`,
    [
      m.orgId,
      m.chatId,
      m.channelId,
      m.direction,
      m.kind,
      m.internal,
      m.text,
      JSON.stringify(m.attachments),
      m.status,
      m.authorId,
      m.externalMessageId,
      m.now,
    ],
  );

export async function listMessages(q: Queryable, chatId: string, limit: number, offset: number) {
  const items = await q.query<MessageRow>(
    `select ${messageColumns} from messages m where m.chat_id = $1 order by m.created_at, m.id limit $2 offset $3`,
    [chatId, limit, offset],
  );
  const { total } = await one<{ total: number }>(
    q,
    'select count(*)::int as total from messages where chat_id = $1',
    [chatId],
  );
  return { items, total };
}

export const findMessage = (q: Queryable, chatId: string, id: string) =>
  maybe<MessageRow>(q, `select ${messageColumns} from messages m where m.id = $1 and m.chat_id = $2`, [
    id,
    chatId,
  ]);

export const editMessageText = (q: Queryable, id: string, text: string, kind: MessageKind, now: Date) =>
  one<MessageRow>(
    q,
    `update messages m set text = $2, kind = $3, edited_at = $4 where id = $1 returning ${messageColumns}`,
    [id, text, kind, now],
  );

export const setMessageStatus = (q: Queryable, id: string, status: DeliveryStatus) =>
  maybe<MessageRow & { organisation_id: string }>(
    q,
    `update messages m set status = $2 where id = $1 returning ${messageColumns}, m.organisation_id`,
    [id, status],
  );

// ---- state changes ----

/**
 * Assigns the chat when its status is one of `from`, writing the history row in the same statement;
 * answers false when someone else changed it first.
 */
export async function assignChat(
  q: Queryable,
  a: {
    orgId: string;
    chatId: string;
    operatorId: string;
    from: ChatStatus[];
    kind: ChatHistoryKind;
    actorId: string | null;
    fromUserId: string | null;
    now: Date;
  },
): Promise<boolean> {
  const rows = await q.query(
    `with a as (
       update chats set status = 'in_progress', operator_id = $3, assigned_at = $5, updated_at = $5
        where id = $2 and status = any($4::text[]) returning id, team_id
     ), h as (
       insert into chat_history (organisation_id, chat_id, kind, actor_id, from_user_id, to_user_id, to_team_id,
                                 created_at)
       select $1, a.id, $6, $7, $8, $3, a.team_id, $5 from a
     )
     select id from a`,
    [a.orgId, a.chatId, a.operatorId, a.from, a.now, a.kind, a.actorId, a.fromUserId],
  );
  return rows.length === 1;
}

export const moveToQueue = (q: Queryable, chatId: string, teamId: string, now: Date) =>
  q.query(
    `update chats set status = 'waiting', operator_id = null, assigned_at = null, team_id = $2, updated_at = $3
      where id = $1`,
    [chatId, teamId, now],
  );

export const markClosed = (q: Queryable, chatId: string, now: Date) =>
  q.query(`update chats set status = 'closed', closed_at = $2, updated_at = $2 where id = $1`, [chatId, now]);

export const setCategory = (q: Queryable, chatId: string, categoryId: string | null, now: Date) =>
  q.query('update chats set category_id = $2, updated_at = $3 where id = $1', [chatId, categoryId, now]);

export const setOverdue = (q: Queryable, chatId: string, level: OverdueLevel, now: Date) =>
  q.query('update chats set overdue_level = $2, updated_at = $3 where id = $1', [chatId, level, now]);

/** Waiting chats of a team, oldest first, that no other transaction is handling right now. */
export const claimWaiting = (q: Queryable, teamId: string, limit: number) =>
  q.query<{ id: string; organisation_id: string; client_id: string }>(
    `select id, organisation_id, client_id from chats where team_id = $1 and status = 'waiting'
      order by created_at, id limit $2 for no key update skip locked`,
    [teamId, limit],
  );

// ---- history ----

export type HistoryInsert = {
  orgId: string;
  chatId: string;
  kind: ChatHistoryKind;
  actorId?: string | null;
  fromUserId?: string | null;
  toUserId?: string | null;
  fromTeamId?: string | null;
  toTeamId?: string | null;
  categoryId?: string | null;
  now: Date;
};

export const insertHistory = (q: Queryable, h: HistoryInsert) =>
  q.query(
    `insert into chat_history (organisation_id, chat_id, kind, actor_id, from_user_id, to_user_id, from_team_id,
                               to_team_id, category_id, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      h.orgId,
      h.chatId,
      h.kind,
      h.actorId ?? null,
      h.fromUserId ?? null,
      h.toUserId ?? null,
      h.fromTeamId ?? null,
      h.toTeamId ?? null,
      h.categoryId ?? null,
      h.now,
    ],
  );

export type HistoryRow = {
  id: string;
  kind: ChatHistoryKind;
  actor_id: string | null;
  from_user_id: string | null;
  to_user_id: string | null;
  from_team_id: string | null;
  to_team_id: string | null;
  category_id: string | null;
  created_at: Date;
};

export const listHistory = (q: Queryable, chatId: string) =>
  q.query<HistoryRow>(
    `select id, kind, actor_id, from_user_id, to_user_id, from_team_id, to_team_id, category_id, created_at
       from chat_history where chat_id = $1 order by created_at, id`,
    [chatId],
  );

/** The last operator who held any chat of this client, other than `exceptUserId`. */
export const lastOperatorOfClient = async (q: Queryable, clientId: string, exceptUserId: string | null) =>
  (
    await maybe<{ user_id: string }>(
      q,
      `select h.to_user_id as user_id from chat_history h join chats c on c.id = h.chat_id
        where c.client_id = $1 and h.to_user_id is not null and h.to_user_id is distinct from $2
        order by h.created_at desc, h.id desc limit 1`,
      [clientId, exceptUserId],
    )
  )?.user_id ?? null;

export const userInOrg = (q: Queryable, orgId: string, userId: string) =>
  maybe<{ id: string }>(q, 'select id from users where id = $1 and organisation_id = $2', [userId, orgId]);

export const teamInOrg = (q: Queryable, orgId: string, teamId: string) =>
  maybe<{ id: string }>(q, 'select id from teams where id = $1 and organisation_id = $2 and deleted_at is null', [teamId, orgId]);

export const categoryInOrg = (q: Queryable, orgId: string, id: string) =>
  maybe<{ id: string }>(q, 'select id from request_categories where id = $1 and organisation_id = $2', [
    id,
    orgId,
  ]);

export const orgOptions = async (q: Queryable, orgId: string) =>
  (await one<{ options: string[] }>(q, 'select options from organisations where id = $1', [orgId])).options;
