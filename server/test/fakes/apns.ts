import { createPublicKey, generateKeyPairSync, type KeyObject, randomUUID, verify } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Apple's APNs provider API following "Sending notification requests to APNs" (docs/providers/push.md),
 * spoken as h2c (HTTP/2 without TLS; the client takes an http:// base for tests). `POST /3/device/{token}` needs
 * `authorization: bearer <JWT>` signed ES256 by the key whose public part the fake holds (header `kid` the key id,
 * `iss` the team id, `iat` within the hour, else 403 InvalidProviderToken / ExpiredProviderToken), `apns-topic` the
 * bundle id (400 MissingTopic / 400 BadTopic... DeviceTokenNotForTopic), `apns-push-type`, a 64-hex device token
 * (400 BadDeviceToken), a JSON payload with `aps` at most 4 KB (413 PayloadTooLarge); a token told unregistered
 * answers 410 Unregistered with a timestamp. 200 carries `apns-id`. Errors can be scripted.
 */

export type ApnsSent = {
  deviceToken: string;
  headers: Record<string, string>;
  payload: Record<string, unknown>;
};
export type ApnsFail = { status: number; reason: string };

export type FakeApns = {
  baseUrl: string;
  /** The .p8 key (PKCS#8 PEM) and its ids. */
  p8: string;
  keyId: string;
  teamId: string;
  bundleId: string;
  sent: ApnsSent[];
  calls: { path: string; status: number; reason?: string }[];
  /** HTTP/2 connections accepted. */
  connections: number;
  unregistered: Set<string>;
  /** Provider tokens issued before this time (epoch seconds) are expired. */
  expireTokensIssuedBefore: number;
  failNext(f: ApnsFail, times?: number): void;
  /** A device token as iOS hands it to an app (32 bytes, hex). */
  deviceToken(): string;
  close(): Promise<void>;
};

function claimsOf(jwt: string, key: KeyObject, keyId: string): Record<string, unknown> | null {
  const [h, c, s] = jwt.split('.');
  if (!h || !c || !s) return null;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string; kid?: string };
    if (header.alg !== 'ES256' || header.kid !== keyId) return null;
    const ok = verify(
      'sha256',
      Buffer.from(`${h}.${c}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(s, 'base64url'),
    );
    return ok ? (JSON.parse(Buffer.from(c, 'base64url').toString()) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function startFakeApns(): Promise<FakeApns> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const publicKey = createPublicKey(privateKey);
  const fails: ApnsFail[] = [];
  const fake: FakeApns = {
    baseUrl: '',
    p8: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    keyId: 'ABC123DEFG',
    teamId: 'DEF123GHIJ',
    bundleId: 'com.example.shop',
    sent: [],
    calls: [],
    connections: 0,
    unregistered: new Set(),
    expireTokensIssuedBefore: 0,
    failNext(f, times = 1) {
      for (let i = 0; i < times; i++) fails.push(f);
    },
    deviceToken: () => randomUUID().replace(/-/g, '') + randomUUID().replace(/-/g, ''),
    close: () =>
      new Promise((r) => {
        for (const s of sessions) s.destroy();
        server.close(() => r());
      }),
  };
  const sessions = new Set<http2.ServerHttp2Session>();
  const server = http2.createServer();
  server.on('session', (s) => {
    fake.connections++;
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  server.on('stream', (stream, headers) => {
    const path = String(headers[':path'] ?? '');
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const answer = (status: number, reason?: string, extra: Record<string, string | number> = {}) => {
        fake.calls.push({ path, status, reason });
        const id = String(headers['apns-id'] ?? randomUUID());
        stream.respond({
          ':status': status,
          'apns-id': id,
          ...(reason ? { 'content-type': 'application/json' } : {}),
        });
        stream.end(reason ? JSON.stringify({ reason, ...extra }) : undefined);
      };
      const device = /^\/3\/device\/([^/?]+)$/.exec(path)?.[1];
      if (headers[':method'] !== 'POST') return answer(405, 'MethodNotAllowed');
      if (!device) return answer(404, 'BadPath');
      const auth = /^bearer (\S+)$/i.exec(String(headers.authorization ?? ''))?.[1];
      if (!auth) return answer(403, 'MissingProviderToken');
      const claims = claimsOf(auth, publicKey, fake.keyId);
      if (!claims || claims.iss !== fake.teamId || typeof claims.iat !== 'number')
        return answer(403, 'InvalidProviderToken');
      const now = Math.floor(Date.now() / 1000);
      if (claims.iat < fake.expireTokensIssuedBefore || now - claims.iat > 3600)
        return answer(403, 'ExpiredProviderToken');
      const topic = headers['apns-topic'];
      if (!topic) return answer(400, 'MissingTopic');
      if (topic !== fake.bundleId) return answer(400, 'DeviceTokenNotForTopic');
      const pushType = String(headers['apns-push-type'] ?? '');
      if (
        !['alert', 'background', 'voip', 'location', 'complication', 'fileprovider', 'mdm'].includes(pushType)
      )
        return answer(400, 'InvalidPushType');
      if (!/^[0-9a-f]{64}$/i.test(device)) return answer(400, 'BadDeviceToken');
      const body = Buffer.concat(chunks);
      if (body.length > 4096) return answer(413, 'PayloadTooLarge');
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        return answer(400, 'PayloadEmpty');
      }
      if (!payload || typeof payload.aps !== 'object') return answer(400, 'PayloadEmpty');
      const scripted = fails.shift();
      if (scripted) return answer(scripted.status, scripted.reason);
      if (fake.unregistered.has(device)) return answer(410, 'Unregistered', { timestamp: Date.now() });
      const kept: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (!k.startsWith(':')) kept[k] = String(v);
      fake.sent.push({ deviceToken: device, headers: kept, payload });
      answer(200);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
