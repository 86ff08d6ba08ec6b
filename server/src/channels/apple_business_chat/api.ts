import { createHmac, timingSafeEqual } from 'node:crypto';
import { retryAfterMs } from '../../lib/outbound.ts';
import type { AdapterChannel, AdapterContext } from '../types.ts';

/**
 * The Messages for Business MSP REST API client (docs/providers/apple-business.md): every call through the guarded
 * outbound client, authorised with a JWT (HS256) we sign per call with the channel's Base64-decoded API secret,
 * `iss` the MSP id, and sent with the business id as Source-Id.
 */

/** The gateway's address; tests point it at a fake (APPLE_BUSINESS_API_BASE_URL). */
export const baseUrl = (ctx: AdapterContext) =>
  (ctx.env.APPLE_BUSINESS_API_BASE_URL || 'https://mspgw.push.apple.com/v1').replace(/\/$/, '');

/** How long to wait after a 429 that names no Retry-After (Apple documents none: our choice). */
export const RATE_LIMIT_WAIT_MS = 60_000;
/** How far an inbound token's `iat` may be from now (not documented: our choice, as integrations cache for an hour). */
const IAT_SKEW_SECONDS = 3600;

/** What the JWT needs: the MSP id and its secret (Base64, as Apple gives it). */
export type Creds = { businessId: string; mspId: string; secret: string };

export const credsOf = (channel: AdapterChannel): Creds => ({
  businessId: String(channel.settings.businessId ?? ''),
  mspId: String(channel.settings.mspId ?? ''),
  secret: channel.secrets.secret ?? '',
});

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');
/** The signing key: the secret's bytes (Apple gives it Base64-encoded). */
export const keyOf = (secret: string) => Buffer.from(secret, 'base64');

/** A JWT for our calls: `{iss: MSP id, iat}`, HS256. */
export function signJwt(creds: Pick<Creds, 'mspId' | 'secret'>, nowSeconds = Math.floor(Date.now() / 1000)) {
  const head = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = base64url(JSON.stringify({ iss: creds.mspId, iat: nowSeconds }));
  const signature = createHmac('sha256', keyOf(creds.secret)).update(`${head}.${claims}`).digest('base64url');
  return `${head}.${claims}.${signature}`;
}

/**
 * Whether `token` is Apple's: HS256, signed with the channel's secret, `aud` the MSP id (a string or a list), not
 * expired, issued within an hour of now. Compared in constant time.
 */
export function jwtValid(token: string, creds: Pick<Creds, 'mspId' | 'secret'>, nowMs = Date.now()): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || !creds.secret || !creds.mspId) return false;
  const [head, claims, signature] = parts as [string, string, string];
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'HS256') return false;
    const expected = createHmac('sha256', keyOf(creds.secret)).update(`${head}.${claims}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const c = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Record<string, unknown>;
    const audiences = Array.isArray(c.aud) ? c.aud : [c.aud];
    if (!audiences.includes(creds.mspId)) return false;
    const now = nowMs / 1000;
    if (typeof c.exp === 'number' && c.exp < now) return false;
    if (typeof c.iat === 'number' && Math.abs(now - c.iat) > IAT_SKEW_SECONDS) return false;
    return true;
  } catch {
    return false;
  }
}

/** A failed call, in our words. */
export type AppleFailure = {
  ok: false;
  status: number;
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** The gateway refused our JWT or business id (401/403). */
  tokenRefused?: boolean;
};
export type AppleAnswer<T> = { ok: true; result: T } | AppleFailure;

function failure(status: number, headers: Headers, raw: Buffer): AppleFailure {
  const detail = raw.toString('utf8').slice(0, 200).trim();
  const message = `${status}${detail ? `: ${detail}` : ''}`;
  if (status === 429)
    return {
      ok: false,
      status,
      message,
      retryable: true,
      retryAfterMs: retryAfterMs(headers.get('retry-after')) ?? RATE_LIMIT_WAIT_MS,
    };
  if (status === 401 || status === 403)
    return { ok: false, status, message, retryable: false, tokenRefused: true };
  return { ok: false, status, message, retryable: status >= 500 || status === 408 };
}

/**
 * One gateway call: `path` under the base URL with our JWT and Source-Id, plus `headers`; a JSON body when given.
 * Answers the parsed JSON answer (an empty object when the answer is empty or not JSON). Network failures throw.
 */
export async function callApple<T>(
  ctx: AdapterContext,
  creds: Creds,
  path: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<AppleAnswer<T>> {
  const res = await ctx.outbound.fetch(`${baseUrl(ctx)}${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${signJwt(creds)}`,
      'source-id': creds.businessId,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  if (res.status < 200 || res.status >= 300) return failure(res.status, res.headers, res.body);
  let result = {} as T;
  try {
    if (res.body.length) result = JSON.parse(res.body.toString('utf8')) as T;
  } catch {
    // The answer of /message is not documented; an answer that is not JSON still means it was taken.
  }
  return { ok: true, result };
}

/** POSTs bytes to a URL the gateway handed out (preUpload's upload-url): no JWT, as Apple's sample does. */
export async function uploadTo(
  ctx: AdapterContext,
  url: string,
  data: Buffer,
): Promise<AppleAnswer<{ singleFile?: { fileChecksum?: string } }>> {
  const res = await ctx.outbound.fetch(url, {
    method: 'POST',
    // undici sets Content-Length from the bytes, as Apple's sample sets it.
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(data),
    timeoutMs: 10_000,
  });
  if (res.status < 200 || res.status >= 300) return failure(res.status, res.headers, res.body);
  try {
    return { ok: true, result: JSON.parse(res.body.toString('utf8')) };
  } catch {
    return { ok: false, status: res.status, message: 'upload answer is not JSON', retryable: true };
  }
}
