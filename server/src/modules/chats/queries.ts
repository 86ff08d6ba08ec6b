import type {
  Attachment,
  ButtonRows,
  ChannelType,
  ChatHistoryKind,
  ChatStatus,
  DeliveryStatus,
  MessageKind,
  OverdueLevel,
} from '@smartconnect/contracts';
import { maybe, one, type Queryable } from '../../db/index.ts';
import { PIPELINE_HANDOVER_SECONDS } from '../../jobs/pipeline-queries.ts';

export type ChatRow = {
  id: string;
  organisation_id: string;
  channel_id: string;
  channel_name: string;
  channel_type: ChannelType;
  /** The channel's settings: what it can do may depend on them (registry's channelCapabilities). */
  channel_settings: Record<string, unknown>;
  channel_status: 'active' | 'inactive';
  channel_deleted: boolean;
  half_expired_minutes: number | null;
  expired_minutes: number | null;
  /** The channel's visible teams: they see its Waiting chats besides the chat's own team (policy.canSee). */
  visible_team_ids: string[];
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
  /** The category's names from the top down to it ('Category', 'Theme', 'Subtheme'). */
  category_path: string[] | null;
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

export const selectChat = `
  select c.id, c.organisation_id, c.channel_id, ch.name as channel_name, ch.type as channel_type,
         ch.settings as channel_settings, ch.status as channel_status, ch.deleted_at is not null as channel_deleted,
         ch.half_expired_minutes, ch.expired_minutes, ch.visible_team_ids,
         c.client_id, cl.name as client_name, ct.external_id as client_external_id, cl.personal_manager_id,
         c.contact_id, c.team_id, t.name as team_name, c.operator_id, u.name as operator_name,
         c.category_id, rc.name as category_name,
         case when rc.id is not null then array_remove(array[rcg.name, rcp.name, rc.name], null) end
           as category_path,
         c.status, c.session_no, c.overdue_level, c.assigned_at,
         c.closed_at, c.last_client_message_at, c.last_operator_message_at, c.unanswered_since,
         c.last_message_text, c.last_message_at, c.created_at, c.updated_at
    from chats c
    join channels ch on ch.id = c.channel_id
    join teams t on t.id = c.team_id
    join clients cl on cl.id = c.client_id
    join contacts ct on ct.id = c.contact_id
    left join users u on u.id = c.operator_id
    left join request_categories rc on rc.id = c.category_id
    left join request_categories rcp on rcp.id = rc.parent_id
    left join request_categories rcg on rcg.id = rcp.parent_id`;

export const findChat = (q: Queryable, orgId: string, id: string) =>
  maybe<ChatRow>(q, `${selectChat} where c.id = $1 and c.organisation_id = $2`, [id, orgId]);

/** Locks the chat row for the rest of the transaction (operations on one chat serialise). */
export const lockChat = (q: Queryable, orgId: string, id: string): Promise<ChatRow | undefined> =>
  // One statement: the chat's row locked (only it: `of c`) and read with its joins (the lock waits, then the row is
  // read as committed).
  maybe<ChatRow>(q, `${selectChat} where c.id = $1 and c.organisation_id = $2 for no key update of c`, [
    id,
    orgId,
  ]);

/** What writing a message needs of its chat (visibility, the channel's state, the session window, the audience). */
export type MessageChatRow = Pick<
  ChatRow,
  | 'id'
  | 'organisation_id'
  | 'channel_id'
  | 'channel_type'
  | 'channel_status'
  | 'channel_deleted'
  | 'visible_team_ids'
  | 'team_id'
  | 'operator_id'
  | 'status'
  | 'overdue_level'
  | 'last_client_message_at'
>;

/**
 * Locks the chat row and reads what writing a message needs, in ONE statement joining only the channel (the full
 * chat read joins eight tables: on the bot's and auto-replies' path it was the costliest statement of a job).
 */
export const lockChatForMessage = (q: Queryable, orgId: string, id: string) =>
  maybe<MessageChatRow>(
    q,
    `select c.id, c.organisation_id, c.channel_id, ch.type as channel_type, ch.status as channel_status,
            ch.deleted_at is not null as channel_deleted, ch.visible_team_ids, c.team_id, c.operator_id, c.status,
            c.overdue_level, c.last_client_message_at
       from chats c join channels ch on ch.id = c.channel_id
      where c.id = $1 and c.organisation_id = $2
        for no key update of c`,
    [id, orgId],
  );

/** Locks the chat row only (a timer's first step; lockChat when the chat is read too). */
export const lockChatRow = (q: Queryable, orgId: string, id: string) =>
  maybe<{ id: string }>(q, 'select id from chats where id = $1 and organisation_id = $2 for no key update', [
    id,
    orgId,
  ]);

/** Who is asking: their id, whether they see every chat, and their teams. */
export type Viewer = { userId: string; all: boolean; teamIds: string[] };

/**
 * The SQL twin of policy.canSee: $1 the organisation, $2 all chats, $3 the viewer, $4 the viewer's teams. A Waiting
 * chat shows to its team and to the visible teams of its channel (the channels visible to the viewer's teams are
 * read once, a hashed subplan).
 */
export const visible = `($2::boolean or c.operator_id = $3::uuid or (c.status = 'waiting'
  and (c.team_id = any($4::uuid[])
       or c.channel_id in (select v.id from channels v
                            where v.organisation_id = $1 and v.visible_team_ids && $4::uuid[]))))`;
const filterWhere = {
  assigned: `c.status = 'in_progress' and ${visible}`,
  waiting: `c.status = 'waiting' and ${visible}`,
  closed: `c.status = 'closed' and ${visible}`,
} as const;
export const countChats = (q: Queryable, orgId: string, viewer: Viewer) =>
  one<{ in_progress: number; waiting: number }>(
    q,
    `select count(*) filter (where ${filterWhere.assigned})::int as in_progress,
            count(*) filter (where ${filterWhere.waiting})::int as waiting
       from chats c where c.organisation_id = $1 and c.status <> 'closed'`,
    [orgId, viewer.all, viewer.userId, viewer.teamIds],
  );

// ---- ingest ----

/** One message of an ingest batch (ingestBatch). */
export type BatchAppendInput = {
  orgId: string;
  channelId: string;
  /** The channel's team: a new chat starts in its queue. */
  teamId: string;
  externalClientId: string;
  /** The client's name as the provider sends it now ('' when it sends none). */
  clientName: string;
  /** The client's handle at the provider ('' when it sends none). */
  username: string;
  /** When it arrived: the chat's timestamps and timers count from it. */
  now: Date;
  /** The message's created_at, `now` with microseconds: strictly increasing in arrival order. */
  at: string;
  text: string;
  attachments: Attachment[];
  externalMessageId: string;
  halfExpiredMinutes: number | null;
  expiredMinutes: number | null;
  /** Enqueue the message's pipeline job even into an open chat (the organisation's automation sees every message). */
  pipeline: boolean;
  /** The payload of the button pressed (a postback), for the bot runtime; null for a typed message. */
  payload?: string | null;
};

/**
 * Per input message, in input order: stored (with what its events need: its chat as it is after the statement),
 * already stored (duplicate), or neither (a race: the caller runs it again in a statement of its own).
 */
export type BatchAppendRow = {
  ord: number;
  duplicate_id: string | null;
  duplicate_chat_id: string | null;
  message_id: string | null;
  chat_id: string | null;
  /** The statement opened this chat (a new client, or a new session of a known one). */
  chat_created: boolean | null;
  /** A pipeline job was enqueued with the message. */
  queued: boolean | null;
  /** The client is blacklisted: the message was stored in their latest dialog, closed (no events, no job). */
  blocked: boolean;
  chat_status: ChatStatus | null;
  operator_id: string | null;
  team_id: string | null;
};

/**
 * THE ingest statement: many inbound messages in ONE statement (one round trip, atomic), whether their chats are
 * open or not. Per message, in input order:
 * - dedupe: a message already stored (channel, provider id) changes nothing and answers duplicate;
 * - the client: its contact and client are created when first seen (named after the provider's name, else its
 *   id); a known contact takes the provider's current name and handle, and its client a changed name;
 * - the chat: the contact's open chat, locked (in id order; one closed meanwhile drops out and its messages miss),
 *   or a new session in the channel's team queue (session number, history 'created' or 'reopen'), carrying all of
 *   the batch's messages of that client;
 * - the message, inserted; only what was really inserted changes anything else (a copy stored meanwhile by another
 *   writer is skipped by the unique key and leaves everything as it was);
 * - the chat's last message and client-message times; auto-close (re)armed from the last message; the overdue
 *   clocks started when the batch opens an unanswered window (a running clock is kept);
 * - a pipeline job (jobs/pipeline.ts) for each message of a new chat, and for every message when `pipeline`.
 * Events are the caller's (ingest.ts builds them with the chats module's presenters and audiences).
 * A message that is neither stored nor a duplicate lost a race (a concurrent writer created its contact or chat,
 * or closed its chat): a new statement sees that writer's commit. The input must not hold one (channel, external
 * id) twice.
 */
export async function ingestBatch(q: Queryable, items: BatchAppendInput[]): Promise<BatchAppendRow[]> {
  const col = <K extends keyof BatchAppendInput>(k: K) => items.map((i) => i[k]);
  return q.query<BatchAppendRow>(
    `with i as (
       select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::text[],
                            $7::text[], $8::int[], $9::int[], $10::timestamptz[], $11::text[], $12::bool[], $13::uuid[],
                            $14::text[], $15::text[])
         with ordinality
         as i(org_id, channel_id, ext_client, at, text, attachments, ext_id, half, expired, now, client_name,
              pipeline, team_id, username, payload, ord)
     ), x as (
       -- Index probes per message (LIMIT keeps each a nested loop whatever the table sizes).
       select i.*, d.id as duplicate_id, d.chat_id as duplicate_chat_id
         from i left join lateral (
           select m.id, m.chat_id from messages m
            where m.channel_id = i.channel_id and m.external_message_id = i.ext_id limit 1
         ) d on true
     ), nx as (
       select * from x where duplicate_id is null
     ), p as (
       -- Per client of the batch: what a new contact and a new chat start with.
       select channel_id, ext_client, (array_agg(org_id))[1] as org_id, (array_agg(team_id))[1] as team_id,
              (array_agg(now order by ord))[1] as first_at, (array_agg(now order by ord desc))[1] as last_at,
              (array_agg(text order by ord desc))[1] as last_text,
              (array_agg(client_name order by client_name = '', ord desc))[1] as name,
              (array_agg(username order by username = '', ord desc))[1] as username
         from nx group by channel_id, ext_client
     ), ce as (
       select p.channel_id, p.ext_client, ct.id as contact_id, ct.client_id, cb.blocked_at is not null as blocked
         from p join contacts ct on ct.channel_id = p.channel_id and ct.external_id = p.ext_client
         join clients cb on cb.id = ct.client_id
     ), cn as (
       insert into contacts (organisation_id, channel_id, client_id, external_id, name, username)
       select p.org_id, p.channel_id, uuid_generate_v7(), p.ext_client, coalesce(nullif(p.name, ''), p.ext_client),
              nullif(p.username, '')
         from p
        where not exists (select 1 from ce where ce.channel_id = p.channel_id and ce.ext_client = p.ext_client)
       on conflict (channel_id, external_id) do nothing
       returning id, client_id, organisation_id, channel_id, external_id, name
     ), cln as (
       insert into clients (id, organisation_id, name) select client_id, organisation_id, name from cn
     ), ct as (
       select channel_id, ext_client, contact_id, client_id, false as new_contact, blocked from ce
       union all
       select channel_id, external_id, id, client_id, true, false from cn
     ), oc as (
       select c.id, c.contact_id from chats c join ce on ce.contact_id = c.contact_id where c.status <> 'closed'
     ), l as materialized (
       -- The open chats first, locked in id order: still open once locked (a close committed meanwhile drops one).
       select c.id, c.contact_id from chats c
        where c.id in (select id from oc) and c.status <> 'closed'
        order by c.id for no key update
     ), bc as (
       -- A blacklisted client without an open dialog: their message is kept in their latest dialog (closed).
       select distinct on (ce.contact_id) ce.contact_id, c.id from ce
         join chats c on c.client_id = ce.client_id and c.contact_id = ce.contact_id
        where ce.blocked and not exists (select 1 from oc where oc.contact_id = ce.contact_id)
        order by ce.contact_id, c.created_at desc, c.id desc
     ), chn as (
       insert into chats (organisation_id, channel_id, client_id, contact_id, team_id, session_no, created_at,
                          updated_at, last_client_message_at, unanswered_since, last_message_text, last_message_at,
                          status, closed_at)
       select p.org_id, p.channel_id, ct.client_id, ct.contact_id, p.team_id,
              (select count(*) + 1 from chats h where h.client_id = ct.client_id),
              p.first_at, p.last_at, p.last_at, case when ct.blocked then null else p.first_at end, p.last_text, p.last_at,
              case when ct.blocked then 'closed' else 'waiting' end, case when ct.blocked then p.first_at end
         from p join ct on ct.channel_id = p.channel_id and ct.ext_client = p.ext_client
        where not exists (select 1 from oc where oc.contact_id = ct.contact_id)
          and not exists (select 1 from bc where bc.contact_id = ct.contact_id)
       on conflict (channel_id, contact_id) where status <> 'closed' do nothing
       returning id, organisation_id, contact_id, team_id, session_no, created_at
     ), k as (
       select nx.*, ct.contact_id, ct.client_id, ct.new_contact, coalesce(l.id, bc.id, chn.id) as chat_id,
              chn.id is not null and not ct.blocked as chat_created,
              -- A blacklisted client's message outside an open dialog: stored only (no timers, job or events).
              ct.blocked and l.id is null as blocked
         from nx
         join ct on ct.channel_id = nx.channel_id and ct.ext_client = nx.ext_client
         left join l on l.contact_id = ct.contact_id
         left join bc on bc.contact_id = ct.contact_id
         left join chn on chn.contact_id = ct.contact_id
        where coalesce(l.id, bc.id, chn.id) is not null
     ), m as (
       insert into messages (organisation_id, chat_id, channel_id, direction, kind, internal, text, attachments,
                             external_message_id, created_at, payload)
       select k.org_id, k.chat_id, k.channel_id, 'in', 'normal', false, k.text, k.attachments::jsonb, k.ext_id, k.at,
              k.payload
         from k order by k.ord
       on conflict (channel_id, external_message_id) do nothing
       returning id, chat_id, channel_id, external_message_id
     ), s as (
       -- The messages really inserted, with their input: everything below follows from these only.
       select k.*, m.id as message_id
         from m join k on k.channel_id = m.channel_id and k.ext_id = m.external_message_id
     ), a as (
       select chat_id, bool_or(chat_created) as created, bool_or(blocked) as blocked, (array_agg(org_id))[1] as org_id,
              (array_agg(team_id))[1] as team_id,
              (array_agg(now order by ord))[1] as first_at, (array_agg(now order by ord desc))[1] as last_at,
              (array_agg(text order by ord desc))[1] as last_text, min(half) as half, min(expired) as expired
         from s group by chat_id
     ), u as (
       update chats c set last_client_message_at = a.last_at,
              unanswered_since = case when a.blocked then c.unanswered_since
                                      else coalesce(c.unanswered_since, a.first_at) end,
              last_message_text = a.last_text, last_message_at = a.last_at, updated_at = a.last_at
         from a
        where c.id = a.chat_id and not a.created
        returning c.id, c.organisation_id, c.status, c.operator_id, c.team_id, c.unanswered_since = a.first_at as opens,
                  a.first_at, a.last_at, a.half, a.expired, a.blocked
     ), w as (
       -- Every chat that received messages, as its timers see it.
       select u.id, u.organisation_id, u.team_id, u.opens, u.first_at, u.last_at, u.half, u.expired from u
        where not u.blocked
       union all
       select a.chat_id, a.org_id, a.team_id, true, a.first_at, a.last_at, a.half, a.expired from a
        where a.created and not a.blocked
     ), t as (
       insert into timers (organisation_id, kind, subject_id, due_at)
       select w.organisation_id, 'auto_close', w.id, w.last_at + make_interval(mins => tm.auto_close_minutes)
         from w join teams tm on tm.id = w.team_id where tm.auto_close_minutes is not null
       union all
       select w.organisation_id, 'inactivity_close', w.id, w.last_at + make_interval(hours => tm.inactivity_hours)
         from w join teams tm on tm.id = w.team_id where tm.inactivity_hours > 0
       union all
       select w.organisation_id, 'overdue_half', w.id, w.first_at + make_interval(mins => w.half)
         from w where w.half is not null and w.opens
       union all
       select w.organisation_id, 'overdue_expired', w.id, w.first_at + make_interval(mins => w.expired)
         from w where w.expired is not null and w.opens
       -- Auto-close and inactivity close are re-armed (a runner's claim on the old setting ends); a running overdue
       -- clock is kept.
       on conflict (kind, subject_id) do update set due_at = excluded.due_at, claimed_by = null, lease_until = null
         where excluded.kind in ('auto_close', 'inactivity_close')
     ), h as (
       insert into chat_history (organisation_id, chat_id, kind, to_team_id, created_at)
       select chn.organisation_id, chn.id, case when chn.session_no > 1 then 'reopen' else 'created' end,
              chn.team_id, chn.created_at
         from chn where chn.id in (select chat_id from s)
     ), n as (
       -- A known contact takes the latest name and handle the provider sends (an empty one changes nothing).
       select ct.id as contact_id, ct.client_id, x.name, x.username,
              x.name is not null and x.name <> ct.name as renamed
         from (select s.contact_id,
                      (array_agg(s.client_name order by s.ord desc) filter (where s.client_name <> ''))[1] as name,
                      (array_agg(s.username order by s.ord desc) filter (where s.username <> ''))[1] as username
                 from s where not s.new_contact group by s.contact_id) x
         join contacts ct on ct.id = x.contact_id
     ), cr as (
       update contacts ct set name = coalesce(n.name, ct.name), username = coalesce(n.username, ct.username)
         from n
        where ct.id = n.contact_id and (n.renamed or ct.username is distinct from coalesce(n.username, ct.username))
        returning n.client_id, n.name, n.renamed
     ), cl as (
       -- The client takes a new provider name (an operator's rename stays until the provider's name changes).
       update clients c set name = cr.name, updated_at = now() from cr
        where c.id = cr.client_id and cr.renamed and c.name <> cr.name
     ), pj as (
       -- Due a little later: the storing instance runs them at once (jobs/pipeline.ts runJobsNow); the pollers
       -- take what it leaves.
       insert into pipeline_jobs (organisation_id, message_id, chat_id, opened, message_at, due_at)
       select s.org_id, s.message_id, s.chat_id, s.chat_created, s.at,
              s.now + make_interval(secs => ${PIPELINE_HANDOVER_SECONDS})
         from s where (s.pipeline or s.chat_created) and not s.blocked
       on conflict (message_id, kind) do nothing
     )
     select x.ord::int as ord, x.duplicate_id, x.duplicate_chat_id, s.message_id, s.chat_id, s.chat_created,
            (s.pipeline or s.chat_created) and not s.blocked as queued, coalesce(s.blocked, false) as blocked,
            case when s.chat_created then 'waiting' else u.status end as chat_status,
            case when s.chat_created then null else u.operator_id end as operator_id,
            case when s.chat_created then s.team_id else u.team_id end as team_id
       from x
       left join s on s.ord = x.ord
       left join u on u.id = s.chat_id
      order by x.ord`,
    [
      col('orgId'),
      col('channelId'),
      col('externalClientId'),
      col('at'),
      col('text'),
      items.map((i) => JSON.stringify(i.attachments)),
      col('externalMessageId'),
      col('halfExpiredMinutes'),
      col('expiredMinutes'),
      items.map((i) => i.now.toISOString()),
      col('clientName'),
      col('pipeline'),
      col('teamId'),
      col('username'),
      items.map((i) => i.payload ?? null),
    ],
  );
}

/** Chats by id, in one query (the new chats of an ingest batch, read back for their events). */
export const findChats = (q: Queryable, ids: string[]) =>
  q.query<ChatRow>(`${selectChat} where c.id = any($1::uuid[])`, [ids]);

/**
 * What the queue stage must know before it locks anything, for a batch of chats at once: each chat's state, its
 * team's method, and whether the client had an earlier chat (a returning client goes to their last operator first).
 */
export type RoutingView = {
  id: string;
  status: ChatStatus;
  operator_id: string | null;
  distribution_method: string;
  returning: boolean;
};
export const routingViews = (q: Queryable, chats: { orgId: string; chatId: string }[]) =>
  q.query<RoutingView>(
    `select c.id, c.status, c.operator_id, t.distribution_method,
            exists (select 1 from chats e where e.client_id = c.client_id and e.id <> c.id) as returning
       from chats c join teams t on t.id = c.team_id
      where (c.id, c.organisation_id) in (select * from unnest($1::uuid[], $2::uuid[]))`,
    [chats.map((c) => c.chatId), chats.map((c) => c.orgId)],
  );

export async function touchChatOnOperatorMessage(q: Queryable, chatId: string, text: string, now: Date) {
  await q.query(
    `update chats set last_operator_message_at = $2, unanswered_since = null, overdue_level = 'none',
            last_message_text = $3, last_message_at = $2, updated_at = $2
      where id = $1`,
    [chatId, now, text],
  );
}

/** The chat changed in a way its row does not show (history of another module): its updatedAt moves. */
export const touchChat = (q: Queryable, chatId: string, now: Date) =>
  q.query('update chats set updated_at = $2 where id = $1', [chatId, now]);

// ---- messages ----

export type MessageRow = {
  id: string;
  chat_id: string;
  direction: 'in' | 'out';
  kind: MessageKind;
  internal: boolean;
  text: string;
  attachments: Attachment[];
  /** Rows of buttons (a bot's reply); null when none. */
  buttons: ButtonRows | null;
  status: DeliveryStatus | null;
  status_reason: string | null;
  author_id: string | null;
  author_name: string | null;
  external_message_id: string | null;
  edited_at: Date | null;
  created_at: Date;
  /** The chat bot that wrote it (a bot's reply); null otherwise. */
  bot_id: string | null;
  bot_name: string | null;
};

const messageColumns = `m.id, m.chat_id, m.direction, m.kind, m.internal, m.text, m.attachments, m.buttons, m.status,
  m.status_reason,
  m.author_id, (select name from users where id = m.author_id) as author_name, m.external_message_id,
  m.edited_at, m.created_at, m.bot_id, (select name from chat_bots where id = m.bot_id) as bot_name`;

export type MessageInsert = {
  orgId: string;
  chatId: string;
  channelId: string;
  direction: 'in' | 'out';
  kind: MessageKind;
  internal: boolean;
  text: string;
  attachments: Attachment[];
  /** Buttons under the message, already validated (buttonRowsSchema); none when absent or empty. */
  buttons?: ButtonRows | null;
  status: DeliveryStatus | null;
  authorId: string | null;
  externalMessageId: string | null;
  /** The author's idempotency key for this send (web composer); null for automation and inbound messages. */
  clientKey?: string | null;
  /** Sent as a template registered at the provider (WhatsApp outside its session). */
  providerTemplate?: ProviderTemplateRef | null;
  /** The chat bot writing it (its reply is marked in the chat). */
  botId?: string | null;
  now: Date;
};

/** Inserts a message; answers nothing when (channel, external id) is already stored (a provider retry). */
/**
 * Stores one message at `now`, or just after the chat's latest message when that one is stamped later (an inbound
 * message of the same millisecond carries microseconds; another instance's clock may run ahead): a chat's messages
 * list in the order they were stored.
 */
const messageParams = (m: MessageInsert) => [
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
  m.buttons?.length ? JSON.stringify(m.buttons) : null,
  m.clientKey ?? null,
  m.providerTemplate ? JSON.stringify(m.providerTemplate) : null,
  m.botId ?? null,
];

const INSERT_MESSAGE = `insert into messages as m (organisation_id, chat_id, channel_id, direction, kind, internal, text,
                                attachments, status, author_id, external_message_id, created_at, buttons, client_key,
                                provider_template, bot_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
             greatest($12::timestamptz, (select l.created_at + interval '1 microsecond' from messages l
                                          where l.chat_id = $2 order by l.created_at desc, l.id desc limit 1)),
             $13, $14, $15, $16)
     on conflict (channel_id, external_message_id) do nothing
     returning ${messageColumns}`;

export const insertMessage = (q: Queryable, m: MessageInsert) =>
  maybe<MessageRow>(q, INSERT_MESSAGE, messageParams(m));

/**
 * An automated message to send (a bot's reply, an auto-reply, a rule's): the message, its outbox row and the chat's
 * last message in ONE statement (data-modifying CTEs) instead of three — the bot path's writes per reply.
 */
export const insertAutomatedMessage = (q: Queryable, m: MessageInsert) =>
  maybe<MessageRow>(
    q,
    `with m as (${INSERT_MESSAGE}),
          o as (insert into outbox (organisation_id, channel_id, message_id, event, next_attempt_at)
                select $1, $3, m.id, 'message.created', $12 from m),
          c as (update chats set last_message_text = $7, last_message_at = $12, updated_at = $12
                 where id = $2 and exists (select 1 from m))
     select * from m`,
    messageParams(m),
  );

/**
 * One page of a chat's messages, oldest first within the page: without `before` the newest `limit` messages, with
 * `before` (a message id of this chat) the `limit` messages just older than it. Keyset over messages_chat_idx
 * (chat_id, created_at, id), so any page costs the same however long the chat is. `nextCursor` is the id to pass as
 * `before` for the next older page, null when there is none; `before` naming no message of the chat answers null.
 */
export async function listMessages(q: Queryable, chatId: string, limit: number, before: string | null) {
  if (before && !(await maybe(q, 'select 1 from messages where id = $1 and chat_id = $2', [before, chatId])))
    return null;
  const rows = await q.query<MessageRow>(
    `select ${messageColumns} from messages m
      where m.chat_id = $1
        and ($3::uuid is null or (m.created_at, m.id) < (select created_at, id from messages where id = $3))
      order by m.created_at desc, m.id desc limit $2`,
    [chatId, limit + 1, before],
  );
  const more = rows.length > limit;
  const items = rows.slice(0, limit).reverse();
  const { total } = await one<{ total: number }>(
    q,
    'select count(*)::int as total from messages where chat_id = $1',
    [chatId],
  );
  return { items, total, nextCursor: more ? (items[0]?.id ?? null) : null };
}

export const findMessage = (q: Queryable, chatId: string, id: string) =>
  maybe<MessageRow>(q, `select ${messageColumns} from messages m where m.id = $1 and m.chat_id = $2`, [
    id,
    chatId,
  ]);

/** The message this author already sent in this chat with this idempotency key (messages_client_key_idx). */
export const findMessageByClientKey = (q: Queryable, chatId: string, authorId: string, clientKey: string) =>
  maybe<MessageRow>(
    q,
    `select ${messageColumns} from messages m where m.chat_id = $1 and m.author_id = $2 and m.client_key = $3`,
    [chatId, authorId, clientKey],
  );

export const editMessageText = (q: Queryable, id: string, text: string, kind: MessageKind, now: Date) =>
  one<MessageRow>(
    q,
    `update messages m set text = $2, kind = $3, edited_at = $4 where id = $1 returning ${messageColumns}`,
    [id, text, kind, now],
  );

/** Delivery statuses in the order a message moves through them: a status never goes back. */
const STATUS_ORDER = `array['pending', 'undelivered', 'sent', 'delivered', 'read']::text[]`;

/**
 * Moves an outbound message's delivery status forward (pending < undelivered < sent < delivered < read);
 * answers nothing when it is already there or further, or is not an outbound delivered message.
 */
export const advanceMessageStatus = (
  q: Queryable,
  id: string,
  status: DeliveryStatus,
  reason: string | null = null,
) =>
  maybe<MessageRow & { organisation_id: string }>(
    q,
    `update messages m set status = $2, status_reason = $3
      where m.id = $1 and m.direction = 'out' and not m.internal and m.status is not null
        and array_position(${STATUS_ORDER}, m.status) < array_position(${STATUS_ORDER}, $2::text)
      returning ${messageColumns}, m.organisation_id`,
    [id, status, reason],
  );

/**
 * A bounce: the provider accepted the message (Sent) and later reported it undeliverable. Moves a pending or sent
 * message to undelivered with the reason; delivered, read or already undelivered messages stay as they are.
 */
/** An outbound message (not a note) of this channel and organisation. */
export const findOutboundMessage = (q: Queryable, orgId: string, channelId: string, id: string) =>
  maybe<MessageRow>(
    q,
    `select ${messageColumns} from messages m
      where m.id = $1 and m.organisation_id = $2 and m.channel_id = $3 and m.direction = 'out' and not m.internal`,
    [id, orgId, channelId],
  );

/** One of our messages of the channel by the id the provider gave it when sent. */
export const findOutboundByExternalId = (
  q: Queryable,
  orgId: string,
  channelId: string,
  externalId: string,
) =>
  maybe<MessageRow>(
    q,
    `select ${messageColumns} from messages m
      where m.channel_id = $1 and m.external_message_id = $2 and m.organisation_id = $3
        and m.direction = 'out' and not m.internal`,
    [channelId, externalId, orgId],
  );

/** A provider failed a message it had accepted: pending or sent becomes undelivered with the reason. */
export const failSentMessage = (q: Queryable, id: string, reason: string | null) =>
  maybe<MessageRow & { organisation_id: string }>(
    q,
    `update messages m set status = 'undelivered', status_reason = $2
      where m.id = $1 and m.direction = 'out' and not m.internal and m.status in ('pending', 'sent')
      returning ${messageColumns}, m.organisation_id`,
    [id, reason],
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

/**
 * Waiting chats of a team, oldest first, that no other transaction is handling right now (locked; their channel's
 * visible teams are read, not locked).
 */
export const claimWaiting = (q: Queryable, teamId: string, limit: number) =>
  q.query<{ id: string; organisation_id: string; client_id: string; visible_team_ids: string[] }>(
    `select c.id, c.organisation_id, c.client_id,
            (select ch.visible_team_ids from channels ch where ch.id = c.channel_id) as visible_team_ids
       from chats c where c.team_id = $1 and c.status = 'waiting'
        -- A chat talking to a chat bot is not handed out (an operator may still take it over).
        and not exists (select 1 from chat_bot_dialogs d where d.chat_id = c.id and d.ended_at is null)
      order by c.created_at, c.id limit $2 for no key update skip locked`,
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
  score?: number | null;
  /** The category's path of names at this moment (category_set, category_removed). */
  categoryPath?: string[] | null;
  /** A transfer to a chat bot: the bot and its name at this moment. */
  toBotId?: string | null;
  botName?: string | null;
  now: Date;
};

export const insertHistory = (q: Queryable, h: HistoryInsert) =>
  q.query(
    `insert into chat_history (organisation_id, chat_id, kind, actor_id, from_user_id, to_user_id, from_team_id,
                               to_team_id, category_id, category_path, score, to_bot_id, bot_name, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text[], $11, $12, $13, $14)`,
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
      h.categoryPath ?? null,
      h.score ?? null,
      h.toBotId ?? null,
      h.botName ?? null,
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
  score: number | null;
  rule_id: string | null;
  rule_name: string | null;
  to_bot_id: string | null;
  bot_name: string | null;
  category_path: string[] | null;
  created_at: Date;
};

export const listHistory = (q: Queryable, chatId: string) =>
  q.query<HistoryRow>(
    `select id, kind, actor_id, from_user_id, to_user_id, from_team_id, to_team_id, category_id, category_path,
            score, rule_id, rule_name, to_bot_id, bot_name, created_at
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

export const orgOptions = async (q: Queryable, orgId: string) =>
  (await one<{ options: string[] }>(q, 'select options from organisations where id = $1', [orgId])).options;

/** Ids of the chats a user is working on now (In progress), oldest assignment first. */
export const inProgressChatIdsOf = async (q: Queryable, orgId: string, userId: string) =>
  (
    await q.query<{ id: string }>(
      `select id from chats where organisation_id = $1 and operator_id = $2 and status = 'in_progress'
        order by assigned_at, id`,
      [orgId, userId],
    )
  ).map((r) => r.id);

/** Who may see these chats now: their status, operator, team and channel's visible teams (realtime replay policy). */
export const chatScopes = (q: Queryable, orgId: string, chatIds: string[]) =>
  q.query<Pick<ChatRow, 'id' | 'status' | 'operator_id' | 'team_id' | 'visible_team_ids'>>(
    `select c.id, c.status, c.operator_id, c.team_id, ch.visible_team_ids
       from chats c join channels ch on ch.id = c.channel_id
      where c.organisation_id = $1 and c.id = any($2::uuid[])`,
    [orgId, chatIds],
  );

/** A provider template a message was sent as: its name and language at the provider, and the body's values. */
export type ProviderTemplateRef = { name: string; languageCode: string; variables: string[] };

export type OutboundRow = MessageRow & {
  client_external_id: string;
  provider_template: ProviderTemplateRef | null;
};

/** One of our messages as the outbox delivers it: with the chat's contact at the provider. */
export const findOutbound = (q: Queryable, id: string) =>
  maybe<OutboundRow>(
    q,
    `select ${messageColumns}, ct.external_id as client_external_id, m.provider_template
       from messages m join chats c on c.id = m.chat_id join contacts ct on ct.id = c.contact_id
      where m.id = $1 and m.direction = 'out' and not m.internal`,
    [id],
  );

/** The provider's id of a message we sent (its first send; an edit keeps it). */
export const setProviderMessageId = (q: Queryable, id: string, externalId: string) =>
  q.query('update messages set external_message_id = coalesce(external_message_id, $2) where id = $1', [
    id,
    externalId,
  ]);

/** An inbound message of the channel by the provider's id, locked with its chat's organisation. */
export const findInbound = (q: Queryable, channelId: string, externalMessageId: string) =>
  maybe<MessageRow & { organisation_id: string }>(
    q,
    `select ${messageColumns}, m.organisation_id from messages m
      where m.channel_id = $1 and m.external_message_id = $2 and m.direction = 'in'
      for update`,
    [channelId, externalMessageId],
  );

export const markOptedOut = (q: Queryable, channelId: string, externalId: string, now: Date) =>
  q.query('update contacts set opted_out_at = $3 where channel_id = $1 and external_id = $2', [
    channelId,
    externalId,
    now,
  ]);

/**
 * Arms the inactivity close of every open chat of a team whose inactivity time changed: due that many hours after
 * the chat's last message (or its start); 0 removes the timers.
 */
export async function armInactivityTimers(q: Queryable, orgId: string, teamId: string): Promise<void> {
  await q.query(
    `delete from timers t using chats c
      where t.kind = 'inactivity_close' and t.subject_id = c.id and c.organisation_id = $1 and c.team_id = $2`,
    [orgId, teamId],
  );
  await q.query(
    `insert into timers (organisation_id, kind, subject_id, due_at)
     select c.organisation_id, 'inactivity_close', c.id,
            greatest(c.created_at, c.last_message_at) + make_interval(hours => t.inactivity_hours)
       from chats c join teams t on t.id = c.team_id
      where c.organisation_id = $1 and c.team_id = $2 and c.status <> 'closed' and t.inactivity_hours > 0
     on conflict (kind, subject_id) do update set due_at = excluded.due_at, claimed_by = null, lease_until = null`,
    [orgId, teamId],
  );
}
