import { PUSH_SERVICE, verifyInboundKey } from '../marketplace.ts';
import type { AdapterChannel, RawRequest } from '../types.ts';

/**
 * Ozon's push notifications (docs/providers/ozon.md §6), at `/api/webhooks/ozon/{channelId}?key={inboundKey}`: the
 * seller enters that address in the Ozon cabinet (Settings → Notifications → Push notifications). Ozon signs nothing
 * and sets no header of ours (§6.1: only its IP ranges tell it apart, which a proxy in front of us may hide), so the
 * address itself carries a key we make at connect (shown once as `inboundKey`, only its hash kept): our choice.
 * Whether Ozon keeps a query string on the URL is not documented; the path alone is refused (401).
 */
export const verifyOzon = (channel: AdapterChannel, req: RawRequest): boolean =>
  verifyInboundKey(channel, req);

/** Our name and version in the answer to Ozon's check request (§6.3). */
export const OZON_PUSH_SERVICE = PUSH_SERVICE;

/**
 * The answer Ozon reads (§6.3): the check request (`TYPE_PING`, on connecting the URL and now and then) gets our
 * name, version and the time we began processing it (UTC, not an echo); every other notification `{result: true}`
 * once its events are committed (duplicates too: ingest dedupes them).
 */
export function answerOzon(_channel: AdapterChannel, req: RawRequest): Record<string, unknown> {
  const type = (req.body as { message_type?: unknown } | undefined)?.message_type;
  if (type === 'TYPE_PING') return { ...OZON_PUSH_SERVICE, time: new Date().toISOString() };
  return { result: true };
}
