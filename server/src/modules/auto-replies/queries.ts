import { maybe, type Queryable, statement } from '../../db/index.ts';

/** A channel's stored auto-replies (no row: all off). */
export type AutoRepliesRow = {
  channel_id: string;
  online_enabled: boolean;
  online_text: string;
  offline_enabled: boolean;
  offline_text: string;
  rating_enabled: boolean;
  rating_text: string;
  holding_enabled: boolean;
  holding_text: string;
  holding_wait_minutes: 1 | 2 | 5;
};

const COLUMNS = `channel_id, online_enabled, online_text, offline_enabled, offline_text, rating_enabled, rating_text,
  holding_enabled, holding_text, holding_wait_minutes`;

/** Whether the channel is a live channel of the organisation. */
export const channelInOrg = async (q: Queryable, orgId: string, channelId: string) =>
  !!(await maybe(q, 'select 1 from channels where id = $1 and organisation_id = $2 and deleted_at is null', [
    channelId,
    orgId,
  ]));

export const findAutoReplies = (q: Queryable, orgId: string, channelId: string) =>
  maybe<AutoRepliesRow>(
    q,
    `select ${COLUMNS} from channel_auto_replies where channel_id = $1 and organisation_id = $2`,
    [channelId, orgId],
  );

export type AutoRepliesWrite = {
  orgId: string;
  channelId: string;
  online: { enabled: boolean; text: string };
  offline: { enabled: boolean; text: string };
  rating: { enabled: boolean; text: string };
  holding: { enabled: boolean; text: string; waitMinutes: number };
  now: Date;
};

export const upsertAutoReplies = (q: Queryable, w: AutoRepliesWrite) =>
  maybe<AutoRepliesRow>(
    q,
    `insert into channel_auto_replies (channel_id, organisation_id, online_enabled, online_text, offline_enabled,
       offline_text, rating_enabled, rating_text, holding_enabled, holding_text, holding_wait_minutes, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     on conflict (channel_id) do update set online_enabled = $3, online_text = $4, offline_enabled = $5,
       offline_text = $6, rating_enabled = $7, rating_text = $8, holding_enabled = $9, holding_text = $10,
       holding_wait_minutes = $11, updated_at = $12
     returning ${COLUMNS}`,
    [
      w.channelId,
      w.orgId,
      w.online.enabled,
      w.online.text,
      w.offline.enabled,
      w.offline.text,
      w.rating.enabled,
      w.rating.text,
      w.holding.enabled,
      w.holding.text,
      w.holding.waitMinutes,
      w.now,
    ],
  );

/** Whether any live channel of the organisation has a reply on that must see client messages (online, offline, holding). */
export const anyMessageReplyOn = async (q: Queryable, orgId: string) =>
  !!(await maybe(
    q,
    `select 1 from channel_auto_replies a join channels c on c.id = a.channel_id and c.deleted_at is null
      where a.organisation_id = $1 and (a.online_enabled or a.offline_enabled or a.holding_enabled) limit 1`,
    [orgId],
  ));

/** The channel's rating request text when that reply is on and the plan has OPTION_AUTO_REPLY. */
export const ratingText = async (q: Queryable, orgId: string, channelId: string) =>
  (
    await maybe<{ rating_text: string }>(
      q,
      `select a.rating_text from channel_auto_replies a join organisations o on o.id = a.organisation_id
        where a.channel_id = $1 and a.organisation_id = $2 and a.rating_enabled and a.rating_text <> ''
          and 'OPTION_AUTO_REPLY' = any(o.options)`,
      [channelId, orgId],
    )
  )?.rating_text ?? null;

/**
 * A chat as the auto-replies see it: whether anything may be sent to its client at all, its channel's replies, and
 * its waiting period: `waiting` while the client's messages are unanswered (chats.unanswered_since), `period` naming
 * the stretch after the operator's latest answer (that message's id; the chat's id before any answer), and which
 * period each reply was last given for.
 */
