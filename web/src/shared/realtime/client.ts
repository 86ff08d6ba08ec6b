import {
  REALTIME_CLOSE,
  RECONNECT_JITTER_MS,
  type RealtimeEventType,
  type RealtimeFrame,
  type RealtimeSignalType,
  type RealtimeTopic,
  type TopicFramePayload,
} from '@smartconnect/contracts/constants';

/** A stored event (its id is the cursor), or a signal (typing: empty id, never replayed). */
export type RealtimeEvent = { id: string; type: RealtimeEventType | RealtimeSignalType; payload: unknown };

type SocketLike = {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(code?: number): void;
  send(data: string): void;
};

export type RealtimeOptions = {
  /** The token of the session; the socket is not opened without one. */
  token: () => string | null;
  /** `ws(s)://host` of the API. */
  origin: string;
  onEvent: (event: RealtimeEvent) => void;
  /** The server could not replay the gap (or this is a reconnect with no cursor): refetch everything. */
  onResync: () => void;
  /** Every hello (the socket is up): the server answers again, whatever the last HTTP call said. */
  onConnected?: () => void;
  /** Close code 4001, or a refused upgrade the HTTP check confirms as 401: back to login. */
  onUnauthorized: () => void;
  /** A refused upgrade says nothing about why: an HTTP call tells a revoked token from a network failure. */
  probe?: () => Promise<unknown>;
  createSocket?: (url: string) => SocketLike;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
  random?: () => number;
};

/** Backoff of the n-th failed attempt in a row: 0.5 s doubling up to 30 s, with ±25 % jitter. */
export function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(30_000, 500 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.75 + random() * 0.5));
}

/**
 * One websocket per tab to `/api/realtime`: keeps the id of the last frame seen and reconnects with it as
 * `lastEventId` (the server replays the gap or answers `resync`), with backoff; stops for good on 4001.
 */
export class RealtimeClient {
  #socket: SocketLike | null = null;
  #timer: unknown = null;
  #attempt = 0;
  #stopped = true;
  #opened = false;
  /** The token the current socket was opened with. */
  #token: string | null = null;
  /** True once a socket has been lost: the next hello without a cursor means data may have been missed. */
  #hadConnection = false;
  /** The socket said hello: topic messages can be sent. */
  #ready = false;
  lastEventId: string | null = null;

  constructor(private readonly o: RealtimeOptions) {}

  get connected(): boolean {
    return this.#opened;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#connect();
  }

