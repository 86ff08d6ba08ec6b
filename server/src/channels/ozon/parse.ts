import { z } from 'zod';
import { idOrder, isAfter } from '../marketplace.ts';
import type { ChatTopic, InboundMessage, MediaRef, ParsedEvent } from '../types.ts';
import { ID_MAX, read, storable, unreadable, unreadableMessage } from '../unreadable.ts';

/**
 * Ozon's chat messages in our words (docs/providers/ozon.md §3 history items, §6.2 push payloads), shared by the
 * poll and the push endpoint. Fields we use are checked; others are let through (Ozon adds fields over time).
 */

/** An Ozon id: documented as int64, written as a string in every example (§3): either is read, kept as a string. */
const anyId = z
  .union([z.string().trim().min(1).max(ID_MAX), z.number().int().nonnegative()])
  .transform(String);
const user = z.looseObject({ id: anyId.optional(), type: z.string() });

export const historyItem = z.looseObject({
  message_id: anyId,
  user,
  created_at: z.string().optional(),
  is_image: z.boolean().optional(),
  data: z.array(z.string()).optional(),
  context: z.looseObject({ order_number: z.string().optional(), sku: anyId.optional() }).nullish(),
});
export type HistoryItem = z.infer<typeof historyItem>;

/**
 * Who wrote a message, lower-case: `customer`, `seller`, `crm`, `courier`, `support`, `notificationuser`. Ozon's
 * examples spell `Сustomer` with a Cyrillic С (§3): it is read as the Latin one.
 */
export const senderOf = (type: string) =>
  type
    .trim()
    .toLowerCase()
    .replace(/\u0441/g, 'c');

/** The buyer conversations among Ozon's chat types (§2.1); the casing differs by place, so it is compared lower-case. */
export const isBuyerChat = (chatType: unknown) =>
  typeof chatType === 'string' && ['buyer_seller', 'buyer_seller_select'].includes(chatType.toLowerCase());

// Ids compare as 64-bit numbers (marketplace.ts).
export { idOrder, isAfter };

const LINK = /!?\[([^\]]*)\]\((https?:\/\/[^\s)]+)\)/g;
const BARE_URL = /^https?:\/\/\S+$/;

const fileNameOf = (url: string, label: string, image: boolean) => {
  if (label.trim() && /\.[a-z0-9]{2,5}$/i.test(label.trim())) return label.trim();
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    if (/\.[a-z0-9]{2,5}$/i.test(last)) return last;
  } catch {
    // an unparsable URL keeps the stand-in name
  }
  return image ? 'image.jpg' : undefined;
};

/**
 * A message's `data` (Markdown strings, §3) as text and files. How a file looks inside the Markdown is not documented
 * (open question 2): our choice reads Markdown links and images (`[name](https://…)`, `![](https://…)`) as files,
 * and, for an `is_image` message, a line that is a bare URL as the image.
 */
export function contentOf(data: string[], isImage: boolean): { text: string; media: MediaRef[] } {
  const media: MediaRef[] = [];
  const lines: string[] = [];
  for (const part of data) {
    if (isImage && BARE_URL.test(part.trim())) {
      const url = part.trim();
      media.push({ ref: url, name: fileNameOf(url, '', true) });
      continue;
    }
    const rest = part.replace(LINK, (whole, label: string, url: string) => {
      const image = whole.startsWith('!') || isImage;
      const name = fileNameOf(url, label, image);
      media.push({ ref: url, ...(name ? { name } : {}) });
      return '';
    });
    const line = rest.replace(/[ \t]{2,}/g, ' ').trim();
    if (line) lines.push(line);
  }
  let text = lines.join('\n');
  if (!text && !media.length) text = '[Ozon: empty message]';
  return { text, media };
}

/**
 * What the chat is about (§2.3): the order named by the message's context, else the product (SKU). Ozon documents no
 * seller-cabinet link to an order (open question 8): none is given. The product's public page
 * (`https://www.ozon.ru/product/{sku}/`) is our choice, not in Ozon's API documents.
 */