export type ReplyContext = {
  chat_id: string;
  /** Open, on a live active channel, a client who did not block us, OPTION_AUTO_REPLY in the plan. */
  sendable: boolean;
  team_id: string;
  waiting: boolean;
  period: string;
  /** No operator has answered in this chat session yet. */
  unanswered_session: boolean;
  online_enabled: boolean;
  online_text: string;
  offline_enabled: boolean;
  offline_text: string;
  holding_enabled: boolean;
  holding_text: string;
  /** When this period's holding phrase is due: the first unanswered client message + the wait. */
  holding_due: Date | null;
  presence_period: string | null;
  holding_period: string | null;
  holding_sent_period: string | null;
};

/** The context statement, its chats read from the table or the set of chat rows named `chats`. */
const context = (
  chats: string,
) => `select c.id as chat_id, c.status <> 'closed' and ch.status = 'active' and ch.deleted_at is null and ct.opted_out_at is null
              and 'OPTION_AUTO_REPLY' = any(o.options) as sendable,
            c.team_id, c.unanswered_since is not null as waiting,
            coalesce(ans.id, c.id) as period, ans.id is null as unanswered_session,
            a.online_enabled, a.online_text, a.offline_enabled, a.offline_text, a.holding_enabled, a.holding_text,
            c.unanswered_since + make_interval(mins => a.holding_wait_minutes) as holding_due,
            s.presence_period, s.holding_period, s.holding_sent_period
       from ${chats} c
       join channels ch on ch.id = c.channel_id
       join contacts ct on ct.id = c.contact_id
       join organisations o on o.id = c.organisation_id
       join channel_auto_replies a on a.channel_id = c.channel_id
       left join chat_auto_replies s on s.chat_id = c.id
       left join lateral (
         -- The operator's latest answer in this session (a user's message to the client, not a note). Such a message
         -- is only written by sendMessage for a user, which stamps chats.last_operator_message_at: while that is null
         -- there is none, and a chat nobody has answered is not read message by message.
         select m.id from messages m
          where c.last_operator_message_at is not null and m.chat_id = c.id and m.direction = 'out' and not m.internal and m.author_id is not null
          order by m.created_at desc, m.id desc limit 1
       ) ans on true`;

export const replyContext = (q: Queryable, orgId: string, chatId: string) =>
  maybe<ReplyContext>(q, `${context('chats')} where c.id = $1 and c.organisation_id = $2`, [chatId, orgId]);

/**
 * The contexts of several chats in one statement (a pipeline run's chats); a chat without replies is left out. The
 * chats are read by id first (a materialised step): left to join them by the (id, organisation) pairs, the planner,
 * its estimate of an organisation's chats stale while chats open by the thousand, walked all of the organisation's.
 */
export const replyContexts = (q: Queryable, chats: { orgId: string; chatId: string }[]) =>
  q.query<ReplyContext>(REPLY_CONTEXTS, [chats.map((c) => c.chatId), chats.map((c) => c.orgId)]);
const REPLY_CONTEXTS = statement(
  'reply_contexts',
  `with r as materialized (select * from chats where id = any($1::uuid[]))
   ${context('r')} where (c.id, c.organisation_id) in (select * from unnest($1::uuid[], $2::uuid[]))`,
);

/**
 * Whether an operator of the team is in work: an active member 'In work' (presence online) who receives chats
 * (AUTHORITY_CHAT_DISTRIBUTION), as routing counts them.
 */
export const teamInWork = async (q: Queryable, teamId: string) =>
  !!(await maybe(
    q,
    `select 1 from team_members m join users u on u.id = m.user_id join roles r on r.id = u.role_id
      where m.team_id = $1 and u.active and u.presence = 'online' and 'AUTHORITY_CHAT_DISTRIBUTION' = any(r.rights)
      limit 1`,
    [teamId],
  ));

/** Records that the chat's waiting period `period` was given the reply `column` stands for. */
export const markPeriod = (
  q: Queryable,
  orgId: string,
  chatId: string,
  column: 'presence_period' | 'holding_period' | 'holding_sent_period',
  period: string,
) =>
  q.query(
    `insert into chat_auto_replies (chat_id, organisation_id, ${column}) values ($1, $2, $3)
     on conflict (chat_id) do update set ${column} = excluded.${column}`,
    [chatId, orgId, period],
  );
