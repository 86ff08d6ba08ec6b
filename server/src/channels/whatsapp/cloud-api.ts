import { FormData } from 'undici';
import type { AdapterContext } from '../types.ts';

/** The Graph API version our calls name (Cloud API paths are `/{version}/...`). */
export const GRAPH_VERSION = 'v21.0';

/** The Cloud API's address; tests point it at a fake (WHATSAPP_API_BASE_URL). */
export const baseUrl = (ctx: AdapterContext) =>
  (ctx.env.WHATSAPP_API_BASE_URL || 'https://graph.facebook.com').replace(/\/$/, '');

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
 * One Graph API call with the channel's access token: `path` after the version (`/{phone-number-id}/messages`),
 * a JSON body or a multipart form. Network failures throw.
 */
export async function callGraph<T>(
  ctx: AdapterContext,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown> | FormData,
): Promise<GraphAnswer<T>> {
  const json = body !== undefined && !(body instanceof FormData);
  const res = await ctx.outbound.fetch(`${baseUrl(ctx)}/${GRAPH_VERSION}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
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

/** Error codes that say "later": throttling (4, 80007), Cloud API rate limits (130429, 131056), outages (131000, 131016). */
const RETRY_LATER = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 133004]);

/** Whether a refused call is worth repeating later. */
export const retryable = (e: GraphError) => e.status === 429 || e.status >= 500 || RETRY_LATER.has(e.code);

/** Rate limits: the Cloud API says no Retry-After, so we wait a while. */
export const isRateLimit = (e: GraphError) =>
  e.status === 429 || e.code === 130429 || e.code === 131056 || e.code === 80007 || e.code === 4;

/** Outside the 24-hour customer service window (131047 'Re-engagement message'). */
export const WINDOW_CLOSED_CODE = 131047;
