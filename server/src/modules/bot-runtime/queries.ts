import type { BotDialogState, BotGraph } from '@smartconnect/contracts';
import { type Queryable, statement } from '../../db/index.ts';

export type DialogRow = {
  id: string;
  organisation_id: string;
  chat_id: string;
  bot_id: string;
  version: number;
  state: BotDialogState;
  last_message_id: string | null;
};

/** An open dialog with its chat's state and the run's message it answers (one read per run, not per job). */
export type RunDialogRow = DialogRow & { chat: ChatState };

/**
 * The open bot dialogs of these chats (one per chat at most), each with its chat's state, in ONE statement: the
 * pipeline's bot stage reads them once per run.
 */
export const openDialogs = (q: Queryable, chatIds: string[]) =>
  q.query<RunDialogRow>(OPEN_DIALOGS, [chatIds]);
const OPEN_DIALOGS = statement(
  'open_dialogs',
  `select d.id, d.organisation_id, d.chat_id, d.bot_id, d.version, d.state, d.last_message_id,
          json_build_object('status', c.status, 'operator_id', c.operator_id, 'channel_type', ch.type,
                            'team_id', c.team_id) as chat
     from chat_bot_dialogs d
     join chats c on c.id = d.chat_id
     join channels ch on ch.id = c.channel_id
    where d.chat_id = any($1::uuid[]) and d.ended_at is null`,
);

export type VersionRow = { bot_id: string; version: number; graph: BotGraph; default_message: string };

/** Whether the organisation has this bot (not deleted), published or not. */
export const botExists = async (q: Queryable, orgId: string, botId: string) =>
  (
    await q.query('select 1 from chat_bots where id = $1 and organisation_id = $2 and deleted_at is null', [
      botId,
      orgId,
    ])
  ).length > 0;

/** A bot's published version (its graph frozen at publishing), when the bot exists, is not deleted and was published. */
export const publishedVersion = async (q: Queryable, orgId: string, botId: string) =>
  (
    await q.query<VersionRow & { name: string }>(
      `select v.bot_id, v.version, v.graph, v.default_message, b.name from chat_bots b
         join chat_bot_versions v on v.bot_id = b.id and v.version = b.published_version
        where b.id = $1 and b.organisation_id = $2 and b.deleted_at is null`,
      [botId, orgId],
    )
  )[0];

/** One version (immutable once published). */
export const versionOf = async (q: Queryable, botId: string, version: number) =>
  (
    await q.query<VersionRow>(
      'select bot_id, version, graph, default_message from chat_bot_versions where bot_id = $1 and version = $2',
      [botId, version],
    )
  )[0];

/** Opens the chat's dialog; answers nothing when the chat already has an open one. */
export const insertDialog = async (
  q: Queryable,
  d: { orgId: string; chatId: string; botId: string; version: number; now: Date },
) =>
  (
    await q.query<{ id: string }>(
      `insert into chat_bot_dialogs (organisation_id, chat_id, bot_id, version, state, started_at)
       values ($1, $2, $3, $4, '{"nodeId":null,"ended":false,"intent":null}', $5)
       on conflict (chat_id) where ended_at is null do nothing
       returning id`,
      [d.orgId, d.chatId, d.botId, d.version, d.now],
    )
  )[0];

export const saveDialog = (
  q: Queryable,
  d: { id: string; state: BotDialogState; messageId: string | null; now: Date; endReason: string | null },
) =>
  q.query(
    `update chat_bot_dialogs set state = $2, node_id = $3, intent = $4, last_message_id = coalesce($5, last_message_id),
            ended_at = case when $6::text is null then null else $7::timestamptz end, end_reason = $6
      where id = $1`,
    [d.id, JSON.stringify(d.state), d.state.nodeId, d.state.intent, d.messageId, d.endReason, d.now],
  );

/** The organisation's bots with a published version, by name (the transfer dialog's list). */
export const publishedBots = (q: Queryable, orgId: string) =>
  q.query<{ id: string; name: string }>(
    `select id, name from chat_bots
      where organisation_id = $1 and deleted_at is null and published_version is not null
      order by lower(name), id`,
    [orgId],
  );

/** Ends the chat's open dialog (an operator took the chat over, or it closed). */
export const endDialogOf = (q: Queryable, orgId: string, chatId: string, reason: string, now: Date) =>
  q.query(
    `update chat_bot_dialogs set ended_at = $4, end_reason = $3, node_id = null
      where chat_id = $2 and organisation_id = $1 and ended_at is null`,
    [orgId, chatId, reason, now],
  );

/** The intent the chat's latest bot dialog recognised (the chat's intent for routing rules), or null. */
export const chatIntent = async (q: Queryable, chatId: string) =>
  (
    await q.query<{ intent: string | null }>(
      'select intent from chat_bot_dialogs where chat_id = $1 order by started_at desc limit 1',
      [chatId],
    )
  )[0]?.intent ?? null;

export type InboundRow = { id: string; text: string; payload: string | null };
/** These client messages' text and pressed button (one statement for a run's messages). */
export const inbound = (q: Queryable, messageIds: string[]) =>
  q.query<InboundRow>('select id, text, payload from messages where id = any($1::uuid[])', [messageIds]);

export type ChatState = {
  status: string;
  operator_id: string | null;
  channel_type: string;
  team_id: string;
};
export const chatState = async (q: Queryable, orgId: string, chatId: string) =>
  (
    await q.query<ChatState>(
      `select c.status, c.operator_id, ch.type as channel_type, c.team_id from chats c
         join channels ch on ch.id = c.channel_id
        where c.id = $1 and c.organisation_id = $2`,
      [chatId, orgId],
    )
  )[0];

export const fileOf = async (q: Queryable, orgId: string, key: string) =>
  (
    await q.query<{ key: string; content_type: string; size: number }>(
      'select key, content_type, size from files where key = $1 and organisation_id = $2',
      [key, orgId],
    )
  )[0];

export const insertLink = async (
  q: Queryable,
  l: {
    orgId: string;
    botId: string;
    chatId: string;
    nodeId: string;
    buttonId: string;
    url: string;
    now: Date;
  },
) =>
  (
    await q.query<{ id: string }>(
      `insert into chat_bot_links (organisation_id, bot_id, chat_id, node_id, button_id, url, created_at)
       values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [l.orgId, l.botId, l.chatId, l.nodeId, l.buttonId, l.url, l.now],
    )
  )[0].id;

/** Records a click on a tracked link and answers where it goes; nothing for an unknown link. */
export const clickLink = async (q: Queryable, id: string, now: Date) =>
  (
    await q.query<{ url: string }>(
      `update chat_bot_links set clicks = clicks + 1, first_clicked_at = coalesce(first_clicked_at, $2),
              last_clicked_at = $2
        where id = $1 returning url`,
      [id, now],
    )
  )[0]?.url;

/** Whether the organisation's plan includes chat bots (OPTION_CHAT_BOT). */
export const chatBotsAllowed = async (q: Queryable, orgId: string) =>
  (
    await q.query<{ ok: boolean }>(
      `select 'OPTION_CHAT_BOT' = any(options) as ok from organisations where id = $1`,
      [orgId],
    )
  )[0]?.ok ?? false;
