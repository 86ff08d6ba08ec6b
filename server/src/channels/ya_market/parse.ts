import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import { parseLossless } from '../marketplace.ts';
import type { ChatTopic, InboundMessage, MediaRef, ParsedEvent } from '../types.ts';
import { ID_MAX, read, storable, unreadable, unreadableMessage } from '../unreadable.ts';

/**
 * Yandex Market's chats in our words (docs/providers/yandex-market.md §2 chats, §3 history messages, §6.2
 * notifications), shared by the poll, the push endpoint and its reads. Fields we use are checked; others are let
 * through (Market adds fields and enum values over time, §7 best practices).
 */

/** An int64 id (chatId, messageId, orderId): a number or a string of digits, kept as a string (§6.2). */
const int64 = z
  .union([
    z
      .string()
      .trim()
      .regex(/^\d{1,20}$/),
    z.number().int().nonnegative(),
  ])
  .transform(String);

export const chatContext = z.looseObject({
  type: z.string().optional(),
  customer: z
    .looseObject({ name: z.string().max(ID_MAX).nullish(), publicId: z.string().nullish() })
    .nullish(),
  campaignId: int64.nullish(),
  orderId: int64.nullish(),
  returnId: int64.nullish(),
});
export type ChatContext = z.infer<typeof chatContext>;

/** One chat of the list or `GET …/chat` (GetChatInfoDTO, §2.1). */
export const chatInfo = z.looseObject({
  chatId: int64,
  context: chatContext.nullish(),
  type: z.string().optional(),
  status: z.string().optional(),
  updatedAt: z.string().optional(),
});
export type ChatInfo = z.infer<typeof chatInfo>;

/** One history message (ChatMessageDTO, §3.1). */
export const chatMessage = z.looseObject({
  messageId: int64,
  createdAt: z.string().optional(),
  sender: z.string(),
  message: z.string().nullish(),
  payload: z
    .array(
      z.looseObject({
        name: z.string().nullish(),
        url: z.string().max(2_000),
        size: z.number().int().nonnegative().nullish(),
      }),
    )
    .nullish(),
});

/** The stand-in name of a buyer whose name Market does not tell. */
export const BUYER = 'Yandex Market buyer';

/** Our id of a Market message: its chat and its id (message ids are per chat as far as documented). */
export const messageIdOf = (chatId: string, messageId: string) => `${chatId}:${messageId}`;

/**
 * The chat's client: the buyer's public Passport name (`context.customer.name`, §2.1) where Market gives it. The
 * client is the chat itself (externalId = `chatId`): replies are sent by chat (§4), and one buyer's chats about
 * different orders stay apart (DECISIONS.md "Marketplaces").
 */
export const clientOf = (
  chatId: string,
  context: ChatContext | null | undefined,
): InboundMessage['client'] => ({
  externalId: chatId,
  name: context?.customer?.name?.trim() || BUYER,
});

/**
 * What the chat is about (§2.4): the order of an ORDER or RETURN chat (a return titled with its number); a DIRECT
 * chat (a buyer's question about a product) names nothing. Market documents no seller-cabinet link to an order
 * (open question 7): none is given.
 */
export function topicOf(context: ChatContext | null | undefined): ChatTopic | undefined {
  const orderId = context?.orderId;
  if (!orderId || (context.type !== 'ORDER' && context.type !== 'RETURN')) return undefined;
  const title = context.type === 'RETURN' && context.returnId ? `Return ${context.returnId}` : '';
  return { kind: 'order', id: orderId, title, url: null };
}

/** A message's text and files (`message` and `payload`, either may be absent, §3.1). */
export function contentOf(m: z.infer<typeof chatMessage>): { text: string; media: MediaRef[] } {
  const media: MediaRef[] = (m.payload ?? []).map((p) => ({
    ref: p.url,
    ...(p.name?.trim() ? { name: p.name.trim() } : {}),
    ...(typeof p.size === 'number' ? { size: p.size } : {}),
  }));
  const text = (m.message ?? '').trim() || (media.length ? '' : '[Yandex Market: empty message]');
  return { text, media };
}

/**
 * One history message (§3.1) of the chat as an event: a buyer's (`CUSTOMER`) message; ours (`PARTNER`, from this
 * API or the Market cabinet), Market's automatic messages and support's are left (ignored), as Ozon's are.
 */
