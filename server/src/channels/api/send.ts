import { createHmac } from 'node:crypto';
import type { AdapterChannel, OutboundPayload, SendResult } from '../types.ts';

export const SIGNATURE_HEADER = 'x-smartconnect-signature';
export const DELIVERY_HEADER = 'x-smartconnect-delivery';
const TIMEOUT_MS = 10_000;

/** `sha256=<hex HMAC-SHA256 of the raw body>` keyed by the channel's webhook secret. */
export const signBody = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** POSTs the payload as JSON to the channel's webhook URL; 2xx is delivered, 4xx (but 408/429) is final. */
export async function sendWebhook(
  channel: AdapterChannel,
  deliveryId: string,
  payload: OutboundPayload,
): Promise<SendResult> {
  if (!channel.webhookUrl) return { ok: false, retryable: false, error: 'no webhook URL' };
  const body = JSON.stringify(payload);
  try {
    const res = await fetch(channel.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signBody(channel.secrets.webhookSecret ?? '', body),
        [DELIVERY_HEADER]: deliveryId,
      },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return { ok: true };
    const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
    return { ok: false, retryable, error: `HTTP ${res.status}` };
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}