export function topicOf(context: HistoryItem['context']): ChatTopic | undefined {
  if (context?.order_number) {
    const id = context.order_number;
    // Ozon names no title for an order: the chat shows its kind and number.
    return { kind: 'order', id, title: '', url: null };
  }
  if (context?.sku && context.sku !== '0')
    return {
      kind: 'listing',
      id: context.sku,
      title: '',
      url: `https://www.ozon.ru/product/${encodeURIComponent(context.sku)}/`,
    };
  return undefined;
}

/**
 * The chat's client: Ozon names no buyer (only `user.id`), so the name is a stand-in. The client is the chat itself
 * (externalId = `chat_id`): replies are sent by chat (§4), and one buyer's chats about different orders stay apart.
 */
export const clientOf = (chatId: string, userId: string | undefined): InboundMessage['client'] => ({
  externalId: chatId,
  name: userId ? `Ozon buyer ${userId}` : 'Ozon buyer',
});

/** Our id of an Ozon message: its chat and its id. */
export const messageIdOf = (chatId: string, messageId: string) => `${chatId}:${messageId}`;

/**
 * One history item (§3) of the chat as an event: a buyer's message; our own (`Seller`, from this API or the Ozon
 * cabinet), Ozon's system and notification messages, support and couriers are left (ignored).
 */
export function historyEvent(chatId: string, raw: unknown): ParsedEvent {
  const got = read(historyItem, storable(raw));
  if (!got.ok) {
    const id = (raw as { message_id?: unknown } | null)?.message_id;
    if (typeof id === 'string' || typeof id === 'number')
      return unreadableMessage(
        'Ozon',
        got.reason,
        messageIdOf(chatId, String(id)),
        clientOf(chatId, undefined),
      );
    return unreadable('Ozon', got.reason);
  }
  const m = got.data;
  const sender = senderOf(m.user.type);
  if (sender !== 'customer') return { kind: 'ignored', what: `ozon message from ${sender}` };
  const { text, media } = contentOf(m.data ?? [], m.is_image === true);
  const topic = topicOf(m.context);
  return {
    kind: 'message',
    message: {
      externalMessageId: messageIdOf(chatId, m.message_id),
      client: clientOf(chatId, m.user.id),
      text,
      attachments: [],
      ...(media.length ? { media } : {}),
      ...(topic ? { topic } : {}),
    },
  };
}

const push = z.looseObject({
  message_type: z.string(),
  chat_id: z.string().min(1).max(ID_MAX).optional(),
  chat_type: z.string().optional(),
  message_id: anyId.optional(),
  user: user.optional(),
  data: z.array(z.string()).optional(),
});

/**
 * A push notification (§6.2): a buyer's new message or edit in a buyer chat; everything else (read marks of our
 * messages, which we cannot match since Ozon's send answers no id (§4.1), closed chats, pings, order and stock
 * events) is ignored. Pushes carry no order context (§6.2): the poll reads it from the history.
 */
export function parseOzonPush(body: unknown): ParsedEvent[] {
  const got = read(push, storable(body));
  if (!got.ok) return [unreadable('Ozon', got.reason)];
  const p = got.data;
  const type = p.message_type;
  if (type !== 'TYPE_NEW_MESSAGE' && type !== 'TYPE_UPDATE_MESSAGE')
    return [{ kind: 'ignored', what: `ozon ${type}` }];
  if (!isBuyerChat(p.chat_type)) return [{ kind: 'ignored', what: `ozon ${type} in ${p.chat_type ?? '?'}` }];
  if (!p.chat_id || !p.message_id || !p.user)
    return [unreadable('Ozon', `${type} without chat_id, message_id or user`)];
  const sender = senderOf(p.user.type);
  if (sender !== 'customer') return [{ kind: 'ignored', what: `ozon message from ${sender}` }];
  const { text, media } = contentOf(p.data ?? [], false);
  const message: InboundMessage = {
    externalMessageId: messageIdOf(p.chat_id, p.message_id),
    client: clientOf(p.chat_id, p.user.id),
    text,
    attachments: [],
    ...(media.length ? { media } : {}),
  };
  return [type === 'TYPE_NEW_MESSAGE' ? { kind: 'message', message } : { kind: 'edit', message }];
}
