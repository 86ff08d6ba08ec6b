import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type GeneratedFile, type GeneratedStats, generatedStats, sendGenerated } from './generated-file.ts';

/**
 * A fake of Viber's REST Bot API (https://developers.viber.com/docs/api/rest-bot-api/), following its documents:
 * every call is a JSON POST with X-Viber-Auth-Token (a wrong one answers status 2 invalidAuthToken); set_webhook
 * first POSTs a signed 'webhook' callback to the URL and fails (status 1 invalidUrl) unless it is answered 200;
 * send_message checks the receiver is a subscriber (status 6 receiverNotSubscribed) and answers a message_token
 * larger than 2^53; status 12 is the rate limit. Callbacks are signed with X-Viber-Content-Signature (HMAC-SHA256
 * of the body with the token). Media of inbound messages is served from /media/{id}.
 */
export type ViberCall = { method: string; token: string | undefined; body: Record<string, unknown> };
export type FakeViber = {
  baseUrl: string;
  token: string;
  /** The token of another bot account (its own id and name) the fake also knows. */
  otherToken: string;
  calls: ViberCall[];
  /** Accepted send_message bodies with the message_token answered (a decimal string). */
  sent: { token: string; body: Record<string, unknown> }[];
  webhook: string | null;
  /** Where the fake really posts a webhook URL it is given (tests map the server's public address to its port). */
  reach: (url: string) => string;
  subscribers: Set<string>;
  failNext(method: string, status: number, message: string, times?: number): void;
  addMedia(bytes: Uint8Array, contentType: string): string;
  /** A large file made up as it is downloaded (never held whole); its URL. */
  addGeneratedMedia(file: GeneratedFile): string;
  /** What was sent of generated files. */
  generated: GeneratedStats;
  /** A fresh message_token past 2^53, as Viber's are. */
  nextToken(): string;
  /** POSTs a callback signed with the token (or `signature`; null for none); big message_tokens stay numbers in JSON. */
  deliver(url: string, event: Record<string, unknown>, signature?: string | null): Promise<number>;
  message(
    user: { id: string; name?: string },
    message: Record<string, unknown>,
    token?: string,
  ): Record<string, unknown>;
  close(): Promise<void>;
};

/** JSON text where `message_token` values (strings of digits) are written as numbers, as Viber writes them. */
const viberJson = (v: unknown) => JSON.stringify(v).replace(/("message_token":)"(\d+)"/g, '$1$2');

