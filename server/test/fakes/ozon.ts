import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The Ozon Seller API's chat methods for one seller, as docs/providers/ozon.md describes them: every call is a POST
 * with Client-Id and Api-Key (403 `{code: 7, message}` otherwise); /v3/chat/list pages by an opaque `cursor` with
 * `has_next`; /v3/chat/history reads `Forward` from `from_message_id` (given as a string, included in the answer:
 * the undocumented case a client must survive) or `Backward` from the newest; /v1/chat/send/message,
 * /v1/chat/send/file and /v2/chat/read act on a chat. `rateLimit(n)` answers the next n calls 429 with Ozon's text.
 * Message ids are 64-bit strings (around 3e18, as Ozon's). Files a buyer sends are served under /files/ with the
 * same headers required.
 */
export type OzonMessage = {
  message_id: string;
  user: { id: string; type: string };
  created_at: string;
  is_read: boolean;
  is_image: boolean;
  data: string[];
  context?: { order_number?: string; sku?: string };
};
export type OzonChat = {
  chat_id: string;
  chat_type: string;
  chat_status: string;
  created_at: string;
  messages: OzonMessage[];
};
export type OzonCall = { path: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] };

export type FakeOzon = {
  baseUrl: string;
  clientId: string;
  apiKey: string;
  chats: Map<string, OzonChat>;
  /** Every call, in order. */
  calls: OzonCall[];
  callsTo(path: string): OzonCall[];
  /** Chats per list page the fake answers at most (smaller than asked, to exercise paging). */
  pageSize: number;
  /** The next `n` calls answer 429. */
  rateLimit(n: number): void;
  /** A new chat (buyer chat unless told); answers its id. */
  addChat(opts?: { chatType?: string }): string;
  /** A message in the chat (a buyer's unless `type` says); answers its id. */
  addMessage(
    chatId: string,
    data: string[],
    opts?: { type?: string; userId?: string; isImage?: boolean; context?: OzonMessage['context'] },
  ): string;
  /** A file served at the answered URL (needs the seller's headers). */
  addFile(name: string, contentType: string, data: Buffer): string;
  close(): Promise<void>;
};

