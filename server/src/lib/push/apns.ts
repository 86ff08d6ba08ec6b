import { createHash, createPrivateKey, type KeyObject, randomUUID } from 'node:crypto';
import http2 from 'node:http2';
import { signJwt } from './jwt.ts';

/**
 * Apple Push Notification service over HTTP/2 with token-based (provider token) authentication
 * (docs/providers/push.md): `POST /3/device/{token}` with an ES256 JWT signed by the team's .p8 key. One HTTP/2
 * connection per key, reused for every push; the token is reused for up to 50 minutes and never renewed sooner than
 * 20 minutes after the last one (Apple refuses tokens renewed more often: TooManyProviderTokenUpdates).
 */

export const APNS_PRODUCTION = 'https://api.push.apple.com';
export const APNS_SANDBOX = 'https://api.sandbox.push.apple.com';
const TOKEN_REUSE_MS = 50 * 60_000;
const TOKEN_MIN_AGE_MS = 20 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** Apple's largest notification payload. */
export const APNS_PAYLOAD_MAX = 4096;
/** APNs 429 or 5xx: Apple sends no Retry-After; wait this long. */
const DEFAULT_WAIT_MS = 60_000;

/** An APNs authentication key (.p8: a PKCS#8 P-256 key) as a KeyObject, or null when it is not one. */
export function parseApnsKey(p8: string): KeyObject | null {
  try {
    const k = createPrivateKey(p8.trim());
    if (k.asymmetricKeyType !== 'ec' || k.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return null;
    return k;
  } catch {
    return null;
  }
}

export type ApnsCredentials = { key: string; keyId: string; teamId: string };

export type ApnsNotification = {
  deviceToken: string;
  /** The app's bundle id (apns-topic). */
  topic: string;
  title: string;
  body: string;
  /** Custom keys beside `aps`. */
  data?: Record<string, string>;
  /** 10 at once, 5 saving the device's power. */
  priority?: 10 | 5;
  /** Until when Apple keeps trying an offline device, epoch seconds; 0 once only. */
  expiration?: number;
  /** A UUID naming the notification (apns-id); Apple makes one when absent. */
  id?: string;
};

/**
 * What a push came to: `dead` the device token is not valid for this app (remove it), `retry` later, `auth` the key
 * was refused (InvalidProviderToken: the key, key id or team id is wrong), `invalid` the request was refused.
 */
export type ApnsResult =
  | { ok: true; apnsId: string }
  | {
      ok: false;
      kind: 'dead' | 'retry' | 'auth' | 'invalid';
      status: number;
      reason: string;
      message: string;
      retryAfterMs?: number;
    };

const DEAD = new Set(['BadDeviceToken', 'Unregistered', 'DeviceTokenNotForTopic', 'ExpiredToken']);
const AUTH = new Set(['InvalidProviderToken', 'MissingProviderToken', 'BadCertificate', 'Forbidden']);

/** Apple's documented status codes and reasons in our terms. */
export function classifyApns(status: number, reason: string): Exclude<ApnsResult, { ok: true }> {
  const fail = (kind: 'dead' | 'retry' | 'auth' | 'invalid', extra: { retryAfterMs?: number } = {}) =>
    ({ ok: false, kind, status, reason, message: `${status} ${reason || 'error'}`, ...extra }) as const;
  if (status === 410 || DEAD.has(reason)) return fail('dead');
  if (status === 429 || status >= 500) return fail('retry', { retryAfterMs: DEFAULT_WAIT_MS });
  if (AUTH.has(reason) || reason === 'TopicDisallowed' || reason === 'BadTopic') return fail('auth');
  if (reason === 'ExpiredProviderToken' || reason === 'TooManyProviderTokenUpdates')
    return fail('retry', { retryAfterMs: DEFAULT_WAIT_MS });
  return fail('invalid');
}

export type ApnsOptions = {
  /** https://api.push.apple.com, the sandbox, or (tests) an http:// base spoken as h2c. */
  baseUrl: string;
  now?: () => number;
};

type Answer = { status: number; headers: http2.IncomingHttpHeaders; body: string };

/** One key's APNs client: one HTTP/2 session, one provider token shared by every push. */
export class ApnsClient {
  readonly #creds: ApnsCredentials;
  readonly #key: KeyObject;
  readonly #opts: ApnsOptions;
  #token: { value: string; at: number } | null = null;
  #session: http2.ClientHttp2Session | null = null;
  /** Sessions opened (one unless the connection was lost), for tests and diagnostics. */
  connections = 0;

  constructor(creds: ApnsCredentials, opts: ApnsOptions) {
    const key = parseApnsKey(creds.key);
    if (!key) throw new Error('the APNs key is not a P-256 .p8 key');
    this.#creds = creds;
    this.#key = key;
    this.#opts = opts;
  }

  #now = () => (this.#opts.now ?? Date.now)();

  /**
   * The provider token: the current one while younger than 50 minutes, else a new one (`renew`: a new one if the
   * current is at least 20 minutes old, as after ExpiredProviderToken; null when it is too young to renew).
   */
  providerToken(renew = false): string | null {
    const now = this.#now();
    const age = this.#token ? now - this.#token.at : Number.POSITIVE_INFINITY;
    if (this.#token && !renew && age < TOKEN_REUSE_MS) return this.#token.value;
    if (renew && age < TOKEN_MIN_AGE_MS) return null;
    const value = signJwt(
      'ES256',
      this.#key,
      { iss: this.#creds.teamId, iat: Math.floor(now / 1000) },
      { kid: this.#creds.keyId },
    );
    this.#token = { value, at: now };
    return value;
  }

  #connect(): http2.ClientHttp2Session {
    if (this.#session && !this.#session.closed && !this.#session.destroyed) return this.#session;
    const session = http2.connect(this.#opts.baseUrl);
    this.connections++;
    const forget = () => {
      if (this.#session === session) this.#session = null;
    };
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    // An idle connection to Apple must not keep the process alive.
    session.unref();
    this.#session = session;
    return session;
  }

  #request(path: string, headers: Record<string, string>, payload: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = this.#connect().request({ ':method': 'POST', ':path': path, ...headers });
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.close(http2.constants.NGHTTP2_CANCEL));
      let answer: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      req.on('response', (h) => {
        answer = h;
      });
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        answer[':status']
          ? resolve({
              status: Number(answer[':status']),
              headers: answer,
              body: Buffer.concat(chunks).toString('utf8'),
            })
          : reject(new Error('APNs closed the stream without an answer')),
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Sends one alert; ExpiredProviderToken takes a new provider token once. Network errors are thrown. */
  async send(n: ApnsNotification): Promise<ApnsResult> {
    const payload = JSON.stringify({
      ...(n.data ?? {}),
      aps: { alert: { title: n.title, body: n.body }, sound: 'default' },
    });
    if (Buffer.byteLength(payload) > APNS_PAYLOAD_MAX) return classifyApns(413, 'PayloadTooLarge');
    let token = this.providerToken();
    for (let attempt = 0; ; attempt++) {
      const res = await this.#request(
        `/3/device/${encodeURIComponent(n.deviceToken)}`,
        {
          authorization: `bearer ${token}`,
          'apns-topic': n.topic,
          'apns-push-type': 'alert',
          'apns-priority': String(n.priority ?? 10),
          'apns-expiration': String(n.expiration ?? Math.floor(this.#now() / 1000) + 24 * 3600),
          'apns-id': n.id ?? randomUUID(),
          'content-type': 'application/json',
        },
        payload,
      );
      if (res.status === 200) return { ok: true, apnsId: String(res.headers['apns-id'] ?? '') };
      let reason = '';
      try {
        reason = String((JSON.parse(res.body) as { reason?: unknown }).reason ?? '');
      } catch {
        // no JSON body: the status says it
      }
      if (reason === 'ExpiredProviderToken' && attempt === 0) {
        const renewed = this.providerToken(true);
        if (renewed) {
          token = renewed;
          continue;
        }
      }
      return classifyApns(res.status, reason);
    }
  }

  /** Closes the connection (the channel's key changed, or the process ends). */
  close(): void {
    this.#session?.close();
    this.#session = null;
  }
}

/** A key naming one APNs key and server (to share one client, and its connection, between channels). */
export const apnsClientKey = (c: ApnsCredentials, baseUrl: string) =>
  createHash('sha256').update(`${c.keyId}\n${c.teamId}\n${c.key}\n${baseUrl}`).digest('hex');
