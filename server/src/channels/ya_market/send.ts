import { FormData } from 'undici';
import { nameForType } from '../download.ts';
import { sendFailure } from '../marketplace.ts';
import { splitText } from '../telegram/send.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { callYaMarket, credentialsOf } from './api.ts';

/** `chats/message` takes 1 to 4096 characters (docs/providers/yandex-market.md §4.1). */
export const YA_MARKET_TEXT_LIMIT = 4_096;

/** `chats/file/send` takes one file of at most 5 MB (§4.2); its allowed types are not documented. */
export const YA_MARKET_FILE_MAX = 5 * 1024 * 1024;

/**
 * One of our messages into the buyer's chat (the client's externalId is the Market chatId): each attachment from our
 * storage with `chats/file/send` (multipart, one part `file`, §4.2), one elsewhere as its link in the text, then
 * the text with `chats/message`, split past 4096 characters (§4.1; formatting is not documented: plain text). Market
 * answers no message id (§4.1) and has no edit or read marks (§3.1, §5). Our messages come back in the history as
 * `PARTNER`'s and are never stored again (parse.ts).
 */
export async function sendYaMarket(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'Yandex Market chats cannot edit a sent message' };
  const creds = credentialsOf(channel);
  const chatId = m.client.externalId;
  let text = m.text;
  try {
    for (const a of m.attachments) {
      const stored = await ctx.readFile(channel.organisationId, a.url);
      if (!stored) {
        text = [text, a.url].filter((t) => t.trim()).join('\n');
        continue;
      }
      if (stored.data.length > YA_MARKET_FILE_MAX)
        return { ok: false, retryable: false, error: `a file over ${YA_MARKET_FILE_MAX} bytes` };
      const type = a.contentType ?? stored.contentType;
      const name = a.name ?? stored.name ?? nameForType('file', type) ?? 'file.bin';
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(stored.data)], { type }), name);
      const res = await callYaMarket(ctx, creds, {
        method: 'POST',
        path: '/chats/file/send',
        query: { chatId },
        body: form,
      });
      if (!res.ok) return sendFailure(res);
    }
    for (const part of text.trim() ? splitText(text, YA_MARKET_TEXT_LIMIT) : []) {
      const res = await callYaMarket(ctx, creds, {
        method: 'POST',
        path: '/chats/message',
        query: { chatId },
        body: { message: part },
      });
      if (!res.ok) return sendFailure(res);
    }
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
  return { ok: true };
}