  /** Closes the socket and forgets the cursor (logout). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) (this.o.clearTimer ?? clearTimeout)(this.#timer as number);
    this.#timer = null;
    const s = this.#socket;
    this.#socket = null;
    if (s) {
      s.onclose = null;
      s.close(1000);
    }
    this.lastEventId = null;
    this.#opened = false;
    this.#ready = false;
  }

  #url(token: string): string {
    const q = new URLSearchParams({ token });
    if (this.lastEventId) q.set('lastEventId', this.lastEventId);
    return `${this.o.origin}/api/realtime?${q}`;
  }

  #connect(): void {
    const token = this.o.token();
    if (this.#stopped || !token) return;
    const create = this.o.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
    const socket = create(this.#url(token));
    this.#socket = socket;
    this.#token = token;
    this.#opened = false;
    socket.onopen = () => {
      this.#opened = true;
    };
    socket.onmessage = (ev) => this.handleFrame(String(ev.data));
    socket.onerror = () => {};
    socket.onclose = (ev) => this.#closed(ev.code);
  }

  /** Applies one frame (exported for tests through the instance). */
  handleFrame(data: string): void {
    let frame: RealtimeFrame;
    try {
      frame = JSON.parse(data) as RealtimeFrame;
    } catch {
      return;
    }
    if (frame.type === 'pong') return;
    if (frame.type === 'hello') {
      this.#attempt = 0;
      const resumed = (frame.payload as { resumed?: boolean } | null)?.resumed === true;
      // A reconnect that could not resume (no cursor yet) may have missed events: refetch.
      if (this.#hadConnection && !resumed) this.o.onResync();
      this.#hadConnection = true;
      if (frame.id) this.lastEventId = frame.id;
      this.#ready = true;
      // Subscriptions do not survive a reconnect: each new socket subscribes again (and gets full data).
      for (const [topic, entry] of topics) this.sendSubscribe(topic, entry.params);
      this.o.onConnected?.();
      return;
    }
    if (frame.type === 'topic') {
      const p = frame.payload as TopicFramePayload;
      topics.get(p.topic)?.onFrame(p);
      return;
    }
    if (frame.id) this.lastEventId = frame.id;
    if (frame.type === 'resync') {
      this.o.onResync();
      return;
    }
    this.o.onEvent(frame as RealtimeEvent);
  }

  /** Sends a topic subscription on the open socket (nothing when not connected: the next hello sends it). */
  sendSubscribe(topic: RealtimeTopic, params: unknown): void {
    if (this.#ready) this.#socket?.send(JSON.stringify({ type: 'subscribe', topic, params }));
  }

  sendUnsubscribe(topic: RealtimeTopic): void {
    if (this.#ready) this.#socket?.send(JSON.stringify({ type: 'unsubscribe', topic }));
  }

  #closed(code: number): void {
    this.#ready = false;
    const opened = this.#opened;
    this.#socket = null;
    this.#opened = false;
    if (this.#stopped) return;
    if (code === REALTIME_CLOSE.unauthorized) {
      // The session ended, but this tab holds a newer token already (a password change here or in another tab of
      // this browser): the socket comes back on it, resuming.
      const now = this.o.token();
      if (now && now !== this.#token) {
        this.#connect();
        return;
      }
      this.stop();
      this.o.onUnauthorized();
      return;
    }
    // The user's newer tabs displaced this one (a cap on sockets per user): reconnecting would displace another.
    if (code === REALTIME_CLOSE.tooManySockets) {
      this.stop();
      return;
    }
    // The instance is restarting (a rolling upgrade): another one takes the socket at once; the random wait spreads
    // the drained instance's clients.
    const restart = code === REALTIME_CLOSE.serviceRestart;
    if (restart) this.#attempt = 0;
    const delay = restart
      ? Math.round((this.o.random ?? Math.random)() * RECONNECT_JITTER_MS)
      : backoffMs(this.#attempt++, this.o.random);
    const retry = () => {
      this.#timer = null;
      this.#connect();
    };
    // Refused before opening: maybe the token was revoked (HTTP 401 before the upgrade); the probe's own
    // 401 handling logs out, anything else retries.
    if (!opened && !restart && this.o.probe)
      this.o.probe().then(
        () => this.#schedule(retry, delay),
        () => this.#schedule(retry, delay),
      );
    else this.#schedule(retry, delay);
  }

  #schedule(fn: () => void, ms: number): void {
    if (this.#stopped) return;
    this.#timer = (this.o.setTimer ?? setTimeout)(fn, ms);
  }
}

let active: RealtimeClient | null = null;

type TopicEntry = { params: unknown; onFrame: (p: TopicFramePayload) => void };
/** The tab's topic subscriptions, kept across sockets (a screen may subscribe before the socket is up). */
const topics = new Map<RealtimeTopic, TopicEntry>();

/**
 * Subscribes the tab to a topic of the realtime socket (one subscription per topic: a new one replaces it), now and
 * after every reconnect; answers the unsubscribe.
 */
export function subscribeTopic(
  topic: RealtimeTopic,
  params: unknown,
  onFrame: (p: TopicFramePayload) => void,
): () => void {
  const entry: TopicEntry = { params, onFrame };
  topics.set(topic, entry);
  active?.sendSubscribe(topic, params);
  return () => {
    if (topics.get(topic) !== entry) return;
    topics.delete(topic);
    active?.sendUnsubscribe(topic);
  };
}

/** Registers the tab's one client (a new one replaces and closes the previous). */
export function setActiveRealtime(client: RealtimeClient | null): void {
  if (active && active !== client) active.stop();
  active = client;
}

/** Closes the tab's socket (logout). */
export function closeRealtime(): void {
  setActiveRealtime(null);
}
