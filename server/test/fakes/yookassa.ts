import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of the YooKassa API v3 (https://yookassa.ru/developers/api), following its documents:
 * POST /v3/payments with Basic auth (shop id : secret key) and a required Idempotence-Key header (the same key
 * answers the same payment), a redirect confirmation whose confirmation_url is this fake's hosted payment page;
 * GET /v3/payments/{id}. The hosted page (GET /checkout/{id}) has a Pay button (POST /checkout/{id}/pay) that marks
 * the payment succeeded, posts the `payment.succeeded` notification to `webhookUrl` and redirects to return_url.
 * Anything else answers 404 and is recorded in `unexpected`.
 */
export type FakePayment = {
  id: string;
  status: 'pending' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: { value: string; currency: string };
  description?: string;
  metadata?: Record<string, string>;
  confirmation: { type: 'redirect'; confirmation_url: string; return_url: string };
  created_at: string;
};
export type FakeYooKassa = {
  baseUrl: string;
  shopId: string;
  secretKey: string;
  env: Record<string, string>;
  payments: Map<string, FakePayment>;
  /** Idempotence-Key of every POST /v3/payments. */
  keys: string[];
  unexpected: string[];
  /** Where notifications go (our server's webhook). */
  webhookUrl: string;
  /** Marks a payment succeeded (or cancelled) as a payer would, without the notification. */
  finish(id: string, status?: 'succeeded' | 'canceled'): void;
  /** POSTs a notification about the payment as YooKassa does; answers the HTTP status. */
  notify(id: string, event?: string, object?: Record<string, unknown>): Promise<number>;
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** `unref`: the fake does not keep the process alive (fixtures that never close it). */
export async function startFakeYooKassa(opts: { unref?: boolean } = {}): Promise<FakeYooKassa> {
  const byKey = new Map<string, string>();
  const fake: FakeYooKassa = {
    baseUrl: '',
    shopId: '123456',
    secretKey: `test_${randomUUID()}`,
    env: {},
    payments: new Map(),
    keys: [],
    unexpected: [],
    webhookUrl: '',
    finish(id, status = 'succeeded') {
      const p = fake.payments.get(id);
      if (p?.status !== 'pending') return;
      p.status = status;
      p.paid = status === 'succeeded';
    },
    async notify(id, event, object) {
      const p = fake.payments.get(id);
      const res = await fetch(fake.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'notification',
          event: event ?? `payment.${p?.status ?? 'succeeded'}`,
          object: object ?? p,
        }),
      });
      await res.text();
      return res.status;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  const authorised = (req: IncomingMessage) =>
    req.headers.authorization ===
    `Basic ${Buffer.from(`${fake.shopId}:${fake.secretKey}`).toString('base64')}`;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', fake.baseUrl);
    const body = await readBody(req);
    if (req.method === 'POST' && url.pathname === '/v3/payments') {
      if (!authorised(req)) return json(res, 401, { type: 'error', code: 'invalid_credentials' });
      const key = req.headers['idempotence-key'];
      if (typeof key !== 'string' || !key)
        return json(res, 400, { type: 'error', code: 'invalid_request', parameter: 'Idempotence-Key' });
      fake.keys.push(key);
      const known = byKey.get(key);
      if (known) return json(res, 200, fake.payments.get(known));
      const input = JSON.parse(body) as {
        amount: FakePayment['amount'];
        confirmation: { type: string; return_url: string };
        description?: string;
        metadata?: Record<string, string>;
      };
      const id = randomUUID();
      const payment: FakePayment = {
        id,
        status: 'pending',
        paid: false,
        amount: input.amount,
        description: input.description,
        metadata: input.metadata,
        confirmation: {
          type: 'redirect',
          confirmation_url: `${fake.baseUrl}/checkout/${id}`,
          return_url: input.confirmation.return_url,
        },
        created_at: new Date().toISOString(),
      };
      fake.payments.set(id, payment);
      byKey.set(key, id);
      return json(res, 200, payment);
    }
    const get = /^\/v3\/payments\/([\w-]+)$/.exec(url.pathname);
    if (req.method === 'GET' && get) {
      if (!authorised(req)) return json(res, 401, { type: 'error', code: 'invalid_credentials' });
      const p = fake.payments.get(get[1]);
      return p ? json(res, 200, p) : json(res, 404, { type: 'error', code: 'not_found' });
    }
    const page = /^\/checkout\/([\w-]+)(\/pay)?$/.exec(url.pathname);
    const p = page && fake.payments.get(page[1]);
    if (p && req.method === 'GET' && !page[2]) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><html lang="en"><head><title>Fake YooKassa</title></head><body><main>` +
          `<h1>Payment of ${p.amount.value} ${p.amount.currency}</h1>` +
          `<form method="post" action="/checkout/${p.id}/pay"><button type="submit">Pay</button></form>` +
          `</main></body></html>`,
      );
    }
    if (p && req.method === 'POST' && page[2]) {
      fake.finish(p.id);
      if (fake.webhookUrl) await fake.notify(p.id).catch(() => 0);
      res.writeHead(303, { location: p.confirmation.return_url });
      return res.end();
    }
    fake.unexpected.push(`${req.method} ${url.pathname}`);
    json(res, 404, { type: 'error', code: 'not_found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  if (opts.unref) server.unref();
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.env = {
    YOOKASSA_API_URL: fake.baseUrl,
    YOOKASSA_SHOP_ID: fake.shopId,
    YOOKASSA_SECRET_KEY: fake.secretKey,
  };
  return fake;
}
