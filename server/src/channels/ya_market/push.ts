import { PUSH_SERVICE, verifyInboundKey } from '../marketplace.ts';
import type { AdapterChannel, RawRequest } from '../types.ts';

/**
 * Yandex Market's API notifications (docs/providers/yandex-market.md §6), at
 * `/api/webhooks/ya_market/{channelId}?key={inboundKey}`: the seller enters that address in the cabinet (Settings →
 * API and modules → API notifications, cabinet level). Market signs nothing and sends no token (§6.1: only its IP
 * ranges tell it apart, which a proxy in front of us may hide), so the address carries a key we make at connect
 * (shown once, only its hash kept): our choice, as Ozon's. One implementer reports that Market appends
 * `/notification` to the address entered (§6.1, open question 8): after our query string that lands on the key's
 * end, and is taken off before the key is compared.
 */
export function verifyYaMarket(channel: AdapterChannel, req: RawRequest): boolean {
  const key = req.query.key;
  return verifyInboundKey(channel, req, typeof key === 'string' ? key.replace(/\/notification$/, '') : key);
}

/**
 * The answer Market reads (§6.3): every notification, the check request (PING) among them, gets our name, version
 * and the time we began processing it (UTC), once its events are committed (duplicates too: ingest dedupes them).
 */
export const answerYaMarket = (_channel: AdapterChannel, _req: RawRequest): Record<string, unknown> => ({
  ...PUSH_SERVICE,
  time: new Date().toISOString(),
});
