import { FormData } from 'undici';
import type { AdapterContext } from '../types.ts';

/** The Bot API's address; tests point it at a fake (TELEGRAM_API_BASE_URL). */
export const baseUrl = (ctx: AdapterContext) =>
  (ctx.env.TELEGRAM_API_BASE_URL || 'https://api.telegram.org').replace(/\/$/, '');

/** An answer of the Bot API: `result` when ok, else its error code, description and retry_after. */
export type BotAnswer<T> =
  | { ok: true; result: T }
  | { ok: false; status: number; description: string; retryAfter?: number };

/** Calls one Bot API method with JSON parameters or a multipart form (file uploads). Network failures throw. */
export async function callBot<T>(
  ctx: AdapterContext,
  token: string,
  method: string,
  params: Record<string, unknown> | FormData = {},
  /** A long poll (getUpdates): how long Telegram may hold the answer, and the session's end. */
  held?: { heldMs: number; signal: AbortSignal; maxBytes: number },
): Promise<BotAnswer<T>> {
  const form = params instanceof FormData;
  const res = await ctx.outbound.fetch(`${baseUrl(ctx)}/bot${token}/${method}`, {
    method: 'POST',
    headers: form ? undefined : { 'content-type': 'application/json' },
    body: form ? params : JSON.stringify(params),
    ...held,
  });
  let json: {
    ok?: boolean;
    result?: T;
    error_code?: number;
    description?: string;
    parameters?: { retry_after?: number };
  };
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    return { ok: false, status: res.status, description: `HTTP ${res.status}` };
  }
  if (json.ok) return { ok: true, result: json.result as T };
  return {
    ok: false,
    status: json.error_code ?? res.status,
    description: json.description ?? `HTTP ${res.status}`,
    retryAfter: json.parameters?.retry_after,
  };
}
