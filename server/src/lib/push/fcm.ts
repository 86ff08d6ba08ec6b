import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import { signJwt } from './jwt.ts';

/**
 * Firebase Cloud Messaging, HTTP v1 (docs/providers/push.md): a service account's key makes an OAuth 2.0 access
 * token by the JWT-bearer grant (RFC 7523), kept until shortly before it expires; each push is one POST of
 * `{message: {token, notification, data}}` to `/v1/projects/{project_id}/messages:send`.
 */

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
export const FCM_API_BASE = 'https://fcm.googleapis.com';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** An access token is renewed this long before Google says it expires. */
const RENEW_BEFORE_MS = 5 * 60_000;
/** The assertion's lifetime: Google takes at most an hour. */
const ASSERTION_SECONDS = 3600;
/** Google's 429 or 5xx without a Retry-After: wait this long (its documents ask for backoff, at least 10 s). */
const DEFAULT_WAIT_MS = 60_000;

/** The fields of a service account's JSON key file that FCM needs. */
export type ServiceAccount = {
  project_id: string;
  client_email: string;
  private_key: string;
  token_uri: string;
};

/**
 * The service account in a JSON key file's text, or a reason it is not one (not JSON, not a service account, a field
 * missing, a private key that is not an RSA PEM key).
 */
export function parseServiceAccount(
  text: string,
): { ok: true; account: ServiceAccount } | { ok: false; reason: string } {
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (!j || typeof j !== 'object' || Array.isArray(j)) return { ok: false, reason: 'not a JSON object' };
  if (j.type !== undefined && j.type !== 'service_account')
    return { ok: false, reason: 'not a service account' };
  const str = (k: string) =>
    typeof j[k] === 'string' && (j[k] as string).trim() ? (j[k] as string).trim() : null;
  const projectId = str('project_id');
  const email = str('client_email');
  const key = typeof j.private_key === 'string' ? j.private_key : null;
  if (!projectId || !/^[a-z][a-z0-9-]{4,61}[a-z0-9]$/.test(projectId))
    return { ok: false, reason: 'project_id' };
  if (!email?.includes('@')) return { ok: false, reason: 'client_email' };
  if (!key || !rsaKey(key)) return { ok: false, reason: 'private_key' };
  const tokenUri = str('token_uri') ?? GOOGLE_TOKEN_URL;
  if (!tokenUri.startsWith('https://')) return { ok: false, reason: 'token_uri' };
  return {
    ok: true,
    account: { project_id: projectId, client_email: email, private_key: key, token_uri: tokenUri },
  };
}

function rsaKey(pem: string): KeyObject | null {
  try {
    const k = createPrivateKey(pem);
    return k.asymmetricKeyType === 'rsa' ? k : null;
  } catch {
    return null;
  }
}

/** A request as the server's guarded client makes it (lib/outbound.ts `fetch`). */
export type PushFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
) => Promise<{ status: number; headers: Headers; body: Buffer }>;

/** The token endpoint refused the service account (a wrong or revoked key, an unknown account). */
export class FcmAuthError extends Error {
  override name = 'FcmAuthError';
}

export type FcmMessage = { token: string; title: string; body: string; data?: Record<string, string> };

/**
 * What a send came to: `dead` the device token is no longer valid (remove it), `retry` try again later (after
 * `retryAfterMs`), `auth` the project refused our credentials, `invalid` the message itself was refused.
 */
export type FcmResult =
  | { ok: true; name: string }
  | {
      ok: false;
      kind: 'dead' | 'retry' | 'auth' | 'invalid';
      status: number;
      /** FCM's error code (`UNREGISTERED`, `QUOTA_EXCEEDED`...) or the RPC status. */
      code: string;
      message: string;
      retryAfterMs?: number;
    };

type ErrorBody = {
  error?: {
    status?: string;
    message?: string;
    details?: { '@type'?: string; errorCode?: string; fieldViolations?: { field?: string }[] }[];
  };
};

function readError(raw: Buffer) {
  let e: ErrorBody['error'] = {};
  try {
    e = (JSON.parse(raw.toString('utf8')) as ErrorBody).error ?? {};
  } catch {
    // not JSON: the HTTP status says it
  }
  const details = Array.isArray(e.details) ? e.details : [];
  const fcmCode = details.find((d) => typeof d?.errorCode === 'string')?.errorCode;
  const tokenField = details.some((d) => d?.fieldViolations?.some((f) => f?.field === 'message.token'));
  return { code: fcmCode ?? e.status ?? '', message: e.message ?? '', tokenField };
}

