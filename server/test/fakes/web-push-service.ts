import { createECDH, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/**
 * A fake push service (what a browser vendor runs), following RFC 8030 (push message delivery: `POST` to the
 * subscription's endpoint, a `TTL` header required, 201 Created), RFC 8292 (VAPID: `Authorization: vapid t=<JWT>,
 * k=<the server's P-256 public key>`, the JWT ES256-signed with `aud` the endpoint's origin, `exp` within 24 hours,
 * `sub` a mailto: or https: contact) and RFC 8291 / RFC 8188 (the body encrypted `aes128gcm` for the browser's
 * key pair and auth secret). Each `subscription()` is a fake browser: a real P-256 key pair and auth secret, the
 * public half handed to the server as PushSubscription.toJSON() gives it, the private half kept here to DECRYPT
 * what arrives. A request that breaks a rule answers 400/401/403 and is kept in `rejected`; an unknown endpoint 404.
 */
export type ReceivedPush = {
  subscriptionId: string;
  /** The decrypted body, parsed as JSON. */
  payload: unknown;
  /** The VAPID public key that signed it (k=). */
  vapidKey: string;
  claims: { aud: string; exp: number; sub: string };
  headers: Record<string, string | string[] | undefined>;
};

export type FakeBrowserSubscription = {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
};

export type FakePushService = {
  url: string;
  received: ReceivedPush[];
  rejected: string[];
  /** A new fake browser's subscription. */
  subscription(): FakeBrowserSubscription;
  /** The status the next requests to this subscription get instead of 201 (410, 404, 429, 500…); null: accept. */
  answer(subscriptionId: string, status: number | null): void;
  /** Waits until `n` pushes were received (all subscriptions), or fails after `ms`. */
  waitFor(n: number, ms?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
};

type Ece = { decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer };
// http_ece (a dependency of web-push) has no types of its own.
const ece = createRequire(import.meta.url)('http_ece') as Ece;

const b64u = (b: Buffer) => b.toString('base64url');

/** Verifies an ES256 JWT with a raw (uncompressed, 65 bytes) P-256 public key; answers its claims or null. */
function verifyJwt(token: string, rawKey: Buffer): Record<string, unknown> | null {
  const [h, p, s] = token.split('.');
  if (!h || !p || !s || rawKey.length !== 65 || rawKey[0] !== 4) return null;
  const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: string };
  if (header.alg !== 'ES256') return null;
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(rawKey.subarray(1, 33)), y: b64u(rawKey.subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  return ok ? (JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>) : null;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** `unref`: the fake does not keep the process alive (fixtures that never close it). */
export async function startFakePushService(opts: { unref?: boolean } = {}): Promise<FakePushService> {
  const browsers = new Map<
    string,
    { ecdh: ReturnType<typeof createECDH>; auth: Buffer; status: number | null }
  >();
  const waiters = new Set<() => void>();
  const fake: FakePushService = {
    url: '',
    received: [],
    rejected: [],
    subscription() {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      browsers.set(id, { ecdh, auth, status: null });
      return {
        id,
        endpoint: `${fake.url}/push/${id}`,
        keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) },
      };
    },
    answer(subscriptionId, status) {
      const b = browsers.get(subscriptionId);
      if (b) b.status = status;
    },
    waitFor(n, ms = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (fake.received.length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(fake.received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`push: ${fake.received.length} of ${n} received (${fake.rejected.join('; ')})`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const refuse = (res: ServerResponse, status: number, why: string) => {
    fake.rejected.push(why);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: status, errno: 109, error: why }));
  };

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const match = /^\/push\/([0-9a-f-]{36})$/.exec(req.url ?? '');
    const browser = match ? browsers.get(match[1]) : undefined;
    if (req.method !== 'POST' || !match || !browser)
      return refuse(res, 404, `unknown ${req.method} ${req.url}`);
    if (browser.status !== null) {
      res.writeHead(browser.status);
      return res.end();
    }
    if (!/^\d+$/.test(String(req.headers.ttl ?? ''))) return refuse(res, 400, 'TTL header missing');
    // RFC 8292 §3: Authorization: vapid t=<JWT>, k=<key>
    const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(req.headers.authorization ?? ''));
    if (!auth) return refuse(res, 401, `not a VAPID authorization: ${req.headers.authorization}`);
    const claims = verifyJwt(auth[1], Buffer.from(auth[2], 'base64url'));
    if (!claims) return refuse(res, 403, 'the JWT signature does not verify with k');
    const now = Math.floor(Date.now() / 1000);
    if (claims.aud !== fake.url) return refuse(res, 403, `aud ${claims.aud} is not ${fake.url}`);
    if (typeof claims.exp !== 'number' || claims.exp <= now || claims.exp > now + 24 * 3600)
      return refuse(res, 403, `exp ${claims.exp} is not within 24 hours`);
    if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
      return refuse(res, 403, `sub ${claims.sub} is not a mailto: or https: contact`);
    if (req.headers['content-encoding'] !== 'aes128gcm')
      return refuse(res, 400, `content-encoding ${req.headers['content-encoding']}`);
    let payload: unknown;
    try {
      const plain = ece.decrypt(body, {
        version: 'aes128gcm',
        privateKey: browser.ecdh,
        authSecret: b64u(browser.auth),
      });
      payload = JSON.parse(plain.toString('utf8'));
    } catch (err) {
      return refuse(res, 400, `the body does not decrypt: ${(err as Error).message}`);
    }
    fake.received.push({
      subscriptionId: match[1],
      payload,
      vapidKey: auth[2],
      claims: claims as ReceivedPush['claims'],
      headers: req.headers,
    });
    res.writeHead(201, { location: `${fake.url}/message/${randomUUID()}` });
    res.end();
    for (const w of [...waiters]) w();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  if (opts.unref) server.unref();
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
