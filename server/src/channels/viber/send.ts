import { downloadMedia, mediaType } from '../download.ts';
import { splitText } from '../telegram/send.ts';
import type {
  AdapterChannel,
  AdapterContext,
  MediaDownload,
  MediaRef,
  OutboundMessage,
  SendResult,
} from '../types.ts';
import { basicAuth, callProvider, credentialsOf } from './api.ts';

/** A Viber business message's longest text. */
export const VIBER_BUSINESS_TEXT_LIMIT = 1000;
/** The largest picture the provider takes (and the largest file we fetch from it). */
export const VIBER_BUSINESS_MEDIA_MAX = 10 * 1024 * 1024;
const RATE_LIMIT_WAIT_MS = 60_000;

/**
 * One of our messages as provider messages to the client's phone: the first picture rides with the first text part
 * (Viber business messages carry text and one image), further pictures and parts follow. Each call's externalId is
 * our delivery id and the part's number, so a retried delivery is not sent twice. Cannot edit.
 */
export async function sendViberBusiness(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'Viber business messages cannot be edited' };
  const images = m.attachments
    .filter((a) => /^image\/(jpeg|png)$/.test((a.contentType ?? '').split(';')[0]?.trim() ?? ''))
    .map((a) => (a.url.startsWith('/') ? `${ctx.publicUrl}${a.url}` : a.url));
  const texts = m.text.trim() ? splitText(m.text, VIBER_BUSINESS_TEXT_LIMIT) : [];
  const calls: { text?: string; imageUrl?: string }[] = [];
  const n = Math.max(images.length, texts.length);
  for (let i = 0; i < n; i++)
    calls.push({ ...(texts[i] ? { text: texts[i] } : {}), ...(images[i] ? { imageUrl: images[i] } : {}) });
  if (!calls.length) return { ok: false, retryable: false, error: 'nothing to send' };
  let first: string | undefined;
  try {
    for (const [i, call] of calls.entries()) {
      const res = await callProvider<{ messageId?: unknown }>(
        ctx,
        credentialsOf(channel),
        'POST',
        '/v1/messages',
        {
          serviceId: channel.settings.serviceId,
          phone: m.client.externalId,
          ...call,
          externalId: i ? `${m.deliveryId}:${i}` : m.deliveryId,
        },
      );
      if (!res.ok) {
        const error = `${res.code}: ${res.message}`;
        if (res.status === 429)
          return { ok: false, retryable: true, error, retryAfterMs: res.retryAfterMs ?? RATE_LIMIT_WAIT_MS };
        return { ok: false, retryable: res.status >= 500, error };
      }
      if (typeof res.result.messageId === 'string') first ??= res.result.messageId;
    }
    return { ok: true, externalId: first };
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}

/** A file of an inbound message: a provider URL, fetched with the account's credentials. */
export async function fetchViberBusinessMedia(
  ctx: AdapterContext,
  channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  const res = await downloadMedia(ctx, ref.ref, { authorization: basicAuth(credentialsOf(channel)) });
  return {
    stream: res.body,
    size: res.size ?? ref.size,
    contentType: mediaType(res.headers.get('content-type')) ?? ref.contentType ?? 'application/octet-stream',
    name: ref.name,
  };
}
