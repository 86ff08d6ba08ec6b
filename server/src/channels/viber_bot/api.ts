import type { AdapterContext } from '../types.ts';

/** The REST Bot API's address; tests point it at a fake (VIBER_API_BASE_URL). */
export const baseUrl = (ctx: AdapterContext) =>
  (ctx.env.VIBER_API_BASE_URL || 'https://chatapi.viber.com').replace(/\/$/, '');

/** Viber's numeric ids (message_token) exceed 2^53: they are read as strings, never as numbers. */
export function parseViberJson(raw: Buffer | string): unknown {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  return JSON.parse(text.replace(/("message_token"\s*:\s*)(-?\d+)/g, '$1"$2"'));
}

/** Viber's answer codes (https://developers.viber.com/docs/api/rest-bot-api/#error-codes). */
export const VIBER_STATUS = {
  ok: 0,
  invalidAuthToken: 2,
  receiverNotRegistered: 5,
  receiverNotSubscribed: 6,
  publicAccountBlocked: 7,
  tooManyRequests: 12,
} as const;

export type ViberAnswer<T> =
  | { ok: true; result: T }
  | { ok: false; status: number; message: string; httpStatus: number };

/** One Bot API call (POST JSON with X-Viber-Auth-Token). Network failures throw. */
export async function callViber<T>(
  ctx: AdapterContext,
  token: string,
  method: string,
  body: Record<string, unknown> = {},
): Promise<ViberAnswer<T>> {
  const res = await ctx.outbound.fetch(`${baseUrl(ctx)}/pa/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-viber-auth-token': token },
    body: JSON.stringify(body),
  });
  let json: { status?: number; status_message?: string } & Record<string, unknown>;
  try {
    json = parseViberJson(res.body) as typeof json;
  } catch {
    return { ok: false, status: -1, message: `HTTP ${res.status}`, httpStatus: res.status };
  }
  if (res.status === 200 && json.status === VIBER_STATUS.ok) return { ok: true, result: json as T };
  return {
    ok: false,
    status: json.status ?? -1,
    message: json.status_message ?? `HTTP ${res.status}`,
    httpStatus: res.status,
  };
}
