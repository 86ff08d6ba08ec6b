import { createHash } from 'node:crypto';
import type { FormData } from 'undici';
import type { AdapterChannel, AdapterContext } from '../types.ts';

/**
 * The Avito API client (docs/providers/avito.md): every call through the guarded outbound client, with a Bearer
 * token taken by client credentials (POST /token) and kept in memory per channel until shortly before it expires.
 * A 401 or 403 (Avito answers an expired token with 403, brief "Expiry and bad credentials") takes a new token once
 * and retries; a refused renewal is `tokenRefused`.
 */

/** Avito's address; tests point it at a fake (AVITO_API_BASE_URL). */
export const baseUrl = (ctx: AdapterContext) =>
  (ctx.env.AVITO_API_BASE_URL || 'https://api.avito.ru').replace(/\/$/, '');

/** How long to wait after a 429 that names no Retry-After (Avito documents none: our choice). */
export const RATE_LIMIT_WAIT_MS = 60_000;
/** A token is renewed once this share of its lifetime has passed (the brief: renew early, e.g. at 80%). */
const RENEW_AT = 0.8;
const MAX_TOKENS = 10_000;

export type Creds = { clientId: string; clientSecret: string };

/** A failed call, in our words. */
export type AvitoFailure = {
  ok: false;
  status: number;
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** The token endpoint refused the channel's credentials. */
  tokenRefused?: boolean;
};
export type AvitoAnswer<T> = { ok: true; result: T } | AvitoFailure;

type Cached = { token: string; renewAt: number; creds: string };
/** Tokens by channel id (process memory: a restart takes a new one, which is cheap). */
const TOKENS = new Map<string, Cached>();

const credsKey = (c: Creds) => createHash('sha256').update(`${c.clientId}\n${c.clientSecret}`).digest('hex');

/** The error text of an answer, whatever shape Avito used (`{error:{code,message}}`, `{message}`, OAuth's `error_description`). */
function messageOf(status: number, raw: Buffer): string {
  try {
    const j = JSON.parse(raw.toString('utf8')) as {
      error?: { message?: unknown; code?: unknown } | string;
      error_description?: unknown;
      message?: unknown;
    };
    if (typeof j.error === 'object' && j.error && typeof j.error.message === 'string') return j.error.message;
    if (typeof j.error_description === 'string') return j.error_description;
    if (typeof j.error === 'string') return j.error;
    if (typeof j.message === 'string') return j.message;
  } catch {
    // not JSON
  }
  return `HTTP ${status}`;
}