export async function startFakeOzon(): Promise<FakeOzon> {
  let nextId = 3_000_000_000_817_031_942n;
  let limited = 0;
  const files = new Map<string, { contentType: string; data: Buffer }>();
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const fake: FakeOzon = {
    baseUrl: '',
    clientId: '123456',
    apiKey: 'c0ffee00-1111-2222-3333-444455556666',
    chats: new Map(),
    calls: [],
    callsTo: (path) => fake.calls.filter((c) => c.path === path),
    pageSize: 100,
    rateLimit(n) {
      limited = n;
    },
    addChat(opts = {}) {
      const chat_id = randomUUID();
      fake.chats.set(chat_id, {
        chat_id,
        chat_type: opts.chatType ?? 'BUYER_SELLER',
        chat_status: 'OPENED',
        created_at: new Date().toISOString(),
        messages: [],
      });
      return chat_id;
    },
    addMessage(chatId, data, opts = {}) {
      const chat = fake.chats.get(chatId);
      if (!chat) throw new Error(`no chat ${chatId}`);
      nextId += 1_000n;
      const message_id = String(nextId);
      chat.messages.push({
        message_id,
        user: { id: opts.userId ?? '115568', type: opts.type ?? 'Customer' },
        created_at: new Date().toISOString(),
        is_read: false,
        is_image: opts.isImage ?? false,
        data,
        ...(opts.context ? { context: opts.context } : {}),
      });
      return message_id;
    },
    addFile(name, contentType, data) {
      const key = `${randomUUID()}/${name}`;
      files.set(key, { contentType, data });
      return `${fake.baseUrl}/files/${key}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const unread = (c: OzonChat) => c.messages.filter((m) => !m.is_read && m.user.type !== 'Seller');

  function route(path: string, body: Record<string, unknown>, res: ServerResponse) {
    const chat = typeof body.chat_id === 'string' ? fake.chats.get(body.chat_id) : undefined;
    const notFound = () => json(res, 404, { code: 5, message: 'chat not found', details: [] });
    switch (path) {
      case '/v3/chat/list': {
        const limit = Number(body.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100)
          return json(res, 400, { code: 3, message: 'limit must be 1..100', details: [] });
        const all = [...fake.chats.values()];
        const start = typeof body.cursor === 'string' && body.cursor ? Number(body.cursor) : 0;
        const page = all.slice(start, start + Math.min(limit, fake.pageSize));
        const end = start + page.length;
        return json(res, 200, {
          chats: page.map((c) => ({
            chat: {
              chat_id: c.chat_id,
              chat_status: c.chat_status,
              chat_type: c.chat_type,
              created_at: c.created_at,
            },
            first_unread_message_id: unread(c)[0]?.message_id ?? '0',
            last_message_id: c.messages.at(-1)?.message_id ?? '0',
            unread_count: unread(c).length,
          })),
          total_unread_count: all.reduce((n, c) => n + unread(c).length, 0),
          cursor: String(end),
          has_next: end < all.length,
        });
      }
      case '/v3/chat/history': {
        if (!chat) return notFound();
        const limit = Math.min(Number(body.limit) || 50, 1000);
        const forward = body.direction === 'Forward';
        if (forward && body.from_message_id === undefined)
          return json(res, 400, { code: 3, message: 'from_message_id is required', details: [] });
        if (body.from_message_id !== undefined && typeof body.from_message_id !== 'string')
          return json(res, 400, {
            code: 3,
            message: 'from_message_id: a 64-bit id as a string',
            details: [],
          });
        const from = body.from_message_id === undefined ? undefined : BigInt(body.from_message_id as string);
        const list = forward
          ? chat.messages.filter((m) => BigInt(m.message_id) >= (from ?? 0n))
          : chat.messages.filter((m) => from === undefined || BigInt(m.message_id) <= from).reverse();
        return json(res, 200, { has_next: list.length > limit, messages: list.slice(0, limit) });
      }
      case '/v1/chat/send/message': {
        if (!chat) return notFound();
        const text = body.text;
        if (typeof text !== 'string' || text.length < 1 || text.length > 1000)
          return json(res, 400, { code: 3, message: 'text must be 1..1000 characters', details: [] });
        fake.addMessage(chat.chat_id, [text], { type: 'Seller', userId: fake.clientId });
        return json(res, 200, { result: 'success' });
      }
      case '/v1/chat/send/file': {
        if (!chat) return notFound();
        if (
          typeof body.name !== 'string' ||
          !/\.[a-z0-9]+$/i.test(body.name) ||
          typeof body.base64_content !== 'string'
        )
          return json(res, 400, {
            code: 3,
            message: 'name with extension and base64_content required',
            details: [],
          });
        fake.addMessage(chat.chat_id, [`[${body.name}](${fake.baseUrl}/files/sent/${body.name})`], {
          type: 'Seller',
          userId: fake.clientId,
        });
        return json(res, 200, { result: 'success' });
      }
      case '/v2/chat/read': {
        if (!chat) return notFound();
        const upTo = typeof body.from_message_id === 'string' ? BigInt(body.from_message_id) : undefined;
        for (const m of chat.messages)
          if (upTo === undefined || BigInt(m.message_id) <= upTo) m.is_read = true;
        return json(res, 200, { unread_count: unread(chat).length });
      }
      default:
        return json(res, 404, { code: 5, message: 'method not found', details: [] });
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const authorised = req.headers['client-id'] === fake.clientId && req.headers['api-key'] === fake.apiKey;
      if (req.method === 'GET' && path.startsWith('/files/')) {
        const file = files.get(decodeURIComponent(path.slice('/files/'.length)));
        if (!authorised) return json(res, 403, { code: 7, message: 'access denied', details: [] });
        if (!file) return json(res, 404, { code: 5, message: 'not found', details: [] });
        res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length });
        return res.end(file.data);
      }
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return json(res, 400, { code: 3, message: 'invalid JSON', details: [] });
      }
      fake.calls.push({ path, body, headers: req.headers });
      if (req.method !== 'POST') return json(res, 404, { code: 5, message: 'not found', details: [] });
      if (!authorised)
        return json(res, 403, { code: 7, message: 'Api-key is deactivated, use another one', details: [] });
      if (limited > 0) {
        limited--;
        return json(res, 429, {
          code: 8,
          message: 'You have reached request rate limit per second',
          details: [],
        });
      }
      route(path, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
