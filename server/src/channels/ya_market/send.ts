import { FormData } from 'undici';
import { sendToMarketplace } from '../marketplace.ts';
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
  const query = { chatId: m.client.externalId };
  return sendToMarketplace(
    ctx,
    channel,
    m,
    { fileMax: YA_MARKET_FILE_MAX, textLimit: YA_MARKET_TEXT_LIMIT },
    {
      file: (f) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
        return callYaMarket(ctx, creds, { method: 'POST', path: '/chats/file/send', query, body: form });
      },
      text: (part) =>
        callYaMarket(ctx, creds, { method: 'POST', path: '/chats/message', query, body: { message: part } }),
    },
  );
}
