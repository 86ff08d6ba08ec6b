import { FormData } from 'undici';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { type BotAnswer, callBot } from './bot-api.ts';

/** The Bot API's longest text of one message; a longer one is sent in parts. */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** Splits a text into parts of at most `limit` UTF-16 units, at a line break or a space when there is one near. */
export function splitText(text: string, limit = TELEGRAM_TEXT_LIMIT): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    let cut = rest.lastIndexOf('\n', limit);
    if (cut < limit / 2) cut = rest.lastIndexOf(' ', limit);
    if (cut < limit / 2) cut = limit;
    // Never split a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(rest[cut - 1] ?? '')) cut--;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^[\n ]/, '');
  }
  if (rest.length || !parts.length) parts.push(rest);
  return parts;
}

type Sent = { message_id: number; chat: { id: number } };

/** Telegram's InlineKeyboardMarkup (https://core.telegram.org/bots/api#inlinekeyboardmarkup). */
export type InlineKeyboard = {
  inline_keyboard: ({ text: string; callback_data: string } | { text: string; url: string })[][];
};

/** Our buttons as an inline keyboard (a postback's payload is its callback_data); undefined when there are none. */
export function inlineKeyboard(buttons: OutboundMessage['buttons']): InlineKeyboard | undefined {
  const rows = buttons.filter((row) => row.length);
  if (!rows.length) return undefined;
  return {
    inline_keyboard: rows.map((row) =>
      row.map((b) =>
        'payload' in b ? { text: b.text, callback_data: b.payload } : { text: b.text, url: b.url },
      ),
    ),
  };
}

/** A failed call in our terms: 429 waits as told, 5xx retries, 403 (blocked) and other 4xx are final. */
function failure(a: Extract<BotAnswer<unknown>, { ok: false }>): SendResult {
  if (a.status === 429)
    return { ok: false, retryable: true, error: a.description, retryAfterMs: (a.retryAfter ?? 1) * 1000 };
  if (a.status >= 500) return { ok: false, retryable: true, error: a.description };
  return { ok: false, retryable: false, error: a.description, tokenRefused: a.status === 401 };
}

/** One attachment: uploaded from our storage (multipart), or by its URL when it lives elsewhere. */
async function sendAttachment(
  ctx: AdapterContext,
  channel: AdapterChannel,
  chatId: string,
  a: OutboundMessage['attachments'][number],
  caption: string | undefined,
  keyboard: InlineKeyboard | undefined,
): Promise<BotAnswer<Sent>> {
  const photo = (a.contentType ?? '').startsWith('image/') && !a.contentType?.includes('webp');
  const field = photo ? 'photo' : 'document';
  const stored = await ctx.readFile(channel.organisationId, a.url);
  const form = new FormData();
  form.set('chat_id', chatId);
  if (caption) form.set('caption', caption);
  // A multipart form carries the markup JSON-serialised, as the Bot API wants it.
  if (keyboard) form.set('reply_markup', JSON.stringify(keyboard));
  if (stored) {
    const type = a.contentType ?? stored.contentType;
    form.set(
      field,
      new Blob([new Uint8Array(stored.data)], { type }),
      a.name ?? (photo ? 'photo.jpg' : 'file'),
    );
  } else form.set(field, a.url);
  return callBot<Sent>(ctx, channel.secrets.token ?? '', photo ? 'sendPhoto' : 'sendDocument', form);
}

/**
 * Renders one of our messages as Bot API calls: text with sendMessage (split past 4096), each attachment with
 * sendPhoto or sendDocument (a short text rides as the first caption), an edit with editMessageText. The buttons
 * go as an inline keyboard on the last call (the last part of a split text, or the last attachment when the text
 * rode as a caption), so they sit under the end of the message. The provider's id of the first part is kept
 * (`<chat>:<message_id>`, as inbound ids are).
 */
export async function sendTelegram(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  const token = channel.secrets.token ?? '';
  const chatId = m.client.externalId;
  const keyboard = inlineKeyboard(m.buttons);
  try {
    if (m.event === 'message.updated') {
      const id = m.externalId?.split(':')[1];
      if (!id) return { ok: false, retryable: false, error: 'the edited message was never delivered' };
      // An edit without reply_markup would drop the keyboard: a one-part text message keeps it.
      const onePart = !m.attachments.length && m.text.length <= TELEGRAM_TEXT_LIMIT;
      const res = await callBot<Sent>(ctx, token, 'editMessageText', {
        chat_id: chatId,
        message_id: Number(id),
        text: m.text.slice(0, TELEGRAM_TEXT_LIMIT),
        ...(keyboard && onePart ? { reply_markup: keyboard } : {}),
      });
      return res.ok || /not modified/.test(res.description) ? { ok: true } : failure(res);
    }
    let first: Sent | undefined;
    let text = m.text;
    const parts = (t: string) => (t.trim() ? splitText(t) : []);
    for (const [i, a] of m.attachments.entries()) {
      const caption = i === 0 && text.length <= 1024 ? text : undefined;
      if (caption !== undefined) text = '';
      const last = i === m.attachments.length - 1 && !parts(text).length;
      const res = await sendAttachment(ctx, channel, chatId, a, caption, last ? keyboard : undefined);
      if (!res.ok) return failure(res);
      first ??= res.result;
    }
    const texts = parts(text);
    for (const [i, part] of texts.entries()) {
      const last = i === texts.length - 1;
      const res = await callBot<Sent>(ctx, token, 'sendMessage', {
        chat_id: chatId,
        text: part,
        ...(last && keyboard ? { reply_markup: keyboard } : {}),
      });
      if (!res.ok) return failure(res);
      first ??= res.result;
    }
    return { ok: true, externalId: first ? `${first.chat.id}:${first.message_id}` : undefined };
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}

/**
 * An operator is writing: sendChatAction `typing` (Telegram shows it for 5 seconds or until our next message; the
 * web app repeats it every 3 s while the operator types). Best effort: a refusal is thrown for the caller to log.
 */
export async function typingTelegram(
  ctx: AdapterContext,
  channel: AdapterChannel,
  client: { externalId: string },
): Promise<void> {
  const res = await callBot<boolean>(ctx, channel.secrets.token ?? '', 'sendChatAction', {
    chat_id: client.externalId,
    action: 'typing',
  });
  if (!res.ok) throw new Error(`Telegram sendChatAction: ${res.status} ${res.description}`);
}