/** Retry-After in seconds or as an HTTP date. */
export function retryAfterOf(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const s = Number(header);
  if (Number.isFinite(s) && s >= 0) return Math.ceil(s * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** FCM's documented errors (ErrorCode) in our terms. */
export function classifyFcm(status: number, raw: Buffer, retryAfter: string | null, now: number): FcmResult {
  const { code, message, tokenField } = readError(raw);
  const words = `${status} ${code || 'error'}${message ? `: ${message}` : ''}`;
  const fail = (kind: 'dead' | 'retry' | 'auth' | 'invalid', extra: { retryAfterMs?: number } = {}) =>
    ({ ok: false, kind, status, code: code || `HTTP_${status}`, message: words, ...extra }) as const;
  if (code === 'UNREGISTERED' || status === 404) return fail('dead');
  // The token belongs to another Firebase project: it can never be ours.
  if (code === 'SENDER_ID_MISMATCH') return fail('dead');
  if (code === 'INVALID_ARGUMENT' || status === 400)
    return tokenField || /registration token|message\.token/i.test(message) ? fail('dead') : fail('invalid');
  if (status === 429 || code === 'QUOTA_EXCEEDED' || status >= 500)
    return fail('retry', { retryAfterMs: retryAfterOf(retryAfter, now) ?? DEFAULT_WAIT_MS });
  // APNs or web push credentials in the Firebase project are wrong: the project's setup, not ours to retry.
  if (code === 'THIRD_PARTY_AUTH_ERROR') return fail('invalid');
  if (status === 401 || status === 403) return fail('auth');
  return fail('invalid');
}

export type FcmOptions = {
  fetch: PushFetch;
  /** FCM's base (FCM_API_BASE_URL), default fcm.googleapis.com. */
  apiBase?: string;
  /** The token endpoint instead of the account's token_uri (FCM_TOKEN_URL, tests). */
  tokenUrl?: string;
  now?: () => number;
  /** Where the access token is kept, to share it between clients of the same account (one per request context). */
  cache?: FcmTokenCache;
};

/** A service account's access token, kept until `renewAt` (epoch ms). */
export type FcmTokenCache = { token: { value: string; renewAt: number } | null };

/** One service account's FCM client: its access token is shared by every send until shortly before it expires. */
export class FcmClient {
  readonly #account: ServiceAccount;
  readonly #key: KeyObject;
  readonly #opts: FcmOptions;
  readonly #cache: FcmTokenCache;
  #pending: Promise<string> | null = null;

  constructor(account: ServiceAccount, opts: FcmOptions) {
    const key = rsaKey(account.private_key);
    if (!key) throw new FcmAuthError('the private key is not an RSA key');
    this.#account = account;
    this.#key = key;
    this.#opts = opts;
    this.#cache = opts.cache ?? { token: null };
  }

  #now = () => (this.#opts.now ?? Date.now)();

  /** The token endpoint this client asks. */
  get tokenUrl(): string {
    return this.#opts.tokenUrl || this.#account.token_uri;
  }

  /**
   * An access token: the cached one, or a new one from the token endpoint (`fresh`: never the cached one). Throws
   * FcmAuthError when the endpoint refuses the account, any other error when it cannot be reached.
   */
  accessToken(fresh = false): Promise<string> {
    const cached = this.#cache.token;
    if (!fresh && cached && cached.renewAt > this.#now()) return Promise.resolve(cached.value);
    if (fresh) this.#cache.token = null;
    this.#pending ??= this.#fetchToken().finally(() => {
      this.#pending = null;
    });
    return this.#pending;
  }

  async #fetchToken(): Promise<string> {
    const iat = Math.floor(this.#now() / 1000);
    const assertion = signJwt('RS256', this.#key, {
      iss: this.#account.client_email,
      scope: FCM_SCOPE,
      aud: this.#account.token_uri,
      iat,
      exp: iat + ASSERTION_SECONDS,
    });
    const res = await this.#opts.fetch(this.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
    });
    let j: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } =
      {};
    try {
      j = JSON.parse(res.body.toString('utf8'));
    } catch {
      // not JSON
    }
    if (res.status === 400 || res.status === 401 || res.status === 403)
      throw new FcmAuthError(
        `${res.status} ${String(j.error ?? '')} ${String(j.error_description ?? '')}`.trim(),
      );
    if (res.status !== 200 || typeof j.access_token !== 'string')
      throw new Error(`token endpoint answered ${res.status}`);
    const seconds = typeof j.expires_in === 'number' && j.expires_in > 0 ? j.expires_in : 3600;
    this.#cache.token = {
      value: j.access_token,
      renewAt: this.#now() + Math.max(seconds * 1000 - RENEW_BEFORE_MS, (seconds * 1000) / 2),
    };
    return j.access_token;
  }

  /** Sends one notification; a 401 takes a new access token once. Network errors are thrown. */
  async send(m: FcmMessage): Promise<FcmResult> {
    const url = `${(this.#opts.apiBase || FCM_API_BASE).replace(/\/$/, '')}/v1/projects/${encodeURIComponent(this.#account.project_id)}/messages:send`;
    const body = JSON.stringify({
      message: {
        token: m.token,
        notification: { title: m.title, body: m.body },
        ...(m.data && Object.keys(m.data).length ? { data: m.data } : {}),
      },
    });
    for (let attempt = 0; ; attempt++) {
      let token: string;
      try {
        token = await this.accessToken(attempt > 0);
      } catch (err) {
        if (err instanceof FcmAuthError)
          return { ok: false, kind: 'auth', status: 401, code: 'invalid_grant', message: err.message };
        throw err;
      }
      const res = await this.#opts.fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
        body,
      });
      if (res.status === 200) {
        let name = '';
        try {
          name = String((JSON.parse(res.body.toString('utf8')) as { name?: unknown }).name ?? '');
        } catch {
          // FCM always names the message; an answer without it is still a success
        }
        return { ok: true, name };
      }
      const result = classifyFcm(res.status, res.body, res.headers.get('retry-after'), this.#now());
      if (res.status === 401 && attempt === 0 && !result.ok && result.kind === 'auth') continue;
      return result;
    }
  }
}

/** A key naming one service account's credentials (to share one client between channels of the same account). */
export const serviceAccountKey = (a: ServiceAccount) =>
  createHash('sha256')
    .update(`${a.client_email}\n${a.private_key}\n${a.project_id}\n${a.token_uri}`)
    .digest('hex');
