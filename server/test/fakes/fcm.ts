import { createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Google's OAuth 2.0 token endpoint and FCM HTTP v1 following their documents (docs/providers/push.md):
 * `POST /token` takes the JWT-bearer grant and verifies the RS256 assertion with the public part of the service
 * account's key (iss the account's e-mail, aud the token URL, the firebase.messaging scope, at most an hour long),
 * answering `{access_token, expires_in, token_type}` or 400 `invalid_grant`; `POST /v1/projects/{id}/messages:send`
 * needs `Authorization: Bearer` with a token it issued (else 401 UNAUTHENTICATED), checks the message's shape, and
 * answers `{name}` or FCM's documented error bodies (UNREGISTERED for a token told dead, scripted errors).
 */

export type FcmSent = {
  token: string;
  notification: { title: string; body: string };
  data?: Record<string, string>;
};
export type FcmFail = {
  status: number;
  /** FCM's ErrorCode in the FcmError detail (UNREGISTERED, QUOTA_EXCEEDED, INVALID_ARGUMENT...). */
  errorCode?: string;
  /** The RPC status (NOT_FOUND, UNAVAILABLE...). */
  rpcStatus?: string;
  retryAfter?: string;
  /** INVALID_ARGUMENT naming the token field (a malformed registration token). */
  tokenField?: boolean;
};

export type FakeFcm = {
  baseUrl: string;
  tokenUrl: string;
  /** A service account JSON key file the fake knows (its token_uri Google's; tests point FCM_TOKEN_URL here). */
  serviceAccount: string;
  projectId: string;
  /** A key file with this account's e-mail and another key: refused with invalid_grant. */
  wrongKeyAccount(): string;
  tokensIssued: number;
  sent: FcmSent[];
  calls: { path: string; status: number }[];
  /** Device tokens FCM no longer knows: sends to them answer 404 UNREGISTERED. */
  unregistered: Set<string>;
  failNext(f: FcmFail, times?: number): void;
  /** Makes every issued access token invalid (the next send is 401 until a new one is taken). */
  revokeTokens(): void;
  close(): Promise<void>;
};

const ERROR_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function accountJson(projectId: string, email: string, key: KeyObject): string {
  return JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: randomBytes(20).toString('hex'),
    private_key: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: email,
    client_id: '1234567890',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
  });
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

/** The claims of an RS256 JWT signed by `key`, or null. */
function verifiedClaims(jwt: string, key: KeyObject): Record<string, unknown> | null {
  const [h, c, s] = jwt.split('.');
  if (!h || !c || !s) return null;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
    if (header.alg !== 'RS256') return null;
    if (!verify('sha256', Buffer.from(`${h}.${c}`), key, Buffer.from(s, 'base64url'))) return null;
    return JSON.parse(Buffer.from(c, 'base64url').toString()) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export async function startFakeFcm(): Promise<FakeFcm> {
  const projectId = 'smartconnect-test-app';
  const email = `push@${projectId}.iam.gserviceaccount.com`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKey = createPublicKey(privateKey);
  const tokens = new Map<string, number>();
  const fails: FcmFail[] = [];
  let tokenUrl = '';
  const fake: FakeFcm = {
    baseUrl: '',
    tokenUrl: '',
    serviceAccount: accountJson(projectId, email, privateKey),
    projectId,
    wrongKeyAccount: () =>
      accountJson(projectId, email, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey),
    tokensIssued: 0,
    sent: [],
    calls: [],
    unregistered: new Set(),
    failNext(f, times = 1) {
      for (let i = 0; i < times; i++) fails.push(f);
    },
    revokeTokens() {
      tokens.clear();
    },
    close: () => new Promise((r) => server.close(() => r())),
  };

  const json = (res: ServerResponse, path: string, status: number, body: unknown, headers = {}) => {
    fake.calls.push({ path, status });
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const fcmError = (res: ServerResponse, path: string, f: FcmFail, message: string) =>
    json(
      res,
      path,
      f.status,
      {
        error: {
          code: f.status,
          message,
          status: f.rpcStatus ?? ERROR_STATUS[f.status] ?? 'UNKNOWN',
          details: [
            ...(f.errorCode
              ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: f.errorCode }]
              : []),
            ...(f.tokenField
              ? [
                  {
                    '@type': 'type.googleapis.com/google.rpc.BadRequest',
                    fieldViolations: [{ field: 'message.token', description: 'Invalid registration token' }],
                  },
                ]
              : []),
          ],
        },
      },
      f.retryAfter ? { 'retry-after': f.retryAfter } : {},
    );

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const text = await read(req);
    if (req.method === 'POST' && path === '/token') {
      const form = new URLSearchParams(text);
      const claims =
        form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer'
          ? verifiedClaims(form.get('assertion') ?? '', publicKey)
          : null;
      const now = Math.floor(Date.now() / 1000);
      const valid =
        claims &&
        claims.iss === email &&
        claims.aud === 'https://oauth2.googleapis.com/token' &&
        String(claims.scope ?? '')
          .split(' ')
          .includes('https://www.googleapis.com/auth/firebase.messaging') &&
        typeof claims.iat === 'number' &&
        typeof claims.exp === 'number' &&
        claims.exp > now &&
        claims.iat <= now + 60 &&
        claims.exp - claims.iat <= 3600;
      if (!valid)
        return json(res, path, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      const token = `ya29.${randomBytes(24).toString('base64url')}`;
      tokens.set(token, Date.now() + 3599_000);
      fake.tokensIssued++;
      return json(res, path, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }
    const send = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
    if (req.method === 'POST' && send) {
      const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const until = tokens.get(bearer);
      if (!until || until < Date.now())
        return fcmError(res, path, { status: 401 }, 'Request had invalid authentication credentials.');
      if (send[1] !== projectId)
        return fcmError(res, path, { status: 403, rpcStatus: 'PERMISSION_DENIED' }, 'Permission denied.');
      let message: Partial<FcmSent> = {};
      try {
        message = (JSON.parse(text) as { message?: Partial<FcmSent> }).message ?? {};
      } catch {
        return fcmError(res, path, { status: 400 }, 'Invalid JSON payload received.');
      }
      const data = message.data ?? {};
      if (
        typeof message.token !== 'string' ||
        !message.token ||
        typeof message.notification?.title !== 'string' ||
        typeof message.notification?.body !== 'string' ||
        Object.values(data).some((v) => typeof v !== 'string')
      )
        return fcmError(res, path, { status: 400, errorCode: 'INVALID_ARGUMENT' }, 'Invalid message.');
      const scripted = fails.shift();
      if (scripted)
        return fcmError(
          res,
          path,
          scripted,
          scripted.tokenField
            ? 'The registration token is not a valid FCM registration token'
            : 'Scripted failure.',
        );
      if (fake.unregistered.has(message.token))
        return fcmError(
          res,
          path,
          { status: 404, errorCode: 'UNREGISTERED', rpcStatus: 'NOT_FOUND' },
          'Requested entity was not found.',
        );
      fake.sent.push(message as FcmSent);
      return json(res, path, 200, {
        name: `projects/${projectId}/messages/${randomBytes(8).toString('hex')}`,
      });
    }
    json(res, path, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  fake.baseUrl = `http://127.0.0.1:${port}`;
  tokenUrl = `${fake.baseUrl}/token`;
  fake.tokenUrl = tokenUrl;
  return fake;
}
