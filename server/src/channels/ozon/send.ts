import { nameForType } from '../download.ts';
import { sendFailure } from '../marketplace.ts';
import { splitText } from '../telegram/send.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { callOzon, credentialsOf } from './api.ts';

/** `/v1/chat/send/message` takes plain text of 1 to 1000 characters (docs/providers/ozon.md §4.1). */
export const OZON_TEXT_LIMIT = 1_000;

/**
 * The largest file we send (`/v1/chat/send/file` as base64 JSON, §4.2): Ozon publishes no limit (open question 2);
 * 10 MB is our choice, and keeps the JSON body (a third larger) moderate.
 */
export const OZON_FILE_MAX = 10 * 1024 * 1024;

/** A failed call in our terms (marketplace.ts): 401/403 the channel's key (or its subscription, §1). */
const failure = sendFailure;

/**
 * One of our messages into the buyer's chat (the client's externalId is the Ozon chat_id): each attachment from our
 * storage with /v1/chat/send/file (base64, its name with an extension, §4.2), one elsewhere as its link in the text,
 * then the text with /v1/chat/send/message, split past 1000 characters (§4.1; Markdown is not read, plain text is
 * sent as is). Ozon answers no message id, and sent messages cannot be edited. Afterwards the chat is marked read at
 * Ozon up to its newest message (/v2/chat/read, §5), best effort: the operator has answered it.
 */
export async function sendOzon(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'Ozon chats cannot edit a sent message' };
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
      if (stored.data.length > OZON_FILE_MAX)
        return { ok: false, retryable: false, error: `a file over ${OZON_FILE_MAX} bytes` };
      const type = a.contentType ?? stored.contentType;
      const name = a.name ?? stored.name ?? nameForType('file', type) ?? 'file.bin';
      const res = await callOzon(ctx, creds, '/v1/chat/send/file', {
        chat_id: chatId,
        name,
        base64_content: stored.data.toString('base64'),
      });
      if (!res.ok) return failure(res);
    }
    for (const part of text.trim() ? splitText(text, OZON_TEXT_LIMIT) : []) {
      const res = await callOzon(ctx, creds, '/v1/chat/send/message', { chat_id: chatId, text: part });
      if (!res.ok) return failure(res);
    }
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
  await markRead(ctx, channel, chatId).catch(() => undefined);
  return { ok: true };
}

/** Marks the chat read up to its newest message (/v2/chat/read marks that one and every earlier one, §5). */
async function markRead(ctx: AdapterContext, channel: AdapterChannel, chatId: string): Promise<void> {
  const creds = credentialsOf(channel);
  const last = await callOzon<{ messages?: { message_id?: unknown }[] }>(ctx, creds, '/v3/chat/history', {
    chat_id: chatId,
    direction: 'Backward',
    limit: 1,
  });
  const id = last.ok ? last.result.messages?.[0]?.message_id : undefined;
  if (id === undefined || id === null) return;
  await callOzon(ctx, creds, '/v2/chat/read', { chat_id: chatId, from_message_id: String(id) });
}