export function historyEvent(
  chatId: string,
  context: ChatContext | null | undefined,
  raw: unknown,
): ParsedEvent {
  const got = read(chatMessage, storable(raw));
  if (!got.ok) {
    const id = (raw as { messageId?: unknown } | null)?.messageId;
    if ((typeof id === 'string' && /^\d{1,20}$/.test(id)) || (typeof id === 'number' && id >= 0))
      return unreadableMessage(
        'Yandex Market',
        got.reason,
        messageIdOf(chatId, String(id)),
        clientOf(chatId, context),
      );
    return unreadable('Yandex Market', got.reason);
  }
  const m = got.data;
  const sender = m.sender.toUpperCase();
  if (sender !== 'CUSTOMER') return { kind: 'ignored', what: `ya_market message from ${sender}` };
  const { text, media } = contentOf(m);
  const topic = topicOf(context);
  return {
    kind: 'message',
    message: {
      externalMessageId: messageIdOf(chatId, m.messageId),
      client: clientOf(chatId, context),
      text,
      attachments: [],
      ...(media.length ? { media } : {}),
      ...(topic ? { topic } : {}),
    },
  };
}

/**
 * The text of a pushed message before its content is read (CHAT_MESSAGE_SENT carries none, §6.2): the adapter's
 * enrich step (chat.ts) reads it from Market, and drops the event when it cannot, so this text is never stored.
 */
export const PENDING_TEXT = '\u0000ya_market: not read yet';

/** Chat notification types (§6.2): all fields shown in the brief are required. */
const NOTIFICATIONS = {
  CHAT_CREATED: z.looseObject({ businessId: int64, chatId: int64, createdAt: z.string() }),
  CHAT_MESSAGE_SENT: z.looseObject({
    businessId: int64,
    chatId: int64,
    messageId: z
      .string()
      .trim()
      .regex(/^\d{1,20}$/),
    sentAt: z.string(),
  }),
  CHAT_ARBITRAGE_STARTED: z.looseObject({ businessId: int64, chatId: int64, startedAt: z.string() }),
  CHAT_ARBITRAGE_FINISHED: z.looseObject({ businessId: int64, chatId: int64, finishedAt: z.string() }),
  PING: z.looseObject({ time: z.string() }),
} as const;

/** The other types Market sends to the same address (§6.2): acknowledged, nothing to do. */
const OTHER_TYPES = new Set([
  'ORDER_CREATED',
  'ORDER_CANCELLED',
  'ORDER_STATUS_UPDATED',
  'ORDER_RETURN_CREATED',
  'ORDER_CANCELLATION_REQUEST',
  'ORDER_RETURN_STATUS_UPDATED',
  'ORDER_UPDATED',
  'ORDER_LINE_SERVICE_STATUS_UPDATED',
  'GOODS_FEEDBACK_CREATED',
  'GOODS_FEEDBACK_COMMENT_CREATED',
  'QUESTION_CREATED',
  'QUESTION_ANSWER_CREATED',
  'QUESTION_COMMENT_CREATED',
]);

/**
 * Market reads our 400 as its own mistake and does not send the notification again (§6.3, §6.4): a notification we
 * cannot read is refused with it, before anything of it is stored.
 */
const refused = (reason: string) =>
  new AppError('validationException', { _: M.incorrectValue }, { reason: `Yandex Market: ${reason}` });

/**
 * A notification (§6.2) to the channel of cabinet `businessId`: a new message is a message event whose content the
 * enrich step reads (PENDING_TEXT); the check request (PING), new chats, disputes, other and unknown types are
 * acknowledged and ignored (a new chat's first message comes with its own notification, and the poll reads it too).
 * A body that is not an object with a `notificationType`, or a chat notification without its fields, is refused
 * (400). The body is read from its raw bytes: `chatId` is an int64 that JSON.parse would round.
 */
export function parseYaMarketPush(rawBody: Buffer, businessId: string): ParsedEvent[] {
  let body: unknown;
  try {
    body = storable(parseLossless(rawBody.toString('utf8')));
  } catch {
    throw refused('not JSON');
  }
  const type = (body as { notificationType?: unknown } | null)?.notificationType;
  if (!body || typeof body !== 'object' || Array.isArray(body) || typeof type !== 'string' || !type.trim())
    throw refused('no notificationType');
  if (!(type in NOTIFICATIONS))
    return [
      { kind: 'ignored', what: OTHER_TYPES.has(type) ? `ya_market ${type}` : `ya_market unknown ${type}` },
    ];
  const schema: z.ZodType<unknown> = NOTIFICATIONS[type as keyof typeof NOTIFICATIONS];
  const checked = read(schema, body);
  if (!checked.ok) throw refused(`${type} ${checked.reason}`);
  if (type !== 'CHAT_MESSAGE_SENT') return [{ kind: 'ignored', what: `ya_market ${type}` }];
  const n = NOTIFICATIONS.CHAT_MESSAGE_SENT.parse(body);
  // Another cabinet's notification at this channel's address: a set-up mistake, not this seller's chat.
  if (n.businessId !== businessId)
    return [{ kind: 'ignored', what: 'ya_market notification of another business' }];
  return [
    {
      kind: 'message',
      message: {
        externalMessageId: messageIdOf(n.chatId, n.messageId),
        client: { externalId: n.chatId, name: BUYER },
        text: PENDING_TEXT,
        attachments: [],
      },
    },
  ];
}
