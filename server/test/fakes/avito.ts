import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readGraphRequest } from './meta.ts';

/**
 * A fake of Avito's API following docs/providers/avito.md: POST /token (client credentials, form-encoded; tokens
 * expire after `expiresIn` seconds or when a test expires them, and are then answered `expiredStatus`, 401 unless a
 * test sets 403 as Avito documents), accounts/self, the v2 chat list and chat by id, v3 messages, v1 send text
 * (1000 characters at most) and image, uploadImages (multipart `uploadfile[]`, answered keyed by the image id),
 * chatRead, getVoiceFiles (links to the voice files it keeps), v3 webhook subscribe and v1 unsubscribe, errors as
 * `{error:{code,message}}`, 429 with Retry-After when scripted; it records every call and posts webhooks as Avito
 * does (v3 payload). Every message made by `payload` is in its chat's history (v3 messages, newest first: the order
 * is not documented, so our poll must not rely on it) whether or not the webhook is delivered; the chat list
 * takes chat_types (u2i by default, as documented), limit and offset.
 */

export type AvitoRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  auth: string | undefined;
  contentType: string;
  json?: Record<string, unknown>;
  form?: Record<string, string>;
  files?: Record<string, { name: string; type: string; bytes: Buffer }>;
};
export type AvitoFail = { status: number; message: string; retryAfter?: string };
type Chat = Record<string, unknown> & { id: string };

export type FakeAvito = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  userId: number;
  accountName: string;
  /** Seconds a new token lives. */
  expiresIn: number;
  /** What a call with an expired or unknown token is answered (Avito documents 403 for an expired one). */
  expiredStatus: 401 | 403;
  requests: AvitoRequest[];
  tokensIssued: number;
  /** Webhook URLs subscribed now. */
  webhooks: Set<string>;
  /** Messages sent: text or image, with the chat and the id answered. */
  sent: { id: string; chatId: string; type: 'text' | 'image'; text?: string; imageId?: string }[];
  uploads: { id: string; type: string; name: string; bytes: Buffer }[];
  reads: string[];
  chats: Map<string, Chat>;
  /** Every token issued so far stops working. */
  expireTokens(): void;
  /** The next `times` calls whose path ends with `pathEnd` answer this error. */
  failNext(pathEnd: string, fail: AvitoFail, times?: number): void;
  /** A u2i chat about a listing with a customer; answers its id. */
  addChat(customer: { id: number; name: string }, item: { id: number; title: string; url: string }): string;
  /** A file at the fake's image storage; answers its URL. */
  addImage(bytes: Uint8Array, type: string): string;
  /** A voice file (Opus in MP4) for getVoiceFiles; answers its voice_id. */
  addVoice(bytes: Uint8Array): string;
  /** Each chat's messages as getMessagesV3 answers them. */
  history: Map<string, Record<string, unknown>[]>;
  /** A v3 webhook body of a new message in a chat (`author_id` the customer unless given). */
  payload(
    chatId: string,
    type: string,
    content: Record<string, unknown>,
    over?: Record<string, unknown>,
  ): Record<string, unknown>;
  /** POSTs a webhook body to our URL as Avito does; answers the status. */
  deliver(url: string, body: unknown): Promise<number>;
  close(): Promise<void>;
};

