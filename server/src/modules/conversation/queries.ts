import type {
  ChannelType,
  ChatHistoryKind,
  ChatStatus,
  ChatTopicDto,
  OverdueLevel,
} from '@smartconnect/contracts';
import { maybe, one, type Queryable, statement } from '../../db/index.ts';
import { armTimersFor, deleteTimersFor } from '../../jobs/queries.ts';
import { DUE } from './due-times.ts';

export * from './ingest-queries.ts';
export * from './message-queries.ts';

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
  /** What a marketplace conversation is about (lists that do not read it leave it out). */
  topic?: ChatTopicDto | null;
  created_at: Date;
  updated_at: Date;
};

/** Marketplace conversations' subjects, as their messages name them (a chat keeps the latest). */
export const setChatTopics = (q: Queryable, items: { chatId: string; topic: ChatTopicDto }[]) =>
  q.query(
    `update chats c set topic = t.topic
       from unnest($1::uuid[], $2::jsonb[]) as t(id, topic)
      where c.id = t.id and c.topic is distinct from t.topic`,
    [items.map((i) => i.chatId), items.map((i) => JSON.stringify(i.topic))],
  );

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
         c.last_message_text, c.last_message_at, c.topic, c.created_at, c.updated_at
    from chats c
    join channels ch on ch.id = c.channel_id
    join teams t on t.id = c.team_id
    join clients cl on cl.id = c.client_id
    join contacts ct on ct.id = c.contact_id
    left join users u on u.id = c.operator_id
    left join request_categories rc on rc.id = c.category_id
    left join request_categories rcp on rcp.id = rc.parent_id
    left join request_categories rcg on rcg.id = rcp.parent_id`;

// The chat reads every command and the ingest make: prepared (db statement()), their eight joins planned once.
const FIND_CHAT = statement('find_chat', `${selectChat} where c.id = $1 and c.organisation_id = $2`);
const LOCK_CHAT = statement(
  'lock_chat',
  `${selectChat} where c.id = $1 and c.organisation_id = $2 for no key update of c`,
);
const FIND_CHATS = statement('find_chats', `${selectChat} where c.id = any($1::uuid[])`);

export const findChat = (q: Queryable, orgId: string, id: string) =>
  maybe<ChatRow>(q, FIND_CHAT, [id, orgId]);

/** Locks the chat row for the rest of the transaction (operations on one chat serialise). */
export const lockChat = (q: Queryable, orgId: string, id: string): Promise<ChatRow | undefined> =>
  // One statement: the chat's row locked (only it: `of c`) and read with its joins (the lock waits, then the row is
  // read as committed).
  maybe<ChatRow>(q, LOCK_CHAT, [id, orgId]);

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
/** Chats by id, in one query (the new chats of an ingest batch, read back for their events). */
export const findChats = (q: Queryable, ids: string[]) => q.query<ChatRow>(FIND_CHATS, [ids]);

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
const ROUTING_VIEWS = statement(
  'routing_views',
  `select c.id, c.status, c.operator_id, t.distribution_method,
          exists (select 1 from chats e where e.client_id = c.client_id and e.id <> c.id) as returning
     from chats c join teams t on t.id = c.team_id
    where (c.id, c.organisation_id) in (select * from unnest($1::uuid[], $2::uuid[]))`,
);
export const routingViews = (q: Queryable, chats: { orgId: string; chatId: string }[]) =>
  q.query<RoutingView>(ROUTING_VIEWS, [chats.map((c) => c.chatId), chats.map((c) => c.orgId)]);

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

/**
 * Arms the inactivity close of every open chat of a team whose inactivity time changed: due that many hours after
 * the chat's last message (or its start); 0 removes the timers.
 */
export async function armInactivityTimers(q: Queryable, orgId: string, teamId: string): Promise<void> {
  await deleteTimersFor(
    q,
    'inactivity_close',
    'select c.id from chats c where c.organisation_id = $1 and c.team_id = $2',
    [orgId, teamId],
  );
  await armTimersFor(
    q,
    'inactivity_close',
    `select c.organisation_id, c.id as subject_id,
            ${DUE.inactivityClose.sql('greatest(c.created_at, c.last_message_at)', 't.inactivity_hours')} as due_at
       from chats c join teams t on t.id = c.team_id
      where c.organisation_id = $1 and c.team_id = $2 and c.status <> 'closed' and t.inactivity_hours > 0`,
    [orgId, teamId],
  );
}

/** The history entry naming the rule that routed the chat (kind 'rule'). */
export const insertRuleHistory = (
  q: Queryable,
  h: { orgId: string; chatId: string; ruleId: string; ruleName: string; toTeamId: string | null; now: Date },
) =>
  q.query(
    `insert into chat_history (organisation_id, chat_id, kind, rule_id, rule_name, to_team_id, created_at)
     values ($1, $2, 'rule', $3, $4, $5, $6)`,
    [h.orgId, h.chatId, h.ruleId, h.ruleName, h.toTeamId, h.now],
  );

/** A rule closed the chat: the close entry written in this transaction names the rule (kept after its deletion). */
export const nameRuleOnClose = (
  q: Queryable,
  h: { chatId: string; ruleId: string; ruleName: string; now: Date },
) =>
  q.query(
    `update chat_history set rule_id = $2, rule_name = $3
      where chat_id = $1 and kind = 'close' and created_at = $4 and rule_id is null`,
    [h.chatId, h.ruleId, h.ruleName, h.now],
  );

/** A client merge: the sources' chats (with their messages) become the target's. */
export const moveClientChats = (q: Queryable, targetId: string, sourceIds: string[]) =>
  q.query('update chats set client_id = $1 where client_id = any($2::uuid[])', [targetId, sourceIds]);
