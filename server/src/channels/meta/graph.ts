import { createHmac, timingSafeEqual } from 'node:crypto';
import { FormData } from 'undici';
import type { AdapterContext, RawRequest } from '../types.ts';

/** The Graph API version our calls name (Cloud API paths are `/{version}/...`). */
export const GRAPH_VERSION = 'v21.0';

/** Meta's Graph API address for one product: its env variable (tests point it at a fake), else Meta's own. */
export const graphBase = (ctx: AdapterContext, envName: string) =>
  (ctx.env[envName] || 'https://graph.facebook.com').replace(/\/$/, '');

/** A Graph API error (https://developers.facebook.com/docs/graph-api/guides/error-handling). */
export type GraphError = {
  status: number;
  code: number;
  subcode?: number;
  message: string;
  /** error_data.details: the human reason of a WhatsApp error, when given. */
  details?: string;
};

export type GraphAnswer<T> = { ok: true; result: T } | ({ ok: false } & GraphError);

/**
 * One Graph API call at `base` with an access token: `path` after the version (`/{phone-number-id}/messages`),
 * a JSON body or a multipart form. Network failures throw.
 */
export async function graphCall<T>(
  ctx: AdapterContext,
  base: string,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown> | FormData,
): Promise<GraphAnswer<T>> {
  const json = body !== undefined && !(body instanceof FormData);
  const res = await ctx.outbound.fetch(`${base}/${GRAPH_VERSION}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(json ? { 'content-type': 'application/json' } : {}),
    },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  let parsed: {
    error?: { message?: string; code?: number; error_subcode?: number; error_data?: { details?: string } };
  } & Record<string, unknown>;
  try {
    parsed = JSON.parse(res.body.toString('utf8'));
  } catch {
    return { ok: false, status: res.status, code: res.status, message: `HTTP ${res.status}` };
  }
  if (res.status >= 200 && res.status < 300 && !parsed.error) return { ok: true, result: parsed as T };
  const e = parsed.error ?? {};
  return {
    ok: false,
    status: res.status,
    code: e.code ?? res.status,
    subcode: e.error_subcode,
    message: e.message ?? `HTTP ${res.status}`,
    details: e.error_data?.details,
  };
}

/** Error codes that say "later": throttling (4, 17, 32, 613, 80007), Cloud API rate limits (130429, 131056), outages (131000, 131016). */
const RETRY_LATER = new Set([1, 2, 4, 17, 32, 613, 80007, 130429, 131000, 131016, 131056, 133004]);

/** Whether a refused call is worth repeating later. */
export const retryable = (e: GraphError) => e.status === 429 || e.status >= 500 || RETRY_LATER.has(e.code);

/** Rate limits (app, user, page and Cloud API limits): Meta says no Retry-After, so we wait a while. */
export const isRateLimit = (e: GraphError) =>
  e.status === 429 || [4, 17, 32, 613, 80007, 130429, 131056].includes(e.code);

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Meta signs every webhook POST: `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body with the app secret>`. */
export function hubSignatureValid(secret: string | undefined, req: RawRequest): boolean {
  const given = req.headers['x-hub-signature-256'];
  if (typeof given !== 'string' || !secret) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(req.rawBody).digest('hex')}`;
  return same(given.toLowerCase(), expected);
}

/** Meta's subscription check: `hub.mode=subscribe` with our verify token is answered with `hub.challenge`. */
export function hubChallenge(expected: string | undefined, req: RawRequest): string | null {
  const mode = req.query['hub.mode'];
  const token = req.query['hub.verify_token'];
  const challenge = req.query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string' || !expected)
    return null;
  return same(token, expected) ? challenge : null;
}
