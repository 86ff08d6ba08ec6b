import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The Yandex Market Partner API's chat methods for one cabinet, as docs/providers/yandex-market.md describes them:
 * every method under `/v2/businesses/{businessId}/…` with the `Api-Key` header (401 without it, 403 for a key not
 * valid or not of this business), answers in `{status: "OK", result}`, errors as `{status: "ERROR", errors: [{code,
 * message}]}`. The chat list (`POST /chats`, body required, `limit` 1–20) and the history (`POST /chats/history`,
 * `limit` 1–100, `messageIdFrom` included in the answer: the undocumented case a client must survive, newest first:
 * the order is not documented either) page by an opaque `pageToken` / `paging.nextPageToken`; `GET /chat`,
 * `GET /chats/message`, `POST /chats/message` (1–4096 characters) and `POST /chats/file/send` (multipart, part
 * `file`, at most 5 MB) act on one chat. Every answer carries the `X-RateLimit-Resource-*` headers; `rateLimit(n)`
 * answers the next n calls 420 "Enhance Your Calm" (Market's limit, §7), or 429 when asked. Chat and message ids are
 * int64 written as bare JSON numbers past 2^53, so a client that reads them as JavaScript numbers rounds them.
 */
export type YaMarketPayload = { name: string; url: string; size: number };
export type YaMarketMessage = {
  messageId: string;
  createdAt: string;
  sender: 'CUSTOMER' | 'PARTNER' | 'MARKET' | 'SUPPORT';
  message?: string;
  payload?: YaMarketPayload[];
};
export type YaMarketContext = {
  type: 'ORDER' | 'RETURN' | 'DIRECT';
  customer?: { name: string; publicId: string };
  campaignId?: string;
  orderId?: string;
  returnId?: string;
};
export type YaMarketChat = {
  chatId: string;
  context: YaMarketContext;
  type: 'CHAT' | 'ARBITRAGE';
  status: string;
  createdAt: string;
  updatedAt: string;
  messages: YaMarketMessage[];
};
export type YaMarketCall = {
  method: string;
  /** The path after `/v2/businesses/{businessId}`, e.g. `/chats/history`. */
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  /** The `file` part of a multipart call. */
  file?: { name: string; type: string; data: Buffer };
};

export type FakeYaMarket = {
  baseUrl: string;
  businessId: string;
  apiKey: string;
  chats: Map<string, YaMarketChat>;
  /** Every call to a business method, in order. */
  calls: YaMarketCall[];
  callsTo(path: string): YaMarketCall[];
  /** Chats per list page and messages per history page the fake answers at most (to exercise paging). */
  pageSize: number;
  /** The next `n` calls answer 420 (or `status`), with `X-RateLimit-Resource-Until` when `untilMs` is given. */
  rateLimit(n: number, opts?: { status?: number; untilMs?: number }): void;
  /** The next `n` calls answer 500. */
  fail(n: number): void;
  /** A new chat (an ORDER chat of a named buyer unless told); answers its id. */
  addChat(opts?: Partial<YaMarketContext> & { customerName?: string | null }): string;
  /** A message in the chat (a buyer's unless `sender` says); answers its id. */
  addMessage(
    chatId: string,
    text: string | undefined,
    opts?: { sender?: YaMarketMessage['sender']; payload?: YaMarketPayload[] },
  ): string;
  /** A file served at the answered URL (needs the Api-Key). */
  addFile(name: string, contentType: string, data: Buffer): string;
  close(): Promise<void>;
};

const FILE_MAX = 5 * 1024 * 1024;
const ID_KEYS = /"(chatId|messageId|orderId|campaignId|returnId|messageIdFrom)":"(\d+)"/g;
/** JSON with the ids as bare numbers, as Market writes them. */
const write = (body: unknown) => JSON.stringify(body).replace(ID_KEYS, '"$1":$2');
/** JSON read without rounding the ids (a client may write them as bare 64-bit numbers). */
const readJson = (text: string) =>
  JSON.parse(text.replace(/("[A-Za-z]*Id[A-Za-z]*"\s*:\s*)(\d+)/g, '$1"$2"')) as Record<string, unknown>;
const token = (n: number) => Buffer.from(`next:${n}`).toString('base64');
const untoken = (t: string | undefined) =>
  t ? Number(/^next:(\d+)$/.exec(Buffer.from(t, 'base64').toString())?.[1] ?? Number.NaN) : 0;

export async function startFakeYaMarket(): Promise<FakeYaMarket> {
  let nextChat = 9_100_000_000_000_000_001n;
  let nextMessage = 9_200_000_000_000_000_001n;
  let nextOrder = 123_456_789;
  let clock = Date.parse('2026-01-16T07:09:49Z');
  const now = () => {
    clock += 1_000;
    return new Date(clock).toISOString().replace('.000Z', 'Z');
  };
  let limited = 0;
  let limitStatus = 420;
  let limitUntil: number | undefined;
  let failing = 0;
  const files = new Map<string, { contentType: string; data: Buffer }>();
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-ratelimit-resource-limit': '1000',
      'x-ratelimit-resource-remaining': status === limitStatus && limitUntil !== undefined ? '0' : '999',
      'x-ratelimit-resource-until': new Date(limitUntil ?? Date.now() + 3_600_000).toUTCString(),
    });
    res.end(write(body));
  };
  const ok = (res: ServerResponse, result?: unknown) =>
    send(res, 200, result === undefined ? { status: 'OK' } : { status: 'OK', result });
  const error = (res: ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { status: 'ERROR', errors: [{ code, message }] });

  const fake: FakeYaMarket = {
    baseUrl: '',
    businessId: '123',
    apiKey: 'ACMA:fake-market-key:1a2b3c4d',
    chats: new Map(),
    calls: [],
    callsTo: (path) => fake.calls.filter((c) => c.path === path),
    pageSize: 20,
    rateLimit(n, opts = {}) {
      limited = n;
      limitStatus = opts.status ?? 420;
      limitUntil = opts.untilMs === undefined ? undefined : Date.now() + opts.untilMs;
    },
    fail(n) {
      failing = n;
    },
    addChat(opts = {}) {
      const chatId = String(nextChat++);
      const type = opts.type ?? 'ORDER';
      const at = now();
      const name = opts.customerName === undefined ? 'Ivan P.' : opts.customerName;
      fake.chats.set(chatId, {
        chatId,
        context: {
          type,
          ...(name === null ? {} : { customer: { name, publicId: `p${chatId.slice(-4)}` } }),
          ...(type === 'DIRECT'
            ? {}
            : {
                campaignId: opts.campaignId ?? '21000000',
                orderId: opts.orderId ?? String(nextOrder++),
                ...(type === 'RETURN' ? { returnId: opts.returnId ?? '5550001' } : {}),
              }),
        },
        type: 'CHAT',
        status: 'NEW',
        createdAt: at,
        updatedAt: at,
        messages: [],
      });
      return chatId;
    },
    addMessage(chatId, text, opts = {}) {
      const chat = fake.chats.get(chatId);
      if (!chat) throw new Error(`no chat ${chatId}`);
      const messageId = String(nextMessage);
      nextMessage += 1_000n;
      const sender = opts.sender ?? 'CUSTOMER';
      const createdAt = now();
      chat.messages.push({
        messageId,
        createdAt,
        sender,
        ...(text === undefined ? {} : { message: text }),
        ...(opts.payload ? { payload: opts.payload } : {}),
      });
      chat.updatedAt = createdAt;
      if (sender === 'CUSTOMER') chat.status = 'WAITING_FOR_PARTNER';
      if (sender === 'PARTNER') chat.status = 'WAITING_FOR_CUSTOMER';
      return messageId;
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
  const infoOf = (c: YaMarketChat) => ({
    chatId: c.chatId,
    context: c.context,
    type: c.type,
    status: c.status,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  });

  function route(call: YaMarketCall, res: ServerResponse) {
    const { method, path, query, body } = call;
    const chat = query.chatId ? fake.chats.get(query.chatId) : undefined;
    const noChat = () => error(res, 404, 'NOT_FOUND', `chat ${query.chatId ?? ''} not found`);
    const limit = (max: number, byDefault: number) => {
      const n = query.limit === undefined ? byDefault : Number(query.limit);
      return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
    };
    switch (`${method} ${path}`) {
      case 'POST /chats': {
        const n = limit(20, 10);
        if (n === null) return error(res, 400, 'BAD_REQUEST', 'limit must be 1..20');
        const start = untoken(query.pageToken ?? query.page_token);
        if (Number.isNaN(start)) return error(res, 400, 'BAD_REQUEST', 'invalid pageToken');
        const statuses = body.statuses as string[] | undefined;
        if (statuses !== undefined && (!Array.isArray(statuses) || !statuses.length))
          return error(res, 400, 'BAD_REQUEST', 'statuses must be a non-empty array');
        const all = [...fake.chats.values()].filter((c) => !statuses || statuses.includes(c.status));
        const page = all.slice(start, start + Math.min(n, fake.pageSize));
        const end = start + page.length;
        return ok(res, {
          chats: page.map(infoOf),
          paging: end < all.length ? { nextPageToken: token(end) } : {},
        });
      }
      case 'GET /chat':
        return chat ? ok(res, infoOf(chat)) : noChat();
      case 'POST /chats/history': {
        if (!chat) return noChat();
        const n = limit(100, 50);
        if (n === null) return error(res, 400, 'BAD_REQUEST', 'limit must be 1..100');
        const start = untoken(query.pageToken ?? query.page_token);
        if (Number.isNaN(start)) return error(res, 400, 'BAD_REQUEST', 'invalid pageToken');
        const from = body.messageIdFrom;
        if (from !== undefined && (typeof from !== 'string' || !/^\d+$/.test(from)))
          return error(res, 400, 'BAD_REQUEST', 'messageIdFrom must be an int64');
        const all = chat.messages
          .filter((m) => from === undefined || BigInt(m.messageId) >= BigInt(from as string))
          .reverse();
        const page = all.slice(start, start + Math.min(n, fake.pageSize));
        const end = start + page.length;
        return ok(res, {
          context: chat.context,
          messages: page,
          paging: end < all.length ? { nextPageToken: token(end) } : {},
        });
      }
      case 'GET /chats/message': {
        if (!chat) return noChat();
        const m = chat.messages.find((x) => x.messageId === query.messageId);
        return m ? ok(res, m) : error(res, 404, 'NOT_FOUND', 'message not found');
      }
      case 'POST /chats/message': {
        if (!chat) return noChat();
        const text = body.message;
        if (typeof text !== 'string' || text.length < 1 || text.length > 4096)
          return error(res, 400, 'BAD_REQUEST', 'message must be 1..4096 characters');
        fake.addMessage(chat.chatId, text, { sender: 'PARTNER' });
        return ok(res);
      }
      case 'POST /chats/file/send': {
        if (!chat) return noChat();
        const file = call.file;
        if (!file) return error(res, 400, 'BAD_REQUEST', 'a multipart part named file is required');
        if (file.data.length > FILE_MAX) return error(res, 400, 'BAD_REQUEST', 'file is larger than 5 MB');
        const url = fake.addFile(file.name, file.type, file.data);
        fake.addMessage(chat.chatId, undefined, {
          sender: 'PARTNER',
          payload: [{ name: file.name, url, size: file.data.length }],
        });
        return ok(res);
      }
      default:
        return error(res, 404, 'NOT_FOUND', 'method not found');
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const key = req.headers['api-key'];
      if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
        const file = files.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
        if (key !== fake.apiKey) return error(res, 403, 'FORBIDDEN', 'access denied');
        if (!file) return error(res, 404, 'NOT_FOUND', 'not found');
        res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length });
        return res.end(file.data);
      }
      const prefix = /^\/v2\/businesses\/([^/]+)(\/.*)$/.exec(url.pathname);
      if (!prefix) return error(res, 404, 'NOT_FOUND', 'method not found');
      const raw = Buffer.concat(chunks);
      const call: YaMarketCall = {
        method: req.method ?? 'GET',
        path: prefix[2],
        query: Object.fromEntries(url.searchParams),
        body: {},
        headers: req.headers,
      };
      const type = String(req.headers['content-type'] ?? '');
      try {
        if (type.startsWith('multipart/form-data')) {
          const form = await new Request('http://fake/', {
            method: 'POST',
            headers: { 'content-type': type },
            body: raw,
          }).formData();
          const part = form.get('file');
          if (part && typeof part !== 'string')
            call.file = { name: part.name, type: part.type, data: Buffer.from(await part.arrayBuffer()) };
        } else if (raw.length) call.body = readJson(raw.toString('utf8'));
      } catch {
        return error(res, 400, 'BAD_REQUEST', 'malformed body');
      }
      fake.calls.push(call);
      if (key === undefined) return error(res, 401, 'UNAUTHORIZED', 'Api-Key header is missing');
      if (key !== fake.apiKey || prefix[1] !== fake.businessId)
        return error(res, 403, 'FORBIDDEN', 'Token is not valid or access is denied');
      if (limited > 0) {
        limited--;
        return error(res, limitStatus, 'LIMIT_EXCEEDED', 'Hit rate limit of 4 parallel requests');
      }
      if (failing > 0) {
        failing--;
        return error(res, 500, 'INTERNAL_ERROR', 'Internal server error');
      }
      if (call.method === 'POST' && ['/chats', '/chats/history'].includes(call.path) && !raw.length)
        return error(res, 400, 'BAD_REQUEST', 'request body is required');
      route(call, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
