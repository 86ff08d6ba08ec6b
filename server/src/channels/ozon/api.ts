import { type MarketplaceAnswer, parseLossless } from '../marketplace.ts';
import type { AdapterContext } from '../types.ts';

/**
 * The Ozon Seller API client (docs/providers/ozon.md §1, §7): every method is a POST with a JSON body and the
 * seller's `Client-Id` and `Api-Key` headers. Tests point it at a fake (OZON_API_BASE_URL).
 */
export const OZON_BASE_URL = 'https://api-seller.ozon.ru';

export const baseUrl = (ctx: AdapterContext) =>
  (ctx.env.OZON_API_BASE_URL || OZON_BASE_URL).replace(/\/$/, '');

/** The seller's credentials, as connect checks them and the channel stores them. */
export type OzonCredentials = { clientId: string; apiKey: string };

export const credentialsOf = (channel: {
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
}): OzonCredentials => ({
  clientId: String(channel.settings.clientId ?? ''),
  apiKey: channel.secrets.apiKey ?? '',
});

/** What a call answers (marketplace.ts): 401/403 are refused (a bad key, or a key without the rights or the Premium
 * subscription a method needs: Ozon does not tell them apart, §1), 429 and 5xx retryable (§7). */
export type OzonAnswer<T> = MarketplaceAnswer<T>;

/** Ozon's default wait after a 429 when it names none: its documented limit is per second (§7, unofficial). */
export const OZON_RATE_WAIT_MS = 1_000;

// Message ids around 3e18 are typed as integers (§3): read losslessly (marketplace.ts).
export { parseLossless };

/** One Seller API method. Network failures (and refused addresses) throw. */
export async function callOzon<T>(
  ctx: AdapterContext,
  creds: OzonCredentials,
  path: string,
  body: Record<string, unknown>,
  opts: { signal?: AbortSignal; maxBytes?: number } = {},
): Promise<OzonAnswer<T>> {
  const res = await ctx.outbound.fetch(`${baseUrl(ctx)}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Client-Id': creds.clientId, 'Api-Key': creds.apiKey },
    body: JSON.stringify(body),
    ...opts,
  });
  let json: unknown;
  try {
    json = parseLossless(res.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  if (res.status === 200 && json && typeof json === 'object') return { ok: true, result: json as T };
  // Errors are {code, message, details} (§7).
  const message =
    (json && typeof json === 'object' && typeof (json as { message?: unknown }).message === 'string'
      ? (json as { message: string }).message
      : '') || `HTTP ${res.status}`;
  const retryAfterS = Number(res.headers.get('retry-after'));
  return {
    ok: false,
    status: res.status,
    message: `${path}: ${message}`.slice(0, 300),
    refused: res.status === 401 || res.status === 403,
    retryable: res.status === 429 || res.status >= 500 || res.status === 200,
    ...(res.status === 429
      ? { retryAfterMs: retryAfterS > 0 ? Math.min(retryAfterS * 1000, 60_000) : OZON_RATE_WAIT_MS }
      : {}),
  };
}
