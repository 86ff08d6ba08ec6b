/**
 * The soak bench's clients (bench/soak.ts): an operator's realtime socket and a website visitor's widget, each
 * reconnecting and resuming the way the web app and the widget do; a fake provider that records every reply an API
 * channel delivers; requests retried as a provider or a browser retries them.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { REALTIME_CLOSE, RECONNECT_JITTER_MS } from '@smartconnect/contracts';
import { WebSocket } from 'ws';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A key for an idempotent send (clientKey, clientMessageId: 8-64 letters, digits, - or _). */
export const newKey = () => randomBytes(12).toString('hex');

export type Sent = { status: number; body: unknown; attempts: number; ms: number; at: number };

/**
 * POSTs until an answer that is not a restart's (a connection error, 502, 503 or 504 is retried with the same body,
 * so the same idempotency key): what a provider does with a webhook and the web app with a send. Gives up after
 * `deadlineMs` (status 0).
 */
export async function postRetried(
  url: string,
  headers: Record<string, string>,
  body: string,
  deadlineMs = 60_000,
): Promise<Sent> {
  const t0 = performance.now();
  let attempts = 0;
  for (;;) {
    attempts++;
    try {
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      if (![502, 503, 504].includes(res.status)) {
        const at = performance.now();
        return { status: res.status, body: text ? JSON.parse(text) : null, attempts, ms: at - t0, at };
      }
    } catch {
      // The connection dropped (an instance stopping under nginx): the same request again.
    }
    if (performance.now() - t0 > deadlineMs)
      return { status: 0, body: null, attempts, ms: performance.now() - t0, at: performance.now() };
    await sleep(Math.min(2000, 100 * 2 ** Math.min(attempts, 5)));
  }
}

/** Reconnect delay: at once within a random second after a restart's 1012, else backoff from 0.5 s up to 5 s. */
const reconnectDelay = (code: number, attempt: number) =>
  code === REALTIME_CLOSE.serviceRestart
    ? Math.random() * RECONNECT_JITTER_MS
    : Math.min(5000, 500 * 2 ** attempt);

export type Frame = { id: string; type: string; payload: unknown };

/**
 * An operator's tab: `GET /api/realtime?token=&lastEventId=`, reconnecting on close with the highest event id seen
 * (web/src/shared/realtime/client.ts). Remembers every event id it received (replays included) and every `resync`
 * with the gap it covers: (the cursor it reconnected with, the resync's id].
 */
export class OperatorSocket {
  ws?: WebSocket;
  firstCursor?: number;
  lastEventId?: number;
  readonly received = new Set<number>();
  readonly resyncs: { from: number; to: number; reason: string }[] = [];
  readonly closes = new Map<number, number>();
  /** Each connection: when its hello came (ms since start), the cursor it resumed from and the hello's id. */
  readonly connections: { at: number; cursor?: number; hello: number; resumed: boolean }[] = [];
  connects = 0;
  #attempt = 0;
  #stopped = false;

  constructor(
    readonly userId: string,
    private readonly base: string,
    private readonly token: string,
    private readonly onEvent: (f: Frame, at: number) => void,
  ) {}

