import { createHmac } from 'node:crypto';
import { OutboundRefusedError, retryAfterMs } from '../../lib/outbound.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';

export const SIGNATURE_HEADER = 'x-smartconnect-signature';
export const DELIVERY_HEADER = 'x-smartconnect-delivery';

/** `sha256=<hex HMAC-SHA256 of the raw body>` keyed by the channel's webhook secret. */
export const signBody = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * POSTs the payload as JSON to the channel's webhook URL through the guarded client: 2xx is delivered; a 5xx,
 * 408, 429 or network error is retried; another 4xx, a redirect or a refused address is final.
 */
export async function sendWebhook(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  const url = channel.settings.webhookUrl;
  if (typeof url !== 'string' || !url) return { ok: false, retryable: false, error: 'no webhook URL' };
  // The documented webhook body (README "The API channel"): a public contract, field for field.
  const body = JSON.stringify({
    event: m.event,
    channelId: channel.id,
    chatId: m.chatId,
    messageId: m.id,
    client: { externalId: m.client.externalId },
    text: m.text,
    attachments: m.attachments,
    buttons: m.buttons,
    createdAt: m.createdAt,
    editedAt: m.editedAt,
  });
  try {
    const res = await ctx.outbound.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signBody(channel.secrets.webhookSecret ?? '', body),
        [DELIVERY_HEADER]: m.deliveryId,
      },
      body,
    });
    if (res.status >= 200 && res.status < 300) return { ok: true };
    if (res.status >= 300 && res.status < 400)
      return { ok: false, retryable: false, error: `HTTP ${res.status}: redirects are not followed` };
    const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
    const wait = retryAfterMs(res.headers.get('retry-after'));
    return {
      ok: false,
      retryable,
      error: `HTTP ${res.status}`,
      tokenRefused: res.status === 401 || res.status === 403,
      ...(wait ? { retryAfterMs: wait } : {}),
    };
  } catch (err) {
    if (err instanceof OutboundRefusedError) return { ok: false, retryable: false, error: err.message };
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}
