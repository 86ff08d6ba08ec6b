import type { Attachment, ButtonRows, DeliveryStatus, MessageKind } from '@smartconnect/contracts';
import { maybe, one, type Queryable } from '../../db/index.ts';
import { outboxRowCte } from '../../jobs/queries.ts';

/*
 * Messages: reading, writing and delivery states (queries.ts re-exports them; chats/queries.ts pages them).
 */

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

export const messageColumns = `m.id, m.chat_id, m.direction, m.kind, m.internal, m.text, m.attachments, m.buttons, m.status,
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
          o as (${outboxRowCte('m', { orgId: '$1', channelId: '$3', at: '$12' })}),
          c as (update chats set last_message_text = $7, last_message_at = $12, updated_at = $12
                 where id = $2 and exists (select 1 from m))
     select * from m`,
    messageParams(m),
  );

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
 * Many messages the providers accepted (a mailing's chunk): their ids kept where the provider gave one, and each moved
 * to Sent where it is still behind it (advanceMessageStatus's rule), in two statements. Answers the moved rows.
 */
export async function markManySent(q: Queryable, items: { id: string; externalId: string | null }[]) {
  const withIds = items.filter((i) => i.externalId !== null);
  if (withIds.length)
    await q.query(
      `update messages m set external_message_id = coalesce(m.external_message_id, i.ext)
         from unnest($1::uuid[], $2::text[]) as i(id, ext) where m.id = i.id`,
      [withIds.map((i) => i.id), withIds.map((i) => i.externalId)],
    );
  return q.query<MessageRow & { organisation_id: string }>(
    `update messages m set status = 'sent', status_reason = null
      where m.id = any($1::uuid[]) and m.direction = 'out' and not m.internal and m.status is not null
        and array_position(${STATUS_ORDER}, m.status) < array_position(${STATUS_ORDER}, 'sent')
      returning ${messageColumns}, m.organisation_id`,
    [items.map((i) => i.id)],
  );
}

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

/**
 * A watermark's message (Messenger): the newest of our messages to this client through this channel, already with
 * the provider, sent at or before `at` (its creation stands in for the send: the outbox sends within moments;
 * compared to the millisecond, the provider's precision).
 */
export const latestOutboundBefore = (
  q: Queryable,
  orgId: string,
  channelId: string,
  clientExternalId: string,
  at: Date,
) =>
  maybe<MessageRow>(
    q,
    `select ${messageColumns} from contacts k
       join chats c on c.client_id = k.client_id and c.contact_id = k.id and c.channel_id = k.channel_id
       join messages m on m.chat_id = c.id
      where k.channel_id = $1 and k.external_id = $2 and k.organisation_id = $3
        and m.direction = 'out' and not m.internal and m.status in ('sent', 'delivered', 'read')
        and m.created_at < $4::timestamptz + interval '1 millisecond'
      order by m.created_at desc, m.id desc
      limit 1`,
    [channelId, clientExternalId, orgId, at],
  );

/**
 * Our messages in the same chat before this one that a report "up to" it moves forward: with the provider already
 * (sent, or delivered for a read), newest first, at most `limit`.
 */
export const earlierOutbound = (
  q: Queryable,
  m: { id: string; chat_id: string; created_at: Date },
  status: 'delivered' | 'read',
  limit: number,
) =>
  q.query<{ id: string }>(
    `select m.id from messages m
      where m.chat_id = $1 and m.created_at <= $2 and m.id <> $3
        and m.direction = 'out' and not m.internal and m.status = any($4::text[])
      order by m.created_at desc, m.id desc
      limit $5`,
    [m.chat_id, m.created_at, m.id, status === 'read' ? ['sent', 'delivered'] : ['sent'], limit],
  );

/** The text of our button carrying `payload`, in the newest of our messages with buttons to this client. */
export const buttonLabel = (
  q: Queryable,
  orgId: string,
  channelId: string,
  clientExternalId: string,
  payload: string,
) =>
  maybe<{ label: string }>(
    q,
    `select b->>'text' as label from contacts k
       join chats c on c.client_id = k.client_id and c.contact_id = k.id and c.channel_id = k.channel_id
       join messages m on m.chat_id = c.id
       cross join lateral jsonb_array_elements(m.buttons) r
       cross join lateral jsonb_array_elements(r) b
      where k.channel_id = $1 and k.external_id = $2 and k.organisation_id = $3
        and m.direction = 'out' and m.buttons is not null and jsonb_typeof(m.buttons) = 'array'
        and jsonb_typeof(r) = 'array' and b->>'payload' = $4 and coalesce(b->>'text', '') <> ''
      order by m.created_at desc, m.id desc
      limit 1`,
    [channelId, clientExternalId, orgId, payload],
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

/** findOutbound for many messages in one statement (those gone are left out). */
export const findOutboundMany = (q: Queryable, ids: string[]) =>
  q.query<OutboundRow>(
    `select ${messageColumns}, ct.external_id as client_external_id, m.provider_template
       from messages m join chats c on c.id = m.chat_id join contacts ct on ct.id = c.contact_id
      where m.id = any($1::uuid[]) and m.direction = 'out' and not m.internal`,
    [ids],
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
