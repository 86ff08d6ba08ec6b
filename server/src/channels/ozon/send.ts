import { sendToMarketplace } from '../marketplace.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { callOzon, credentialsOf } from './api.ts';

/** `/v1/chat/send/message` takes plain text of 1 to 1000 characters (docs/providers/ozon.md §4.1). */
export const OZON_TEXT_LIMIT = 1_000;

/**
 * The largest file we send (`/v1/chat/send/file` as base64 JSON, §4.2): Ozon publishes no limit (open question 2);
 * 10 MB is our choice, and keeps the JSON body (a third larger) moderate.
 */
export const OZON_FILE_MAX = 10 * 1024 * 1024;

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
  const sent = await sendToMarketplace(
    ctx,
    channel,
    m,
    { fileMax: OZON_FILE_MAX, textLimit: OZON_TEXT_LIMIT },
    {
      file: (f) =>
        callOzon(ctx, creds, '/v1/chat/send/file', {
          chat_id: chatId,
          name: f.name,
          base64_content: f.data.toString('base64'),
        }),
      text: (part) => callOzon(ctx, creds, '/v1/chat/send/message', { chat_id: chatId, text: part }),
    },
  );
  if (sent.ok) await markRead(ctx, channel, chatId).catch(() => undefined);
  return sent;
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
