import { randomUUID } from 'node:crypto';
import {
  type AccessChangedPayload,
  type Audience,
  REALTIME_CLOSE,
  type RealtimeFrame,
} from '@smartconnect/contracts';
import type { Histogram } from 'prom-client';
import type { WebSocket } from 'ws';
import type { AppContext } from '../context.ts';
import { type AuthContext, idleCutoff } from '../http/auth.ts';
import { metricsOf } from '../lib/metrics.ts';
import type { Signal, StoredEvent } from './bus.ts';
import { PresenceTracker } from './presence.ts';
import * as Q from './queries.ts';
import { type Reader, replayPolicies } from './replay-policies.ts';
import { Sequencer } from './sequencer.ts';
import { type Frame, TickWrites } from './tick-writes.ts';
import { allTopics, type TopicSocket, topicOf } from './topics.ts';
import { userTeamIds } from './user-teams.ts';

export type GatewayOptions = {
  /** Protocol-level ping; a socket that has not answered the previous ping by the next one is dropped. */
  pingMs: number;
  /** How often sessions, rights and teams of live sockets are re-read (revoked tokens are closed). */
  revalidateMs: number;
  /** Poll for events the bus did not bring (lost Redis messages, writers without a bus). */
  catchUpMs: number;
  /** Events older than this are pruned; a resume from before them gets `resync`. */
  retentionMs: number;
  pruneEveryMs: number;
  /** A resume that would replay more than this many events gets `resync` instead. */
  maxReplay: number;
  /** A socket whose unsent buffer exceeds this is closed (slow consumer); it resumes on reconnect. */
  maxBufferedBytes: number;
  offlineGraceMs: number;
  presenceHeartbeatMs: number;
  gapCheckMs: number;
  gapTimeoutMs: number;
  /** Delivered ids remembered to drop a second copy (from the bus and the log both). */
  recentSize: number;
  /** Open sockets per user on this instance; a new one past this closes the user's oldest. */
  maxSocketsPerUser: number;
};

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  pingMs: 25_000,
  revalidateMs: 15_000,
  catchUpMs: 1_000,
  retentionMs: 24 * 3600_000,
  pruneEveryMs: 3600_000,
  maxReplay: 5_000,
  maxBufferedBytes: 4 * 1024 * 1024,
  offlineGraceMs: 300_000,
  presenceHeartbeatMs: 10_000,
  gapCheckMs: 100,
  gapTimeoutMs: 5_000,
  recentSize: 100_000,
  maxSocketsPerUser: 20,
};