  /** Resolves on the first hello. */
  start(): Promise<void> {
    return new Promise((ok) => this.#connect(ok));
  }

  #connect(onHello?: () => void) {
    if (this.#stopped) return;
    const cursor = this.lastEventId;
    const q = new URLSearchParams({ token: this.token });
    if (cursor !== undefined) q.set('lastEventId', String(cursor));
    const ws = new WebSocket(`${this.base}/api/realtime?${q}`);
    this.ws = ws;
    ws.on('message', (data) => {
      const at = performance.now();
      const f = JSON.parse(String(data)) as Frame;
      if (f.type === 'hello') {
        this.#attempt = 0;
        this.connects++;
        this.firstCursor ??= Number(f.id);
        const resumed = (f.payload as { resumed?: boolean } | null)?.resumed === true;
        this.connections.push({ at: Math.round(at), cursor, hello: Number(f.id), resumed });
        this.lastEventId = Math.max(this.lastEventId ?? 0, Number(f.id));
        onHello?.();
        return;
      }
      if (f.type === 'resync') {
        const reason = (f.payload as { reason?: string } | null)?.reason ?? '';
        this.resyncs.push({ from: cursor ?? 0, to: Number(f.id), reason });
        this.lastEventId = Number(f.id);
        return;
      }
      if (!f.id) return;
      const id = Number(f.id);
      this.received.add(id);
      this.lastEventId = Math.max(this.lastEventId ?? 0, id);
      this.onEvent(f, at);
    });
    ws.on('error', () => undefined);
    ws.on('close', (code) => {
      this.closes.set(code, (this.closes.get(code) ?? 0) + 1);
      if (this.#stopped || code === REALTIME_CLOSE.unauthorized || code === REALTIME_CLOSE.tooManySockets)
        return;
      setTimeout(() => this.#connect(onHello), reconnectDelay(code, this.#attempt++));
    });
  }

  /** The connections around an event id, for a report of what went missing. */
  history(id: number): string {
    return this.connections
      .filter(
        (c, i) =>
          (this.connections[i + 1]?.hello ?? Number.POSITIVE_INFINITY) >= id - 50 && c.hello <= id + 50,
      )
      .map((c) => `at ${c.at} ms from ${c.cursor ?? '-'} hello ${c.hello}${c.resumed ? ' resumed' : ''}`)
      .join(', ');
  }

  stop() {
    this.#stopped = true;
    this.ws?.terminate();
  }
}

type WidgetMessage = { id: string; direction: 'in' | 'out'; createdAt: string };

/**
 * A website visitor: a widget identity on a site-chat channel, from an address of its own (X-Forwarded-For, as
 * nginx passes it), its socket `/api/widget/:channelId/ws?token=&after=` resumed after the last message it has;
 * remembers the ids of the operators' messages it got (from `history` and `message` frames).
 */
export class WidgetVisitor {
  ws?: WebSocket;
  visitorId = '';
  token = '';
  /** The message it resumes after: the newest it has by time, as widget/src/widget.ts picks it. */
  last?: WidgetMessage;
  readonly got = new Set<string>();
  readonly sent: (Sent & { externalId: string })[] = [];
  readonly failed: string[] = [];
  connects = 0;
  #stopped = false;
  #attempt = 0;

  constructor(
    private readonly base: string,
    readonly channelId: string,
    readonly address: string,
  ) {}

  #headers = () => ({ 'content-type': 'text/plain', 'x-forwarded-for': this.address });

  async start() {
    const res = await postRetried(
      `${this.base}/api/widget/${this.channelId}/visitors`,
      this.#headers(),
      '{}',
    );
    if (res.status !== 200) throw new Error(`widget visitor: ${res.status} ${JSON.stringify(res.body)}`);
    ({ visitorId: this.visitorId, token: this.token } = (
      res.body as { entity: { visitorId: string; token: string } }
    ).entity);
    this.#connect();
  }

  #take(m: WidgetMessage) {
    if (m.direction === 'out') this.got.add(m.id);
    if (!this.last || m.createdAt >= this.last.createdAt) this.last = m;
  }

  #connect() {
    if (this.#stopped) return;
    const q = new URLSearchParams({ token: this.token });
    if (this.last) q.set('after', this.last.id);
    const ws = new WebSocket(`${this.base.replace(/^http/, 'ws')}/api/widget/${this.channelId}/ws?${q}`, {
      headers: { 'x-forwarded-for': this.address },
    });
    this.ws = ws;
    ws.on('open', () => {
      this.connects++;
      this.#attempt = 0;
    });
    ws.on('message', (data) => {
      const f = JSON.parse(String(data)) as {
        type: string;
        items?: WidgetMessage[];
        message?: WidgetMessage;
      };
      if (f.type === 'history') for (const m of f.items ?? []) this.#take(m);
      else if (f.type === 'message' && f.message) this.#take(f.message);
    });
    ws.on('error', () => undefined);
    ws.on('close', (code) => {
      if (!this.#stopped) setTimeout(() => this.#connect(), reconnectDelay(code, this.#attempt++));
    });
  }

  /** One message, resent with the same clientMessageId until it is answered. */
  async say(text: string) {
    const clientMessageId = newKey();
    const res = await postRetried(
      `${this.base}/api/widget/${this.channelId}/messages?token=${encodeURIComponent(this.token)}`,
      this.#headers(),
      JSON.stringify({ clientMessageId, text }),
    );
    const externalId = `${this.visitorId}:${clientMessageId}`;
    if (res.status === 200) {
      this.sent.push({ ...res, externalId });
      this.#take((res.body as { entity: WidgetMessage }).entity);
    } else this.failed.push(`${res.status} ${JSON.stringify(res.body)}`);
  }

  stop() {
    this.#stopped = true;
    this.ws?.terminate();
  }
}

/** The far end of the API channels' webhooks: answers 200 and counts every delivery of each of our message ids. */
export async function fakeProvider(port: number) {
  const deliveries = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      try {
        const { messageId } = JSON.parse(body) as { messageId?: string };
        if (messageId) deliveries.set(messageId, (deliveries.get(messageId) ?? 0) + 1);
      } catch {
        // Not a webhook body: answered all the same.
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  return { deliveries, close: () => new Promise((r) => server.close(r)) };
}
