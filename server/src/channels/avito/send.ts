import { FormData } from 'undici';
import { mediaType } from '../download.ts';
import { splitText } from '../telegram/send.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { type AvitoFailure, callAvito, credsOf } from './api.ts';

/** The longest text of one message (postSendMessage: `maxLength: 1000`). */
export const AVITO_TEXT_LIMIT = 1000;
/** The largest image Avito takes (uploadImages: 24 MB, one per request). */
export const AVITO_IMAGE_MAX = 24 * 1024 * 1024;
/** The image formats uploadImages takes (JPEG, HEIC, GIF, BMP, PNG). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/heic']);

type Sent = { id?: string };

const failed = (f: AvitoFailure): SendResult => ({
  ok: false,
  retryable: f.retryable,
  error: f.message,
  ...(f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}),
  ...(f.tokenRefused ? { tokenRefused: true } : {}),
});

/**
 * Renders one of our messages as Messenger calls: each image we store uploaded (uploadImages, field `uploadfile[]`)
 * and sent (messages/image; Avito takes no caption), then the text split at 1000 characters (messages, v1). Other
 * files, and images elsewhere, go as links in the text: Avito documents no way to send them. Avito cannot edit a
 * message. Then the chat is marked read (chatRead), best effort: we answered it. The id of the first part is kept.
 */
export async function sendAvito(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'Avito does not edit sent messages' };
  const userId = String(channel.settings.userId ?? '');
  const chat = `/messenger/v1/accounts/${userId}/chats/${encodeURIComponent(m.client.externalId)}`;
  const creds = credsOf(channel);
  const call = <T>(path: string, init: Parameters<typeof callAvito>[4]) =>
    callAvito<T>(ctx, channel.id, creds, path, init);
  let first: string | undefined;
  const links: string[] = [];
  try {
    for (const a of m.attachments) {
      const stored = await ctx.readFile(channel.organisationId, a.url);
      const type = mediaType(a.contentType ?? stored?.contentType) ?? '';
      if (!stored || !IMAGE_TYPES.has(type) || stored.data.length > AVITO_IMAGE_MAX) {
        links.push(a.url.startsWith('/') ? `${ctx.publicUrl}${a.url}` : a.url);
        continue;
      }
      const form = new FormData();
      form.set('uploadfile[]', new Blob([new Uint8Array(stored.data)], { type }), a.name ?? 'image');
      const up = await call<Record<string, unknown>>(`/messenger/v1/accounts/${userId}/uploadImages`, {
        form,
      });
      if (!up.ok) return failed(up);
      // The answer is keyed by the new image's id (its only key).
      const imageId = Object.keys(up.result)[0];
      if (!imageId) return { ok: false, retryable: true, error: 'uploadImages named no image id' };
      const sent = await call<Sent>(`${chat}/messages/image`, { json: { image_id: imageId } });
      if (!sent.ok) return failed(sent);
      first ??= sent.result.id;
    }
    const text = [m.text, ...links].filter((t) => t.trim()).join('\n');
    for (const part of text.trim() ? splitText(text, AVITO_TEXT_LIMIT) : []) {
      const sent = await call<Sent>(`${chat}/messages`, { json: { message: { text: part }, type: 'text' } });
      if (!sent.ok) return failed(sent);
      first ??= sent.result.id;
    }
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
  await call(`${chat}/read`, { method: 'POST' }).catch(() => null);
  return { ok: true, externalId: first };
}