type Connection = {
  id: string;
  socket: WebSocket;
  userId: string;
  organisationId: string;
  sessionId: string;
  rights: Set<string>;
  teams: Set<string>;
  /** While a resume replays from the database, live frames wait here. */
  pending: { id: number; frame: Frame }[] | null;
  alive: boolean;
  openedAt: number;
  /** The topics this socket subscribed to (realtime/topics.ts), with the handle each topic holds. */
  topics: Map<string, TopicSocket>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const frameOf = (e: StoredEvent): string =>
  `{"id":"${e.id}","type":"${e.type}","payload":${JSON.stringify(e.payload ?? null)}}`;

/** Whether an event's audience reaches this reader (a socket; the soak bench checks what each socket got with it). */
export function audienceMatches(c: Pick<Reader, 'userId' | 'teams' | 'rights'>, a: Audience): boolean {
  if (a.all) return true;
  if (a.userIds?.includes(c.userId)) return true;
  if (a.teamIds) for (const t of a.teamIds) if (c.teams.has(t)) return true;
  if (a.rights) for (const r of a.rights) if (c.rights.has(r)) return true;
  return false;
}

/**
 * The websocket gateway of one instance: holds its sockets per organisation, delivers each committed
 * event (in id order, see Sequencer) to the sockets whose user it concerns, and resumes reconnecting
 * sockets from the event log without loss or duplicates.
 */
export class Gateway {
  readonly instanceId = randomUUID();
  readonly options: GatewayOptions;
  readonly presence: PresenceTracker;
  readonly #byOrg = new Map<string, Set<Connection>>();
  readonly #timers: NodeJS.Timeout[] = [];
  /** Frames to one socket within a tick leave in one write (tick-writes.ts). */
  readonly #writes = new TickWrites();
  #sequencer!: Sequencer;
  #unsubscribe: (() => void)[] = [];
  #closing = false;
  readonly #lag: Histogram;
  /** Frames handed to sockets so far (the metric smartconnect_realtime_frames_total). */
  delivered = 0;

  constructor(
    private readonly app: AppContext,
    options: Partial<GatewayOptions> = {},
  ) {
    this.options = { ...DEFAULT_GATEWAY_OPTIONS, ...options };
    const metrics = metricsOf(app);
    this.#lag = metrics.realtimeLag;
    metrics.realtimeFrames = () => this.delivered;
    this.presence = new PresenceTracker(app, this.instanceId, {
      graceMs: this.options.offlineGraceMs,
      heartbeatMs: this.options.presenceHeartbeatMs,
      staleMs: this.options.presenceHeartbeatMs * 3,
    });
  }

  get watermark(): number {
    return this.#sequencer.watermark;
  }

  get connections(): number {
    let n = 0;
    for (const set of this.#byOrg.values()) n += set.size;
    return n;
  }

  async start(): Promise<void> {
    const { bus, db } = this.app;
    const early: StoredEvent[] = [];
    const earlyDiscards: string[][] = [];
    // Subscribe before reading the log's end, so that nothing commits unseen in between.
    this.#unsubscribe.push(
      bus.subscribe((e) => (this.#sequencer ? this.#sequencer.accept(e) : early.push(e))),
    );
    this.#unsubscribe.push(bus.onSignal((s) => this.#signal(s)));
    if (bus.onDiscard)
      this.#unsubscribe.push(
        bus.onDiscard((ids) => (this.#sequencer ? this.#sequencer.discard(ids) : earlyDiscards.push(ids))),
      );
    const start = await Q.maxEventId(db);
    this.#sequencer = new Sequencer(
      start,
      (e) => this.#deliver(e),
      {
        between: (after, before, limit) => Q.eventsBetween(db, after, before - 1, limit),
        writers: () => Q.eventWriters(db),
      },
      this.options,
      (err) => this.app.log.warn({ err }, 'realtime sequencer error'),
    );
    for (const e of early) this.#sequencer.accept(e);
    for (const ids of earlyDiscards) this.#sequencer.discard(ids);
    this.presence.start();
    this.#every(this.options.pingMs, () => this.#ping());
    this.#every(this.options.revalidateMs, () => this.revalidate());
    this.#every(this.options.catchUpMs, () => this.#catchUp());
    this.#every(this.options.pruneEveryMs, () => this.prune());
  }

  #every(ms: number, fn: () => unknown): void {
    const t = setInterval(() => {
      Promise.resolve()
        .then(fn)
        .catch((err) => this.app.log.warn({ err }, 'realtime background task failed'));
    }, ms);
    t.unref();
    this.#timers.push(t);
  }

  async #catchUp(): Promise<void> {
    // Only when the bus has been quiet: a busy bus is evidently working.
    if (Date.now() - this.#sequencer.lastArrival < this.options.catchUpMs) return;
    await this.#sequencer.catchUp();
  }

  #deliver(e: StoredEvent): void {
    for (const topic of allTopics()) {
      try {
        topic.onEvent?.(this.app, e);
      } catch (err) {
        this.app.log.warn({ err, type: e.type }, 'realtime topic failed on an event');
      }
    }
    const conns = this.#byOrg.get(e.organisationId);
    if (!conns) return;
    if (e.type === 'access.changed') this.#applyAccess(conns, e.payload as AccessChangedPayload);
    let frame: Buffer | undefined;
    for (const c of conns) {
      if (!audienceMatches(c, e.audience ?? {})) continue;
      frame ??= Buffer.from(frameOf(e));
      if (c.pending) c.pending.push({ id: Number(e.id), frame });
      else this.#send(c, frame);
    }
    if (frame !== undefined) this.#lag.observe((Date.now() - Date.parse(e.createdAt)) / 1000);
  }

  /** A signal goes to the live sockets it concerns now; one still resuming misses it (signals are not replayed). */
  #signal(s: Signal): void {
    const conns = this.#byOrg.get(s.organisationId);
    if (!conns) return;
    const frame = Buffer.from(JSON.stringify({ id: '', type: s.type, payload: s.payload }));
    for (const c of conns) if (!c.pending && audienceMatches(c, s.audience)) this.#send(c, frame);
  }

  /**
   * A user's teams, rights or sessions changed: their open sockets take the new scope before the next event is
   * matched (events are delivered in id order), and sockets of ended sessions or a deactivated user close.
   */
  #applyAccess(conns: Set<Connection>, p: AccessChangedPayload): void {
    for (const c of [...conns]) {
      if (c.userId !== p.userId) continue;
      const ended =
        !p.active ||
        (p.keepSessionId !== undefined && c.sessionId !== p.keepSessionId) ||
        (p.endedSessionIds?.includes(c.sessionId) ?? false);
      if (ended) {
        c.socket.close(REALTIME_CLOSE.unauthorized, 'session ended');
        this.#remove(c);
        continue;
      }
      c.teams = new Set(p.teamIds);
      c.rights = new Set(p.rights);
    }
  }

  /** Keeps a user's sockets on this instance within the cap by closing their oldest. */
  #capSockets(set: Set<Connection>, userId: string): void {
    const mine = [...set].filter((c) => c.userId === userId).sort((a, b) => a.openedAt - b.openedAt);
    for (const c of mine.slice(0, Math.max(0, mine.length - this.options.maxSocketsPerUser))) {
      c.socket.close(REALTIME_CLOSE.tooManySockets, 'too many open sockets for this user');
      this.#remove(c);
    }
  }

  #send(c: Connection, frame: Frame): void {
    if (c.socket.readyState !== c.socket.OPEN) return;
    if (c.socket.bufferedAmount > this.options.maxBufferedBytes) {
      c.socket.close(REALTIME_CLOSE.slowConsumer, 'too far behind, reconnect to resume');
      return;
    }
    this.delivered++;
    this.#writes.hold(c.socket);
    c.socket.send(frame, { binary: false });
  }

  #sendFrame(c: Connection, frame: RealtimeFrame): void {
    this.#send(c, JSON.stringify(frame));
  }

  /** Takes a freshly upgraded, authenticated socket: registers it, replays from lastEventId, then goes live. */
  async accept(socket: WebSocket, auth: AuthContext, lastEventId: string | undefined): Promise<void> {
    if (this.#closing) {
      socket.close(REALTIME_CLOSE.serviceRestart, 'server restarting');
      return;
    }
    const c: Connection = {
      id: randomUUID(),
      socket,
      userId: auth.userId,
      organisationId: auth.organisationId,
      sessionId: auth.sessionId,
      rights: new Set(auth.rights),
      teams: new Set(),
      pending: [],
      alive: true,
      openedAt: performance.now(),
      topics: new Map(),
    };
    socket.on('pong', () => {
      c.alive = true;
    });
    socket.on('message', (data) => {
      // Application-level keep-alive for browsers, which cannot send protocol pings.
      const text = data.toString();
      if (text === 'ping' || text.includes('"ping"'))
        this.#sendFrame(c, { id: '', type: 'pong', payload: null });
      else if (text.startsWith('{')) void this.#topicMessage(c, text);
    });
    socket.on('close', () => this.#remove(c));
    socket.on('error', () => undefined);
    try {
      c.teams = new Set(await userTeamIds(this.app.db, c.userId));
      if (socket.readyState !== socket.OPEN) return;
      const set = this.#byOrg.get(c.organisationId) ?? new Set<Connection>();
      this.#byOrg.set(c.organisationId, set);
      set.add(c);
      this.#capSockets(set, c.userId);
      void this.presence.opened(c.organisationId, c.userId);
      await this.#resume(c, lastEventId);
    } catch (err) {
      this.app.log.warn({ err }, 'realtime socket setup failed');
      socket.close(REALTIME_CLOSE.internalError, 'internal error');
    }
  }

  async #resume(c: Connection, lastEventId: string | undefined): Promise<void> {
    const hello = (id: number, resumed: boolean) =>
      this.#sendFrame(c, {
        id: String(id),
        type: 'hello',
        payload: { userId: c.userId, resumed, instanceId: this.instanceId },
      });
    let skipUpTo = 0;
    const goLive = (replayed: Set<number>) => {
      const pending = c.pending ?? [];
      c.pending = null;
      for (const p of pending) if (!replayed.has(p.id) && p.id > skipUpTo) this.#send(c, p.frame);
    };
    const resync = (reason: string, at: number) => {
      this.#sendFrame(c, { id: String(at), type: 'resync', payload: { reason } });
      goLive(new Set());
    };

    let watermark = this.#sequencer.watermark;
    if (lastEventId === undefined || lastEventId === '') {
      hello(watermark, false);
      goLive(new Set());
      return;
    }
    if (!/^\d{1,15}$/.test(lastEventId)) return resync('unknown', watermark);
    const cursor = Number(lastEventId);
    if (cursor > watermark) {
      // The client saw events this instance has not sequenced yet (it was connected elsewhere).
      if (cursor > (await Q.maxEventId(this.app.db))) return resync('unknown', watermark);
      // Read what the bus has not brought yet, and give a hole below the cursor a moment to settle.
      await this.#sequencer.catchUp(10_000);
      for (let i = 0; i < 20 && this.#sequencer.watermark < cursor; i++) await sleep(50);
      watermark = this.#sequencer.watermark;
      if (cursor > watermark) return resync('unknown', watermark);
      // Frames buffered meanwhile up to the cursor were delivered to this client by the other instance.
      skipUpTo = cursor;
    }
    if (cursor < (await Q.prunedThrough(this.app.db))) return resync('expired', watermark);
    const events = await Q.organisationEventsBetween(
      this.app.db,
      c.organisationId,
      cursor,
      watermark,
      this.options.maxReplay + 1,
    );
    if (events.length > this.options.maxReplay) return resync('too_many', watermark);
    const visible = events.filter((e) => audienceMatches(c, e.audience ?? {}));
    // The audience was who could read an event then; replay only what the user may still read now.
    const reader: Reader = {
      userId: c.userId,
      organisationId: c.organisationId,
      rights: c.rights,
      teams: c.teams,
    };
    for (const policy of replayPolicies()) {
      if ((await policy(this.app, reader, visible)).size) return resync('access', watermark);
    }
    hello(cursor, true);
    const replayed = new Set<number>();
    for (const e of visible) {
      replayed.add(Number(e.id));
      this.#send(c, frameOf(e));
    }
    goLive(replayed);
  }

  /** `{"type":"subscribe","topic","params"}` or `{"type":"unsubscribe","topic"}` (contracts/realtime.ts). */
  async #topicMessage(c: Connection, text: string): Promise<void> {
    let msg: { type?: unknown; topic?: unknown; params?: unknown };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    if (typeof msg.topic !== 'string') return;
    const name = msg.topic;
    const topic = topicOf(name);
    const refuse = (code: string) =>
      this.#sendFrame(c, { id: '', type: 'topic', payload: { topic: name, refused: code } });
    if (!topic) return refuse('validationException');
    const old = c.topics.get(name);
    if (old) {
      c.topics.delete(name);
      topic.unsubscribe(this.app, old);
    }
    if (msg.type !== 'subscribe') return;
    const handle: TopicSocket = {
      id: c.id,
      userId: c.userId,
      organisationId: c.organisationId,
      get rights() {
        return c.rights;
      },
      get teams() {
        return c.teams;
      },
      get open() {
        return c.socket.readyState === c.socket.OPEN && c.topics.get(name) === handle;
      },
      push: (data) => {
        if (c.topics.get(name) === handle)
          this.#sendFrame(c, { id: '', type: 'topic', payload: { topic: name, data } });
      },
      refuse: (code) => {
        if (c.topics.get(name) !== handle) return;
        c.topics.delete(name);
        refuse(code);
      },
    };
    c.topics.set(name, handle);
    try {
      const refused = await topic.subscribe(this.app, handle, msg.params);
      if (refused) {
        topic.unsubscribe(this.app, handle);
        handle.refuse(refused);
      }
    } catch (err) {
      this.app.log.warn({ err, topic: name }, 'realtime topic subscribe failed');
      topic.unsubscribe(this.app, handle);
      handle.refuse('unknownException');
    }
  }

  #remove(c: Connection): void {
    for (const [name, handle] of c.topics) topicOf(name)?.unsubscribe(this.app, handle);
    c.topics.clear();
    const set = this.#byOrg.get(c.organisationId);
    if (!set?.delete(c)) return;
    if (!set.size) this.#byOrg.delete(c.organisationId);
    void this.presence.closed(c.organisationId, c.userId);
  }

  #ping(): void {
    for (const set of this.#byOrg.values())
      for (const c of set) {
        if (!c.alive) {
          c.socket.terminate();
          continue;
        }
        c.alive = false;
        c.socket.ping();
      }
  }

  /** Re-reads every live socket's session, rights and teams: closes revoked ones, updates the rest. */
  async revalidate(): Promise<void> {
    const all = [...this.#byOrg.values()].flatMap((s) => [...s]);
    if (!all.length) return;
    const states = await Q.sessionStates(
      this.app.db,
      [...new Set(all.map((c) => c.sessionId))],
      idleCutoff(this.app, this.app.clock.now()),
    );
    const bySession = new Map(states.map((s) => [s.session_id, s]));
    for (const c of all) {
      const s = bySession.get(c.sessionId);
      if (!s?.valid) {
        c.socket.close(REALTIME_CLOSE.unauthorized, 'session ended');
        this.#remove(c);
        continue;
      }
      c.rights = new Set(s.rights ?? []);
      c.teams = new Set(s.team_ids ?? []);
    }
  }

  /** Deletes events older than the retention, in batches. */
  async prune(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.options.retentionMs);
    let total = 0;
    for (;;) {
      const n = await Q.pruneEvents(this.app.db, before, 5_000);
      total += n;
      if (n < 5_000) return total;
    }
  }

  /** The server is shutting down: a socket arriving now is told to reconnect elsewhere (1012) at once. */
  drain(): void {
    this.#closing = true;
  }

  async stop(): Promise<void> {
    this.#closing = true;
    for (const t of this.#timers) clearInterval(t);
    for (const topic of allTopics()) topic.stop?.(this.app);
    for (const u of this.#unsubscribe) u();
    this.#sequencer?.close();
    for (const set of this.#byOrg.values())
      for (const c of set) c.socket.close(REALTIME_CLOSE.serviceRestart, 'server restarting');
    this.#byOrg.clear();
    await this.presence.stop();
  }
}
