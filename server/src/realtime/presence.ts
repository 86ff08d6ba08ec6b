import type { AppContext } from '../context.ts';
import * as Q from './queries.ts';

/** What happens to a user who has no socket left on any instance (the presence module sets them offline). */
export type UserGoneHandler = (
  app: AppContext,
  user: { organisationId: string; userId: string },
) => Promise<void>;
let userGone: UserGoneHandler | null = null;

/** Registers what a user gone from every instance triggers (at boot, modules/setup.ts); a new one replaces it. */
export function onUserGone(handler: UserGoneHandler): void {
  userGone = handler;
}

export type PresenceOptions = {
  /** How long a user may have no socket on any instance before they are set offline. */
  graceMs: number;
  /** How often this instance says its sockets are alive (and reaps dead instances' rows). */
  heartbeatMs: number;
  /** Rows not refreshed for this long belong to a dead instance. */
  staleMs: number;
};

/**
 * Counts live sockets per user on this instance in `realtime_presence`, so that every instance knows
 * whether a user still has a tab open anywhere; a user with none for the grace period goes offline.
 */
export class PresenceTracker {
  readonly #local = new Map<string, { organisationId: string; sockets: number }>();
  readonly #graceTimers = new Map<string, NodeJS.Timeout>();
  #heartbeat: NodeJS.Timeout | undefined;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly app: AppContext,
    readonly instanceId: string,
    readonly options: PresenceOptions,
  ) {}

  start(): void {
    this.#heartbeat = setInterval(() => void this.heartbeat(), this.options.heartbeatMs);
    this.#heartbeat.unref();
  }

  /** Writes go one after another so that the row always ends at the latest count. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(fn, fn);
    this.#chain = next.catch((err) => this.app.log.warn({ err }, 'realtime presence write failed'));
    return next;
  }

  opened(organisationId: string, userId: string): Promise<void> {
    const entry = this.#local.get(userId) ?? { organisationId, sockets: 0 };
    entry.sockets++;
    this.#local.set(userId, entry);
    const timer = this.#graceTimers.get(userId);
    if (timer) clearTimeout(timer);
    this.#graceTimers.delete(userId);
    const count = entry.sockets;
    return this.#serial(() =>
      Q.setInstanceSockets(this.app.db, this.instanceId, organisationId, userId, count),
    );
  }

  closed(organisationId: string, userId: string): Promise<void> {
    const entry = this.#local.get(userId);
    if (!entry) return Promise.resolve();
    entry.sockets--;
    const count = entry.sockets;
    if (count <= 0) {
      this.#local.delete(userId);
      const timer = setTimeout(() => {
        this.#graceTimers.delete(userId);
        void this.#offlineIfGone(organisationId, userId);
      }, this.options.graceMs);
      timer.unref();
      this.#graceTimers.set(userId, timer);
    }
    return this.#serial(() =>
      Q.setInstanceSockets(this.app.db, this.instanceId, organisationId, userId, Math.max(count, 0)),
    );
  }

  async #offlineIfGone(organisationId: string, userId: string): Promise<void> {
    try {
      await this.#chain;
      if (this.#local.has(userId)) return;
      if (await Q.hasLiveSockets(this.app.db, userId)) return;
      await this.#setOffline(organisationId, userId);
    } catch (err) {
      this.app.log.warn({ err, userId }, 'realtime could not set a disconnected user offline');
    }
  }

  async #setOffline(organisationId: string, userId: string): Promise<void> {
    if ((await Q.userPresence(this.app.db, userId)) === 'offline') return;
    if (!userGone) return void this.app.log.error({ userId }, 'realtime has no handler for a user gone');
    await userGone(this.app, { organisationId, userId });
  }

  /** Refreshes this instance's rows and sets offline the users whose only sockets were on a dead instance. */
  async heartbeat(): Promise<void> {
    try {
      await this.#serial(() => Q.touchInstance(this.app.db, this.instanceId));
      const orphans = await Q.reapStalePresence(this.app.db, this.options.staleMs / 1000);
      for (const o of orphans) {
        if (this.#local.has(o.user_id)) continue;
        await this.#setOffline(o.organisation_id, o.user_id);
      }
    } catch (err) {
      this.app.log.warn({ err }, 'realtime presence heartbeat failed');
    }
  }

  /** Stops timers; rows are left to age out so that users who reconnect elsewhere within the grace keep their status. */
  async stop(): Promise<void> {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    for (const t of this.#graceTimers.values()) clearTimeout(t);
    this.#graceTimers.clear();
    await this.#chain.catch(() => undefined);
  }
}