/** Retry-After in seconds or as a date; undefined when absent or unreadable. */
function retryAfterOf(headers: Headers): number | undefined {
  const h = headers.get('retry-after');
  if (!h) return undefined;
  const s = Number(h);
  if (Number.isFinite(s) && s >= 0) return Math.ceil(s * 1000);
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function failure(status: number, headers: Headers, raw: Buffer): AvitoFailure {
  const message = `${status}: ${messageOf(status, raw)}`;
  if (status === 429)
    return {
      ok: false,
      status,
      message,
      retryable: true,
      retryAfterMs: retryAfterOf(headers) ?? RATE_LIMIT_WAIT_MS,
    };
  return { ok: false, status, message, retryable: status >= 500 || status === 408 };
}

/**
 * A new token by client credentials (form-encoded, without the trailing slash: our client follows no redirect).
 * A 4xx answer is refused credentials (Avito does not document which: brief "Open questions" 5); network failures throw.
 */
export async function takeToken(
  ctx: AdapterContext,
  creds: Creds,
): Promise<AvitoAnswer<{ token: string; expiresIn: number }>> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: creds.clientId,
    client_secret: creds.clientSecret,
  });
  const res = await ctx.outbound.fetch(`${baseUrl(ctx)}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
  });
  if (res.status === 200) {
    try {
      const j = JSON.parse(res.body.toString('utf8')) as { access_token?: unknown; expires_in?: unknown };
      if (typeof j.access_token === 'string' && j.access_token)
        return {
          ok: true,
          result: {
            token: j.access_token,
            // The answer's lifetime (the brief: never a hard-coded 24 h); 1 hour when it names none (our choice).
            expiresIn: typeof j.expires_in === 'number' && j.expires_in > 0 ? j.expires_in : 3600,
          },
        };
    } catch {
      // fall through
    }
    return { ok: false, status: 200, message: 'token answer without access_token', retryable: true };
  }
  const f = failure(res.status, res.headers, res.body);
  if (res.status >= 400 && res.status < 500 && res.status !== 429) f.tokenRefused = true;
  return f;
}

/** The channel's token: the cached one while fresh, else a new one (cached). */
async function tokenOf(
  ctx: AdapterContext,
  key: string,
  creds: Creds,
  fresh = false,
): Promise<AvitoAnswer<string>> {
  const ck = credsKey(creds);
  const hit = TOKENS.get(key);
  if (!fresh && hit && hit.creds === ck && hit.renewAt > Date.now()) return { ok: true, result: hit.token };
  const got = await takeToken(ctx, creds);
  if (!got.ok) return got;
  if (TOKENS.size >= MAX_TOKENS) TOKENS.delete(TOKENS.keys().next().value as string);
  TOKENS.set(key, {
    token: got.result.token,
    renewAt: Date.now() + got.result.expiresIn * 1000 * RENEW_AT,
    creds: ck,
  });
  return { ok: true, result: got.result.token };
}

/** Seeds the cache with a token just taken (connect), so the first calls reuse it. */
export function rememberToken(key: string, creds: Creds, token: string, expiresIn: number) {
  TOKENS.set(key, { token, renewAt: Date.now() + expiresIn * 1000 * RENEW_AT, creds: credsKey(creds) });
}

/** Forgets a channel's token (disconnected). */
export const forgetToken = (key: string) => TOKENS.delete(key);

export const credsOf = (channel: AdapterChannel): Creds => ({
  clientId: channel.secrets.clientId ?? '',
  clientSecret: channel.secrets.clientSecret ?? '',
});

export type CallInit = { method?: 'GET' | 'POST'; json?: unknown; form?: FormData };

/**
 * One API call with the channel's token (`key`: the channel's id): JSON answers parsed (an empty body is `{}`); a
 * 401/403 takes a new token once and retries. Network failures throw.
 */
export async function callAvito<T>(
  ctx: AdapterContext,
  key: string,
  creds: Creds,
  path: string,
  init: CallInit = {},
): Promise<AvitoAnswer<T>> {
  let retried = false;
  for (;;) {
    const token = await tokenOf(ctx, key, creds, retried);
    if (!token.ok) return token;
    const headers: Record<string, string> = {
      authorization: `Bearer ${token.result}`,
      accept: 'application/json',
    };
    let body: string | FormData | undefined;
    if (init.form) body = init.form;
    else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await ctx.outbound.fetch(`${baseUrl(ctx)}${path}`, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
    });
    if ((res.status === 401 || res.status === 403) && !retried) {
      retried = true;
      continue;
    }
    if (res.status < 200 || res.status >= 300) return failure(res.status, res.headers, res.body);
    const text = res.body.toString('utf8').trim();
    if (!text) return { ok: true, result: {} as T };
    try {
      return { ok: true, result: JSON.parse(text) as T };
    } catch {
      return { ok: false, status: res.status, message: 'answer is not JSON', retryable: true };
    }
  }
}

/** `GET /core/v1/accounts/self` (getUserInfoSelf): the account's `id` is the user_id of every Messenger path. */
export type AvitoSelf = { id?: number | string; name?: string; profile_url?: string };

/** The chat object's parts we read (getChatByIdV2). */
export type AvitoChat = {
  id?: string;
  context?: { type?: string; value?: { id?: number | string; title?: string; url?: string } };
  users?: { id?: number | string; name?: string }[];
};

/** One chat by its id (GET /messenger/v2/accounts/{user_id}/chats/{chat_id}). */
export const getChat = (ctx: AdapterContext, channel: AdapterChannel, chatId: string) =>
  callAvito<AvitoChat>(
    ctx,
    channel.id,
    credsOf(channel),
    `/messenger/v2/accounts/${channel.settings.userId}/chats/${encodeURIComponent(chatId)}`,
  );
