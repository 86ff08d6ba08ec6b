import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake regional Viber business delivery provider (server/src/channels/viber/api.ts has the protocol): HTTP Basic
 * on every call (401 otherwise), GET /v1/account with the account's services, PUT/DELETE the service's callback
 * (404 for a service of another account), POST /v1/messages to a phone (422 `not_viber_user` for a phone without
 * Viber, idempotent by externalId, 429 with Retry-After on demand). It posts inbound messages and delivery reports
 * to the callback, signed `X-Callback-Signature: sha256=<hex HMAC-SHA256(secret, body)>`. Files from /files/{id}
 * need the Basic credentials too.
 */
export type FakeViberBusiness = {
  baseUrl: string;
  login: string;
  password: string;
  serviceId: string;
  calls: { method: string; path: string; body: Record<string, unknown> }[];
  /** Accepted messages with the id answered. */
  sent: { messageId: string; body: Record<string, unknown> }[];
  callback: { url: string; secret: string } | null;
  /** Phones (digits) that have no Viber: sending to them is refused. */
  noViber: Set<string>;
  reach: (url: string) => string;
  failNext(path: string, status: number, code: string, times?: number): void;
  addFile(bytes: Uint8Array, contentType: string): string;
  /** Posts a callback to the registered URL signed with its secret (or `signature`; null for none). */
  deliver(event: Record<string, unknown>, signature?: string | null): Promise<number>;
  message(phone: string, fields: Record<string, unknown>, name?: string): Record<string, unknown>;
  status(messageId: string, status: string, reason?: string): Record<string, unknown>;
  close(): Promise<void>;
};

export async function startFakeViberBusiness(): Promise<FakeViberBusiness> {
  const files = new Map<string, { bytes: Buffer; type: string }>();
  const fails: { path: string; status: number; code: string; times: number }[] = [];
  const byExternal = new Map<string, string>();
  let n = 0;
  const fake: FakeViberBusiness = {
    baseUrl: '',
    login: 'shop-login',
    password: `pw-${randomBytes(6).toString('hex')}`,
    serviceId: 'shop_viber_01',
    calls: [],
    sent: [],
    callback: null,
    noViber: new Set(),
    reach: (url) => url,
    failNext(path, status, code, times = 1) {
      fails.push({ path, status, code, times });
    },
    addFile(bytes, type) {
      const id = randomBytes(8).toString('hex');
      files.set(id, { bytes: Buffer.from(bytes), type });
      return `${fake.baseUrl}/files/${id}`;
    },
    async deliver(event, signature) {
      if (!fake.callback) throw new Error('no callback registered');
      const raw = JSON.stringify(event);
      const sig =
        signature === undefined
          ? `sha256=${createHmac('sha256', fake.callback.secret).update(raw).digest('hex')}`
          : signature;
      const res = await fetch(fake.reach(fake.callback.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(sig === null ? {} : { 'x-callback-signature': sig }),
        },
        body: raw,
      });
      await res.arrayBuffer();
      return res.status;
    },
    message(phone, fields, name) {
      return {
        event: 'message',
        id: `in-${++n}-${randomBytes(3).toString('hex')}`,
        serviceId: fake.serviceId,
        phone,
        ...(name ? { name } : {}),
        receivedAt: new Date().toISOString(),
        ...fields,
      };
    },
    status(messageId, status, reason) {
      return {
        event: 'status',
        messageId,
        status,
        ...(reason ? { reason } : {}),
        at: new Date().toISOString(),
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}) =>
    json(res, status, { error: { code, message: code.replace(/_/g, ' ') } }, headers);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const expected = `Basic ${Buffer.from(`${fake.login}:${fake.password}`).toString('base64')}`;
    const authorised = req.headers.authorization === expected;
    const file = url.pathname.match(/^\/files\/(\w+)$/);
    if (req.method === 'GET' && file) {
      const f = files.get(file[1] ?? '');
      if (!authorised) return error(res, 401, 'unauthorized');
      if (!f) return error(res, 404, 'not_found');
      res.writeHead(200, { 'content-type': f.type });
      return res.end(f.bytes);
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    } catch {
      return error(res, 400, 'bad_json');
    }
    fake.calls.push({ method: req.method ?? '', path: url.pathname, body });
    if (!authorised) return error(res, 401, 'unauthorized');
    const fail = fails.find((f) => url.pathname.startsWith(f.path));
    if (fail) {
      if (--fail.times <= 0) fails.splice(fails.indexOf(fail), 1);
      return error(res, fail.status, fail.code, fail.status === 429 ? { 'retry-after': '30' } : {});
    }
    if (req.method === 'GET' && url.pathname === '/v1/account')
      return json(res, 200, {
        login: fake.login,
        balance: 1200.5,
        services: [{ id: fake.serviceId, name: 'Shop Viber business', status: 'active' }],
      });
    const cb = url.pathname.match(/^\/v1\/services\/([^/]+)\/callback$/);
    if (cb) {
      if (decodeURIComponent(cb[1] ?? '') !== fake.serviceId) return error(res, 404, 'service_not_found');
      if (req.method === 'DELETE') {
        fake.callback = null;
        return json(res, 200, { ok: true });
      }
      if (req.method === 'PUT') {
        if (typeof body.url !== 'string' || typeof body.secret !== 'string' || body.secret.length < 16)
          return error(res, 400, 'invalid_callback');
        fake.callback = { url: body.url, secret: body.secret };
        return json(res, 200, { ok: true });
      }
    }
    if (req.method === 'POST' && url.pathname === '/v1/messages') {
      if (body.serviceId !== fake.serviceId) return error(res, 404, 'service_not_found');
      const phone = String(body.phone ?? '');
      if (!/^\d{10,15}$/.test(phone)) return error(res, 400, 'invalid_phone');
      if (!body.text && !body.imageUrl) return error(res, 400, 'empty_message');
      if (typeof body.text === 'string' && body.text.length > 1000) return error(res, 400, 'text_too_long');
      if (fake.noViber.has(phone)) return error(res, 422, 'not_viber_user');
      const ext = typeof body.externalId === 'string' ? body.externalId : null;
      const again = ext && byExternal.get(ext);
      if (again) return json(res, 200, { messageId: again, duplicate: true });
      const messageId = `out-${++n}-${randomBytes(3).toString('hex')}`;
      if (ext) byExternal.set(ext, messageId);
      fake.sent.push({ messageId, body });
      return json(res, 200, { messageId });
    }
    return error(res, 404, 'not_found');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
