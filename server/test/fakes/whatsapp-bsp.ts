import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake WhatsApp business solution provider in the Gupshup Enterprise style (server/src/channels/whatsapp/bsp.ts
 * has the protocol): GET or POST /GatewayAPI/rest with `userid`/`password` in the query or form; OPT_IN and
 * SendMessage (TEXT, IMAGE, DOCUMENT); answers `{response:{status, id, details}}` (error 105 for wrong
 * credentials, 175 for a client outside the 24-hour session, 101 for a missing field), HTTP 429 with Retry-After
 * on demand. It posts inbound messages and delivery reports to the URL the admin gave it (`callbackUrl`), as form
 * fields (or JSON), unsigned. Files at /files/{id} are public links.
 */
export type FakeWhatsAppBsp = {
  baseUrl: string;
  login: string;
  password: string;
  /** The business number (digits). */
  waNumber: string;
  calls: Record<string, string>[];
  sent: { id: string; fields: Record<string, string> }[];
  /** Clients (digits) whose 24-hour session is over at the provider. */
  sessionEnded: Set<string>;
  /** Where it posts (the admin enters it in the provider's portal). */
  callbackUrl: string | null;
  reach: (url: string) => string;
  /** The next SendMessage/OPT_IN answers this HTTP status (429 with Retry-After: 30) or error code. */
  failNext(status: number, code?: string, times?: number): void;
  addFile(bytes: Uint8Array, contentType: string): string;
  /** Posts one callback as form fields (or JSON) to the callback URL, with `key` replaced when given. */
  deliver(fields: Record<string, string>, opts?: { json?: boolean; key?: string }): Promise<number>;
  message(mobile: string, fields: Record<string, string>, name?: string): Record<string, string>;
  dlr(externalId: string, eventType: string, cause?: string, errorCode?: string): Record<string, string>;
  close(): Promise<void>;
};

export async function startFakeWhatsAppBsp(): Promise<FakeWhatsAppBsp> {
  const files = new Map<string, { bytes: Buffer; type: string }>();
  const fails: { status: number; code?: string; times: number }[] = [];
  let n = 0;
  const fake: FakeWhatsAppBsp = {
    baseUrl: '',
    login: '2000190001',
    password: `pw${randomBytes(6).toString('hex')}`,
    waNumber: '919900112233',
    calls: [],
    sent: [],
    sessionEnded: new Set(),
    callbackUrl: null,
    reach: (url) => url,
    failNext(status, code, times = 1) {
      fails.push({ status, code, times });
    },
    addFile(bytes, type) {
      const id = randomBytes(8).toString('hex');
      files.set(id, { bytes: Buffer.from(bytes), type });
      return `${fake.baseUrl}/files/${id}`;
    },
    async deliver(fields, opts = {}) {
      if (!fake.callbackUrl) throw new Error('no callback URL entered');
      const url = new URL(fake.reach(fake.callbackUrl));
      if (opts.key !== undefined) url.searchParams.set('key', opts.key);
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': opts.json ? 'application/json' : 'application/x-www-form-urlencoded' },
        body: opts.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
      });
      await res.arrayBuffer();
      return res.status;
    },
    message(mobile, fields, name) {
      return {
        waNumber: fake.waNumber,
        mobile,
        messageId: `ABEGkZ${++n}${randomBytes(4).toString('hex')}`,
        timestamp: String(Date.now()),
        type: 'text',
        ...(name ? { name } : {}),
        ...fields,
      };
    },
    dlr(externalId, eventType, cause, errorCode) {
      return {
        externalId,
        eventType,
        eventTs: String(Date.now()),
        destAddr: fake.waNumber,
        ...(cause ? { cause } : {}),
        ...(errorCode ? { errorCode } : {}),
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const answer = (res: ServerResponse, status: number, response: Record<string, string>) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(status === 429 ? { 'retry-after': '30' } : {}),
    });
    res.end(JSON.stringify({ response }));
  };
  const error = (res: ServerResponse, id: string, details: string, status = 200) =>
    answer(res, status, { id, phone: '', details, status: 'error' });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const file = url.pathname.match(/^\/files\/(\w+)$/);
    if (req.method === 'GET' && file) {
      const f = files.get(file[1] ?? '');
      if (!f) return error(res, '404', 'not found', 404);
      res.writeHead(200, { 'content-type': f.type });
      return res.end(f.bytes);
    }
    if (url.pathname !== '/GatewayAPI/rest') return error(res, '404', 'not found', 404);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const p: Record<string, string> = Object.fromEntries(url.searchParams);
    Object.assign(p, Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    fake.calls.push(p);
    if (p.userid !== fake.login || p.password !== fake.password)
      return error(res, '105', 'Authentication failed due to invalid userId or password.');
    const fail = fails[0];
    if (fail) {
      if (--fail.times <= 0) fails.shift();
      if (fail.code) return error(res, fail.code, `failure ${fail.code}`, fail.status);
      return error(res, String(fail.status), 'Too many requests', fail.status);
    }
    const method = (p.method ?? '').toUpperCase();
    if (method === 'OPT_IN') {
      if (!/^\d{10,15}$/.test(p.phone_number ?? '')) return error(res, '101', 'phone_number is missing');
      return answer(res, 200, {
        id: `opt-${++n}`,
        phone: p.phone_number ?? '',
        details: '',
        status: 'success',
      });
    }
    if (method === 'SENDMESSAGE') {
      const to = p.send_to ?? '';
      if (!/^\d{8,15}$/.test(to)) return error(res, '101', 'send_to is invalid');
      const type = (p.msg_type ?? 'TEXT').toUpperCase();
      if (type === 'TEXT' && !p.msg) return error(res, '101', 'msg is missing');
      if ((type === 'IMAGE' || type === 'DOCUMENT') && !p.media_url)
        return error(res, '101', 'media_url is missing');
      if (!['TEXT', 'IMAGE', 'DOCUMENT'].includes(type)) return error(res, '101', 'msg_type is invalid');
      if (type === 'TEXT' && (p.msg ?? '').length > 4096) return error(res, '101', 'msg is too long');
      if (fake.sessionEnded.has(to))
        return error(res, '175', 'The 24-hour session with this user has expired');
      const id = `${Date.now()}${++n}`;
      fake.sent.push({ id, fields: p });
      return answer(res, 200, { id, phone: to, details: '', status: 'success' });
    }
    return error(res, '101', 'method is invalid');
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
