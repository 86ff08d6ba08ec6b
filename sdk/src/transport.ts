import type { WidgetConfigDto, WidgetMessageDto, WidgetVisitorDto } from '@smartconnect/contracts';
import { REALTIME_CLOSE, RECONNECT_JITTER_MS, WIDGET_SOCKETS } from '@smartconnect/contracts/constants';

export type Rating = { uuid: string; text: string } | null;
export type Profile = { name?: string; email?: string; phone?: string };
export type Frame =
  | { type: 'message'; message: WidgetMessageDto }
  | { type: 'history'; items: WidgetMessageDto[] }
  | { type: 'rating'; rating: Rating }
  | { type: 'typing'; name: string | null }
  | { type: 'pong' };

/** A refused call: the server's error code and HTTP status. */
export class CallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

/** What the transport needs of its platform; each defaults to the global one when there is one. */
export type Platform = {
  /** `fetch` (browsers, React Native, Node 18+). */
  fetch?: typeof fetch;
  /** A WebSocket constructor (browsers, React Native, Node 22+; on Node 20 pass the `ws` package's). */
  WebSocket?: new (
    url: string,
  ) => WebSocket;
};

/**
 * The calls of a visitor widget channel's protocol (`/api/widget/{channelId}/...`, the site widget, the chat page and
 * the SDK): "simple" cross-origin requests (the token is a query parameter, JSON goes as text/plain), so a web
 * page's origin needs no preflight.
 */
export class ChatApi {
  token: string | null = null;
  constructor(
    readonly base: string,
    readonly channelId: string,
    readonly platform: Platform = {},
  ) {}

  /** The WebSocket constructor to use, read when a socket is opened (tests may swap the global one). */
  socketClass(): new (url: string) => WebSocket {
    const ctor = this.platform.WebSocket ?? globalThis.WebSocket;
    if (!ctor) throw new Error('no WebSocket: pass one in the platform options (the ws package on Node 20)');
    return ctor;
  }

  url(path: string, extra = ''): string {
    const q = [this.token ? `token=${encodeURIComponent(this.token)}` : '', extra].filter(Boolean).join('&');
    return `${this.base}/api/widget/${this.channelId}${path}${q ? `?${q}` : ''}`;
  }

  async call<T>(method: string, path: string, body?: unknown, extra = ''): Promise<T> {
    const res = await (this.platform.fetch ?? fetch)(this.url(path, extra), {
      method,
      credentials: 'omit',
      headers: body === undefined ? undefined : { 'content-type': 'text/plain' },
      body: body === undefined ? undefined : body instanceof Blob ? body : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as { code?: string; entity?: T } | null;
    if (!res.ok) throw new CallError(res.status, json?.code ?? 'unknownException');
    return json?.entity as T;
  }

  config = () => this.call<WidgetConfigDto>('GET', '/config');
  visitor = () => this.call<WidgetVisitorDto>('POST', '/visitors', {});
  history = (after?: string) =>
    this.call<{ items: WidgetMessageDto[]; rating: Rating }>(
      'GET',
      '/messages',
      undefined,
      after ? `after=${after}` : '',
    );
  send = (body: {
    clientMessageId: string;
    text: string;
    files: string[];
    name?: string;
    payload?: string;
  }) => this.call<WidgetMessageDto>('POST', '/messages', body);
  mark = (messageIds: string[], status: 'delivered' | 'read') =>
    this.call('POST', '/read', { messageIds, status });
  /** Uploads a file before it is sent (its key goes in `send`'s files): a Blob with the file's name. */
  upload = (file: Blob, name: string) =>
    this.call<{ key: string; name: string }>('POST', '/files', file, `name=${encodeURIComponent(name)}`);
  /** The visitor's own details (all optional); the chat's client shows them. */
  profile = (body: Profile) => this.call('POST', '/profile', body);
  /** The HTTP status of the visitor's rating: 200, 409 already rated, 404 not theirs or expired. */
  rate = (uuid: string, score: number) =>
    this.call('POST', '/rating', { uuid, score }).then(
      () => 200,
      (e: unknown) => (e instanceof CallError ? e.status : 0),
    );
}

/**
 * The live connection: a websocket that resumes from the last message it has (`after`) after any drop, with a
 * growing pause; while it is down the history is polled, so messages still arrive.
 */
export class Live {
  private ws: WebSocket | null = null;
  private retry = 0;
  private poll: ReturnType<typeof setInterval> | null = null;
  private ping: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  constructor(
    private readonly api: ChatApi,
    private readonly lastId: () => string | undefined,
    private readonly onFrame: (f: Frame) => void,
    private readonly onState: (up: boolean) => void,
  ) {}

  start(): void {
    if (this.stopped || this.ws) return;
    const after = this.lastId();
    const url = this.api.url('/ws', after ? `after=${after}` : '').replace(/^http/, 'ws');
    let ws: WebSocket;
    try {
      ws = new (this.api.socketClass())(url);
    } catch {
      this.down();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.onState(true);
      this.stopPolling();
      this.ping = setInterval(() => ws.readyState === 1 && ws.send('ping'), 25_000);
    };
    // A failed socket also closes (onclose reconnects); an error with no listener would throw on Node's ws.
    ws.onerror = () => undefined;
    ws.onmessage = (e) => {
      try {
        this.onFrame(JSON.parse(String(e.data)) as Frame);
      } catch {}
    };
    ws.onclose = (e) => {
      if (this.ping) clearInterval(this.ping);
      this.ws = null;
      // Refused (too many sockets of this visitor or address): keep to polling, try again much later. The server
      // restarting: another instance takes the socket at once, after a random wait that spreads its visitors.
      if (e.code === REALTIME_CLOSE.serviceRestart) {
        this.retry = 0;
        this.down(Math.round(Math.random() * RECONNECT_JITTER_MS));
      } else
        this.down(e.code === WIDGET_SOCKETS.tooManySocketsCode ? WIDGET_SOCKETS.retryAfterMs : undefined);
    };
  }

  private down(waitMs?: number): void {
    if (this.stopped) return;
    this.onState(false);
    if (!this.poll)
      this.poll = setInterval(() => {
        this.api
          .history(this.lastId())
          .then((h) => {
            for (const m of h.items) this.onFrame({ type: 'message', message: m });
            if (h.rating) this.onFrame({ type: 'rating', rating: h.rating });
          })
          .catch(() => undefined);
      }, 10_000);
    const wait = waitMs ?? Math.min(30_000, 1000 * 2 ** this.retry++);
    setTimeout(() => this.start(), wait);
  }

  private stopPolling(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
  }

  /** Tells the operators the visitor is writing, while the socket is up (the caller throttles): whether it went. */
  typing(): boolean {
    if (this.ws?.readyState !== 1) return false;
    this.ws.send('typing');
    return true;
  }

  /** Drops the socket now (tests, a lost network): the next one resumes. */
  drop(): void {
    this.ws?.close();
  }

  stop(): void {
    this.stopped = true;
    this.stopPolling();
    this.ws?.close();
  }
}
