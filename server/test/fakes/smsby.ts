import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of SMS.by's API (docs/providers/viber-regional.md §3, `https://app.sms.by/api/v1/<method>`): the API key as
 * the `token` parameter (query, or a form field of a POST, as SMS.by's own PHP class sends it); `getVibernames` with
 * the account's Viber sender ids; `sendQuickViberMessage` (`phone`, `vibername_id`, `message`) answering
 * `{status: 'OK', result: {viber_id}}`. Errors as `{error: '…'}`; `failNext` answers HTTP 429 (Retry-After) or 5xx
 * without sending.
 */
export type FakeSmsBy = {
  baseUrl: string;
  login: string;
  token: string;
  viberNameId: string;
  calls: { method: string; path: string; params: Record<string, string> }[];
  sent: { viberId: string; params: Record<string, string> }[];
  failNext(method: string, status: number, times?: number): void;
  close(): Promise<void>;
};

export async function startFakeSmsBy(): Promise<FakeSmsBy> {
  const fails: { method: string; status: number; times: number }[] = [];
  let next = 90_000;
  const fake: FakeSmsBy = {
    baseUrl: '',
    login: 'shop@example.by',
    token: `tok${randomBytes(12).toString('hex')}`,
    viberNameId: '444',
    calls: [],
    sent: [],
    failNext(method, status, times = 1) {
      fails.push({ method, status, times });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const params = Object.fromEntries([
      ...url.searchParams,
      ...new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
    ]);
    const method = url.pathname.replace(/^\/api\/v1\//, '');
    fake.calls.push({ method: req.method ?? '', path: url.pathname, params });
    const fail = fails.find((f) => f.method === method);
    if (fail) {
      if (--fail.times <= 0) fails.splice(fails.indexOf(fail), 1);
      return json(
        res,
        fail.status,
        { error: 'Request limit exceeded' },
        fail.status === 429 ? { 'retry-after': '30' } : {},
      );
    }
    if (params.token !== fake.token) return json(res, 200, { error: 'Token not found' });
    if (method === 'getVibernames' && req.method === 'GET')
      return json(res, 200, { status: 'OK', result: [{ id: Number(fake.viberNameId), name: 'MyShop BY' }] });
    if (method === 'sendQuickViberMessage' && req.method === 'POST') {
      if (params.vibername_id !== fake.viberNameId) return json(res, 200, { error: 'Viber name not found' });
      if (!/^375\d{9}$/.test(params.phone ?? '')) return json(res, 200, { error: 'Incorrect phone number' });
      if (!params.message) return json(res, 200, { error: 'Message is empty' });
      const viberId = String(++next);
      fake.sent.push({ viberId, params });
      return json(res, 200, { status: 'OK', result: { viber_id: Number(viberId) } });
    }
    return json(res, 404, { error: 'Not found' });
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