export async function startFakeAvito(): Promise<FakeAvito> {
  const tokens = new Map<string, number>();
  const fails: { pathEnd: string; fail: AvitoFail; times: number }[] = [];
  const images = new Map<string, { bytes: Buffer; type: string }>();
  const customers = new Map<string, number>();
  let seq = 0;
  const fake: FakeAvito = {
    baseUrl: '',
    clientId: `cid_${randomBytes(6).toString('hex')}`,
    clientSecret: randomBytes(16).toString('hex'),
    userId: 94235311,
    accountName: 'Петр',
    expiresIn: 86400,
    expiredStatus: 401,
    requests: [],
    tokensIssued: 0,
    webhooks: new Set(),
    sent: [],
    uploads: [],
    reads: [],
    chats: new Map(),
    history: new Map(),
    expireTokens: () => tokens.clear(),
    failNext(pathEnd, fail, times = 1) {
      fails.push({ pathEnd, fail, times });
    },
    addChat(customer, item) {
      const id = `u2i-${randomBytes(9).toString('base64url')}`;
      customers.set(id, customer.id);
      fake.chats.set(id, {
        id,
        created: 1571412836,
        updated: 1571654040,
        context: {
          type: 'item',
          value: {
            id: item.id,
            title: item.title,
            url: item.url,
            price_string: '300 000 ₽',
            status_id: 10,
            user_id: fake.userId,
            images: { count: 1, main: { '140x105': `${fake.baseUrl}/img/none` } },
          },
        },
        users: [
          { id: fake.userId, name: fake.accountName, public_user_profile: { user_id: fake.userId } },
          {
            id: customer.id,
            name: customer.name,
            public_user_profile: { user_id: customer.id, item_id: item.id },
          },
        ],
      });
      return id;
    },
    addImage(bytes, type) {
      const id = `${++seq}`;
      images.set(id, { bytes: Buffer.from(bytes), type });
      return `${fake.baseUrl}/img/${id}`;
    },
    addVoice(bytes) {
      const id = randomBytes(8).toString('hex');
      images.set(`voice-${id}`, { bytes: Buffer.from(bytes), type: 'audio/mp4' });
      return id;
    },
    payload(chatId, type, content, over = {}) {
      const chat = fake.chats.get(chatId);
      const item = (chat?.context as { value?: { id?: number } } | undefined)?.value?.id ?? null;
      const body = {
        id: randomBytes(16).toString('hex'),
        version: 'v3.0.0',
        timestamp: Math.floor(Date.now() / 1000),
        payload: {
          type: 'message',
          value: {
            id: randomBytes(16).toString('hex'),
            chat_id: chatId,
            user_id: fake.userId,
            author_id: customers.get(chatId) ?? 141906442,
            created: Math.floor(Date.now() / 1000),
            type,
            chat_type: 'u2i',
            content,
            item_id: item,
            published_at: new Date().toISOString(),
            read: null,
            ...over,
          },
        },
      };
      const value = body.payload.value;
      if (chat) {
        const { chat_id: _c, user_id: _u, chat_type: _t, item_id: _i, published_at: _p, ...message } = value;
        const own = String(message.author_id) === String(fake.userId);
        fake.history.set(chatId, [
          { ...message, direction: own ? 'out' : 'in', is_read: false },
          ...(fake.history.get(chatId) ?? []),
        ]);
        chat.updated = Math.max(Number(chat.updated) || 0, Number(value.created) || 0);
      }
      return body;
    },
    deliver: async (url, body) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      return res.status;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const error = (
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ) => send(res, status, { error: { code: status, message } }, headers);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const r: AvitoRequest = await readRequest(req, url);
    fake.requests.push(r);
    const voice = url.pathname.match(/^\/voice\/(\w+)$/);
    if (voice) {
      const file = images.get(`voice-${voice[1]}`);
      if (!file) return error(res, 404, 'Not found');
      res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.length) });
      return void res.end(file.bytes);
    }
    const image = url.pathname.match(/^\/img\/(\w+)$/);
    if (image) {
      const f = images.get(image[1] ?? '');
      if (!f) return error(res, 404, 'Not found');
      res.writeHead(200, { 'content-type': f.type, 'content-length': f.bytes.length });
      return res.end(f.bytes);
    }
    const fail = fails.find((f) => url.pathname.endsWith(f.pathEnd));
    if (fail) {
      if (--fail.times <= 0) fails.splice(fails.indexOf(fail), 1);
      return error(
        res,
        fail.fail.status,
        fail.fail.message,
        fail.fail.retryAfter ? { 'retry-after': fail.fail.retryAfter } : {},
      );
    }
    if (url.pathname === '/token' && r.method === 'POST') {
      const f = r.form ?? {};
      if (f.grant_type !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
      if (f.client_id !== fake.clientId || f.client_secret !== fake.clientSecret)
        // Not documented (brief "Open questions" 5): the fake answers as an OAuth server would.
        return send(res, 400, { error: 'invalid_client', error_description: 'invalid client credentials' });
      const token = randomBytes(16).toString('base64url');
      tokens.set(token, Date.now() + fake.expiresIn * 1000);
      fake.tokensIssued++;
      return send(res, 200, { access_token: token, expires_in: fake.expiresIn, token_type: 'Bearer' });
    }
    const token = r.auth?.startsWith('Bearer ') ? r.auth.slice(7) : '';
    const until = tokens.get(token);
    if (!until || until < Date.now())
      return error(res, fake.expiredStatus, fake.expiredStatus === 401 ? 'Unauthorized' : 'Forbidden');
    const p = url.pathname;
    if (p === '/core/v1/accounts/self' && r.method === 'GET')
      return send(res, 200, {
        id: fake.userId,
        name: fake.accountName,
        email: 'example@domain.com',
        phone: '71112223344',
        phones: ['71112223344'],
        profile_url: 'https://avito.ru/user/7d04cdc3a12726eee72c6851c953ac54/profile',
      });
    if (p === '/messenger/v3/webhook' && r.method === 'POST') {
      const u = r.json?.url;
      if (typeof u !== 'string' || !u.startsWith('http')) return error(res, 400, 'Bad Request');
      fake.webhooks.add(u);
      return send(res, 200, { ok: true });
    }
    if (p === '/messenger/v1/webhook/unsubscribe' && r.method === 'POST') {
      fake.webhooks.delete(String(r.json?.url ?? ''));
      return send(res, 200, { ok: true });
    }
    if (p === '/messenger/v1/subscriptions' && r.method === 'POST')
      return send(res, 200, { subscriptions: [...fake.webhooks].map((u) => ({ url: u, version: '3' })) });
    const acc = p.match(/^\/messenger\/(v1|v2|v3)\/accounts\/(\d+)\/(.*)$/);
    if (!acc) return error(res, 404, 'Not found');
    const [, version, uid, rest = ''] = acc;
    if (uid !== String(fake.userId)) return error(res, 403, 'Forbidden');
    if (version === 'v2' && rest === 'chats' && r.method === 'GET') {
      const types = (r.query.get('chat_types') ?? 'u2i').split(',');
      const limit = Number(r.query.get('limit') ?? 100);
      const offset = Number(r.query.get('offset') ?? 0);
      if (!(limit >= 1 && limit <= 100) || !(offset >= 0 && offset <= 1000))
        return error(res, 400, 'Validation error');
      const all = [...fake.chats.values()].filter((c) => types.includes(c.id.split('-')[0] ?? ''));
      return send(res, 200, { chats: all.slice(offset, offset + limit) });
    }
    if (version === 'v1' && rest.startsWith('getVoiceFiles') && r.method === 'GET') {
      const ids = (r.query.get('voice_ids') ?? '').split(',').filter(Boolean);
      if (!ids.length) return error(res, 400, 'Validation error');
      const urls = Object.fromEntries(
        ids.filter((id) => images.has(`voice-${id}`)).map((id) => [id, `${fake.baseUrl}/voice/${id}`]),
      );
      return send(res, 200, { voices_urls: urls });
    }
    const chatPath = rest.match(/^chats\/([^/]+)(?:\/(.*))?$/);
    if (version === 'v1' && rest === 'uploadImages' && r.method === 'POST') {
      const file = r.files?.['uploadfile[]'];
      if (!file) return error(res, 400, 'Validation error');
      const id = `${12345 + ++seq}.${randomBytes(8).toString('hex')}`;
      fake.uploads.push({ id, type: file.type, name: file.name, bytes: file.bytes });
      return send(res, 200, {
        [id]: { '1280x960': `${fake.baseUrl}/img/${id}`, '140x105': `${fake.baseUrl}/img/${id}` },
      });
    }
    if (!chatPath) return error(res, 404, 'Not found');
    const chatId = decodeURIComponent(chatPath[1] ?? '');
    const tail = chatPath[2];
    const chat = fake.chats.get(chatId);
    if (!chat) return error(res, 404, 'Not found');
    if (version === 'v2' && tail === undefined && r.method === 'GET') return send(res, 200, chat);
    if (version === 'v3' && tail === 'messages/' && r.method === 'GET') {
      const limit = Number(r.query.get('limit') ?? 100);
      const offset = Number(r.query.get('offset') ?? 0);
      if (!(limit >= 1 && limit <= 100) || !(offset >= 0 && offset <= 1000))
        return error(res, 400, 'Validation error');
      return send(res, 200, (fake.history.get(chatId) ?? []).slice(offset, offset + limit));
    }
    if (version === 'v1' && tail === 'messages' && r.method === 'POST') {
      const text = (r.json?.message as { text?: unknown } | undefined)?.text;
      if (r.json?.type !== 'text' || typeof text !== 'string' || !text || text.length > 1000)
        return error(res, 400, 'Validation error');
      const id = randomBytes(16).toString('hex');
      fake.sent.push({ id, chatId, type: 'text', text });
      return send(res, 200, {
        id,
        created: Math.floor(Date.now() / 1000),
        direction: 'out',
        type: 'text',
        content: { text },
      });
    }
    if (version === 'v1' && tail === 'messages/image' && r.method === 'POST') {
      const imageId = r.json?.image_id;
      if (typeof imageId !== 'string' || !fake.uploads.some((u) => u.id === imageId))
        return error(res, 400, 'Validation error');
      const id = randomBytes(16).toString('hex');
      fake.sent.push({ id, chatId, type: 'image', imageId });
      return send(res, 200, {
        id,
        author_id: fake.userId,
        direction: 'out',
        type: 'image',
        content: { image: { sizes: {} } },
      });
    }
    if (version === 'v1' && tail === 'read' && r.method === 'POST') {
      fake.reads.push(chatId);
      return send(res, 200, { ok: true });
    }
    return error(res, 404, 'Not found');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => error(res, 500, String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** A request as recorded: JSON and multipart bodies by meta.ts's reader, form-encoded ones here. */
async function readRequest(req: IncomingMessage, url: URL): Promise<AvitoRequest> {
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('application/x-www-form-urlencoded')) return readGraphRequest(req, url);
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    auth: req.headers.authorization,
    contentType: type,
    form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
