import type { ViberRegion } from '@smartconnect/contracts';
import { retryAfterMs } from '../../lib/outbound.ts';
import type { AdapterChannel, AdapterContext } from '../types.ts';

/**
 * The regional Viber business delivery provider's HTTP API (v1), one installation per region (§3 Regional delivery:
 * Russia, Belarus), the shape the Russian and Belarusian Viber business aggregators share:
 * - every call authenticates with HTTP Basic (the provider account's login and password);
 * - `GET /v1/account`: the account and the Viber services (sender ids) it may use;
 * - `PUT|DELETE /v1/services/{serviceId}/callback {url, secret}`: where the provider posts the service's inbound
 *   messages and delivery reports, each signed `X-Callback-Signature: sha256=<hex HMAC-SHA256(secret, body)>`;
 *   the provider retries a callback answered 5xx (or not at all) and drops one answered 4xx (a callback we cannot
 *   read is answered 400: parse.ts);
 * - `POST /v1/messages {serviceId, phone, text, imageUrl?, externalId}`: one message to a phone; `externalId` is
 *   the client's idempotency key (a repeat answers the first message's id);
 * - errors: `{error: {code, message}}` with 400/401/404/422, 429 with Retry-After, 5xx.
 * Base URLs: VIBER_BUSINESS_RU_BASE_URL and VIBER_BUSINESS_BY_BASE_URL (no default: the installation's contract).
 */
export const BASE_URL_ENV: Record<ViberRegion, string> = {
  ru: 'VIBER_BUSINESS_RU_BASE_URL',
  by: 'VIBER_BUSINESS_BY_BASE_URL',
};

export const regionBaseUrl = (ctx: AdapterContext, region: string): string | null => {
  const name = BASE_URL_ENV[region as ViberRegion];
  const url = name ? ctx.env[name] : undefined;
  return url ? url.replace(/\/$/, '') : null;
};

export type ProviderAnswer<T> =
  | { ok: true; result: T }
  | { ok: false; status: number; code: string; message: string; retryAfterMs?: number };

export type Credentials = { region: string; login: string; password: string };

export const credentialsOf = (channel: AdapterChannel): Credentials => ({
  region: String(channel.settings.region ?? ''),
  login: String(channel.settings.login ?? ''),
  password: channel.secrets.password ?? '',
});

export const basicAuth = (c: Credentials) =>
  `Basic ${Buffer.from(`${c.login}:${c.password}`, 'utf8').toString('base64')}`;

/** One provider call; network failures (and a region without a configured base URL) throw. */
export async function callProvider<T>(
  ctx: AdapterContext,
  c: Credentials,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
): Promise<ProviderAnswer<T>> {
  const base = regionBaseUrl(ctx, c.region);
  if (!base) throw new Error(`no base URL for Viber business region ${c.region}`);
  const res = await ctx.outbound.fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: basicAuth(c),
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  let json: Record<string, unknown> = {};
  try {
    json = res.body.length ? (JSON.parse(res.body.toString('utf8')) as Record<string, unknown>) : {};
  } catch {
    json = {};
  }
  if (res.status >= 200 && res.status < 300) return { ok: true, result: json as T };
  const error = (json.error ?? {}) as { code?: unknown; message?: unknown };
  const wait = retryAfterMs(res.headers.get('retry-after'));
  return {
    ok: false,
    status: res.status,
    code: typeof error.code === 'string' ? error.code : `http_${res.status}`,
    message: typeof error.message === 'string' ? error.message : `HTTP ${res.status}`,
    ...(wait ? { retryAfterMs: wait } : {}),
  };
}
