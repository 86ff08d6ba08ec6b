import type { ViberRegion } from '@smartconnect/contracts';
import { retryAfterMs } from '../../lib/outbound.ts';
import type { AdapterChannel, AdapterContext } from '../types.ts';

/**
 * Viber business messages through one real provider per region (docs/providers/viber-regional.md, DECISIONS.md
 * "Regional Viber providers"):
 * - Russia: Devino Telecom's Viber HTTP API (§1a, `https://viber.devinotele.com:444`): HTTP Basic with the cabinet's
 *   login and password, JSON `POST /send` and `POST /status`, inbound replies POSTed by Devino to an address its
 *   support sets up.
 * - Belarus: SMS.by's API (§3, `https://app.sms.by/api/v1/<method>`): the API key as the `token` parameter.
 * The base URLs can be pointed elsewhere (tests: the fakes) with DEVINO_VIBER_API_BASE_URL and SMSBY_API_BASE_URL.
 */
export const PROVIDERS: Record<ViberRegion, { env: string; defaultUrl: string }> = {
  ru: { env: 'DEVINO_VIBER_API_BASE_URL', defaultUrl: 'https://viber.devinotele.com:444' },
  by: { env: 'SMSBY_API_BASE_URL', defaultUrl: 'https://app.sms.by' },
};

export const regionOf = (settings: Record<string, unknown>): ViberRegion =>
  settings.region === 'by' ? 'by' : 'ru';

export const baseUrlOf = (ctx: AdapterContext, region: ViberRegion): string =>
  (ctx.env[PROVIDERS[region].env] || PROVIDERS[region].defaultUrl).replace(/\/$/, '');

export type Credentials = { login: string; password: string };

export const credentialsOf = (channel: AdapterChannel): Credentials => ({
  login: String(channel.settings.login ?? ''),
  password: channel.secrets.password ?? '',
});

/** A call's answer: the parsed JSON body whatever the HTTP status (both providers put their error codes there). */
export type ProviderAnswer = {
  status: number;
  json: Record<string, unknown>;
  retryAfterMs?: number;
};

/**
 * Devino's ids (`providerId`, an inbound `id` and `parentId`) are 64-bit integers written as JSON numbers (§1a
 * example: 3158611117333282816), past what a JavaScript number holds exactly: they are read as strings.
 */
export function parseBigIdJson(text: string): unknown {
  return JSON.parse(text.replace(/("(?:providerId|parentId|id)"\s*:\s*)(-?\d{16,})/g, '$1"$2"'));
}

const parsed = (body: Buffer): Record<string, unknown> => {
  try {
    const json = body.length ? parseBigIdJson(body.toString('utf8')) : {};
    // A bare list (how SMS.by answers some lists is not documented) is read as `result`.
    if (Array.isArray(json)) return { result: json };
    return json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** One Devino call (JSON body already written: ids go out as bare numbers). Network failures throw. */
export async function callDevino(
  ctx: AdapterContext,
  c: Credentials,
  path: '/send' | '/status',
  body: string,
  signal?: AbortSignal,
): Promise<ProviderAnswer> {
  const res = await ctx.outbound.fetch(`${baseUrlOf(ctx, 'ru')}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${c.login}:${c.password}`, 'utf8').toString('base64')}`,
      'content-type': 'application/json; charset=utf-8',
      accept: 'application/json',
    },
    body,
    ...(signal ? { signal } : {}),
  });
  const wait = retryAfterMs(res.headers.get('retry-after'));
  return { status: res.status, json: parsed(res.body), ...(wait ? { retryAfterMs: wait } : {}) };
}

/**
 * One SMS.by call: `GET /api/v1/<method>?token=…` or a form-encoded POST with `token` among the fields, as SMS.by's
 * own PHP class sends them (§3 S4). Network failures throw.
 */
export async function callSmsBy(
  ctx: AdapterContext,
  token: string,
  method: string,
  params: Record<string, string> = {},
  verb: 'GET' | 'POST' = 'GET',
): Promise<ProviderAnswer> {
  const query = new URLSearchParams({ token, ...params }).toString();
  const url = `${baseUrlOf(ctx, 'by')}/api/v1/${method}`;
  const res = await ctx.outbound.fetch(verb === 'GET' ? `${url}?${query}` : url, {
    method: verb,
    headers: {
      accept: 'application/json',
      ...(verb === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(verb === 'POST' ? { body: query } : {}),
  });
  const wait = retryAfterMs(res.headers.get('retry-after'));
  return { status: res.status, json: parsed(res.body), ...(wait ? { retryAfterMs: wait } : {}) };
}

/** SMS.by answers an error as `{"error": "…"}` (§3 S3, S4), or an HTTP status 400/404/421/429/500 (S2). */
export const smsByError = (a: ProviderAnswer): string | null => {
  if (typeof a.json.error === 'string' && a.json.error) return a.json.error;
  if (a.json.error && typeof a.json.error === 'object') return JSON.stringify(a.json.error);
  if (a.status < 200 || a.status >= 300) return `HTTP ${a.status}`;
  return null;
};
