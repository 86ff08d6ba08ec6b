import { splitText } from '../telegram/send.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { callSmsBy, type ProviderAnswer, smsByError } from './api.ts';

/** SMS.by's limits as documented, and ours where it documents none (docs/providers/viber-regional.md §3). */
export const SMSBY = {
  /** No Viber text limit is documented: the smallest limit of the region's providers (Devino's 1000). */
  textLimit: 1000,
  /** A 429 without Retry-After waits a minute. */
  rateLimitWaitMs: 60_000,
} as const;

export type ViberName = { id: string; name: string | null };

/**
 * The account's Viber sender names from `getVibernames` (§3 S4). The answer's shape is not documented: a list of
 * objects with an id (`id` or `vibername_id`) and a name, or a map of id to name, bare or under `result`, are read.
 */
export function viberNamesOf(json: Record<string, unknown>): ViberName[] {
  const body = json.result ?? json.vibernames ?? json;
  const nameOf = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  if (Array.isArray(body))
    return body.flatMap((item) => {
      if (!item || typeof item !== 'object') return [];
      const o = item as Record<string, unknown>;
      const id = o.id ?? o.vibername_id;
      if (typeof id !== 'string' && typeof id !== 'number') return [];
      return [{ id: String(id), name: nameOf(o.name ?? o.vibername) }];
    });
  if (body && typeof body === 'object')
    return Object.entries(body as Record<string, unknown>)
      .filter(([id]) => /^\d+$/.test(id))
      .map(([id, name]) => ({ id, name: nameOf(name) }));
  return [];
}

/** How an SMS.by answer ends a check or a send. */
const refusedStatus = (a: ProviderAnswer) => a.status === 401 || a.status === 403;
const passingStatus = (a: ProviderAnswer) => a.status === 429 || a.status >= 500;

/**
 * Checks the API key (`token`) with `getVibernames` and answers the account's Viber sender names: null when SMS.by
 * refuses the key, 'unreachable' when it cannot say now.
 */
export async function checkSmsBy(
  ctx: AdapterContext,
  token: string,
): Promise<ViberName[] | null | 'unreachable'> {
  const a = await callSmsBy(ctx, token, 'getVibernames');
  if (passingStatus(a)) return 'unreachable';
  if (refusedStatus(a) || smsByError(a)) return null;
  return viberNamesOf(a.json);
}

/**
 * One of our messages as `sendQuickViberMessage` calls (`phone`, `vibername_id`, `message`: §3 S4), one per
 * 1000-character part: SMS.by's single-message method takes text only (images only in bulk mailings, S1). Its answer
 * `result.viber_id` is kept as the message's external id. SMS.by takes no idempotency key: a part is sent once per
 * attempt, so a retry after a later part failed sends the earlier parts again (only texts over 1000 characters).
 */
export async function sendSmsBy(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'Viber business messages cannot be edited' };
  const parts = m.text.trim() ? splitText(m.text, SMSBY.textLimit) : [];
  if (!parts.length) return { ok: false, retryable: false, error: 'SMS.by sends Viber text only' };
  let first: string | undefined;
  try {
    for (const message of parts) {
      const a = await callSmsBy(
        ctx,
        channel.secrets.password ?? '',
        'sendQuickViberMessage',
        { phone: m.client.externalId, vibername_id: String(channel.settings.serviceId ?? ''), message },
        'POST',
      );
      const error = smsByError(a);
      if (refusedStatus(a))
        return { ok: false, retryable: false, tokenRefused: true, error: `SMS.by: ${error}` };
      if (a.status === 429)
        return {
          ok: false,
          retryable: true,
          error: `SMS.by: ${error}`,
          retryAfterMs: a.retryAfterMs ?? SMSBY.rateLimitWaitMs,
        };
      if (passingStatus(a)) return { ok: false, retryable: true, error: `SMS.by: ${error}` };
      if (error) return { ok: false, retryable: false, error: `SMS.by: ${error}` };
      const result = (a.json.result ?? {}) as { viber_id?: unknown };
      if (typeof result.viber_id === 'string' || typeof result.viber_id === 'number')
        first ??= String(result.viber_id);
    }
  } catch (err) {
    return { ok: false, retryable: true, error: `SMS.by: ${(err as Error).message}` };
  }
  return { ok: true, ...(first ? { externalId: first } : {}) };
}