export async function startFakeViber(): Promise<FakeViber> {
  const token = `4453b6ac12345678-e02c5f12174805f9-daec9cbb5448c51${randomBytes(1).toString('hex')}`;
  const otherToken = `4453b6ac12345678-e02c5f12174805f9-0ther0000000000${randomBytes(1).toString('hex')}`;
  const media = new Map<string, { bytes: Buffer; type: string }>();
  const generatedFiles = new Map<string, GeneratedFile>();
  const fails: { method: string; status: number; message: string; times: number }[] = [];
  let counter = 5_741_311_803_571_721_000n;
  const fake: FakeViber = {
    baseUrl: '',
    token,
    otherToken,
    calls: [],
    sent: [],
    webhook: null,
    subscribers: new Set(),
    reach: (url) => url,
    failNext(method, status, message, times = 1) {
      fails.push({ method, status, message, times });
    },
    addMedia(bytes, type) {
      const id = randomBytes(8).toString('hex');
      media.set(id, { bytes: Buffer.from(bytes), type });
      return `${fake.baseUrl}/media/${id}`;
    },
    addGeneratedMedia(file) {
      const id = randomBytes(8).toString('hex');
      generatedFiles.set(id, file);
      return `${fake.baseUrl}/media/${id}`;
    },
    generated: generatedStats(),
    nextToken() {
      counter += 7n;
      return counter.toString();
    },
    async deliver(url, event, signature) {
      const raw = viberJson(event);
      const sig = signature === undefined ? createHmac('sha256', token).update(raw).digest('hex') : signature;
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(sig === null ? {} : { 'x-viber-content-signature': sig }),
        },
        body: raw,
      });
      await res.arrayBuffer();
      return res.status;
    },
    message(user, message, messageToken) {
      fake.subscribers.add(user.id);
      return {
        event: 'message',
        timestamp: Date.now(),
        chat_hostname: 'SN-CHAT-01_',
        message_token: messageToken ?? fake.nextToken(),
        sender: {
          id: user.id,
          name: user.name ?? 'Viber user',
          language: 'en',
          country: 'RU',
          api_version: 10,
        },
        message,
        silent: false,
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const answer = (res: ServerResponse, body: Record<string, unknown>) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(viberJson(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const m = url.pathname.match(/^\/media\/(\w+)$/);
    if (req.method === 'GET' && m) {
      const g = generatedFiles.get(m[1] ?? '');
      if (g) return sendGenerated(res, g, fake.generated);
      const f = media.get(m[1] ?? '');
      if (!f) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': f.type });
      return res.end(f.bytes);
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const method = url.pathname.replace(/^\/pa\//, '');
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    } catch {
      return answer(res, { status: 3, status_message: 'badData' });
    }
    const auth = req.headers['x-viber-auth-token'];
    fake.calls.push({ method, token: typeof auth === 'string' ? auth : undefined, body });
    if (req.method !== 'POST' || !url.pathname.startsWith('/pa/'))
      return answer(res, { status: 3, status_message: 'badData' });
    if (auth === otherToken && method === 'get_account_info')
      return answer(res, {
        status: 0,
        status_message: 'ok',
        id: 'pa:11112222333344445555',
        name: 'Other Viber',
      });
    if (auth !== token && auth !== otherToken)
      return answer(res, { status: 2, status_message: 'invalidAuthToken' });
    const fail = fails.find((f) => f.method === method);
    if (fail) {
      if (--fail.times <= 0) fails.splice(fails.indexOf(fail), 1);
      return answer(res, { status: fail.status, status_message: fail.message });
    }
    if (method === 'get_account_info')
      return answer(res, {
        status: 0,
        status_message: 'ok',
        id: 'pa:75346594275468546724',
        name: 'Shop Viber',
        uri: 'shopviber',
        icon: 'https://example.com/icon.jpg',
        category: 'Retail',
        subscribers_count: fake.subscribers.size,
        webhook: fake.webhook ?? '',
        event_types: ['delivered', 'seen'],
      });
    if (method === 'set_webhook') {
      const target = String(body.url ?? '');
      if (!target) {
        fake.webhook = null;
        return answer(res, { status: 0, status_message: 'ok' });
      }
      const check = await fake
        .deliver(fake.reach(target), {
          event: 'webhook',
          timestamp: Date.now(),
          chat_hostname: 'SN-CHAT-01_',
          message_token: fake.nextToken(),
        })
        .catch(() => 0);
      if (check !== 200) return answer(res, { status: 1, status_message: 'invalidUrl' });
      fake.webhook = target;
      return answer(res, { status: 0, status_message: 'ok', event_types: body.event_types ?? [] });
    }
    if (method === 'send_message') {
      const receiver = String(body.receiver ?? '');
      const type = String(body.type ?? '');
      const sender = body.sender as { name?: string } | undefined;
      if (!receiver || !type || !sender?.name)
        return answer(res, { status: 4, status_message: 'missingData' });
      if (type === 'text' && (!body.text || String(body.text).length > 7000))
        return answer(res, { status: 3, status_message: 'badData' });
      if (['picture', 'video', 'file'].includes(type) && !body.media)
        return answer(res, { status: 4, status_message: 'missingData' });
      if ((type === 'video' || type === 'file') && typeof body.size !== 'number')
        return answer(res, { status: 4, status_message: 'missingData' });
      if (!fake.subscribers.has(receiver))
        return answer(res, { status: 6, status_message: 'receiverNotSubscribed' });
      const messageToken = fake.nextToken();
      fake.sent.push({ token: messageToken, body });
      return answer(res, {
        status: 0,
        status_message: 'ok',
        message_token: messageToken,
        chat_hostname: 'SN-CHAT-01_',
      });
    }
    return answer(res, { status: 3, status_message: 'badData' });
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
