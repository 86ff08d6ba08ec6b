/**
 * Group commit for inbound messages. Requests that arrive while the previous batch is being written are
 * written together, in ONE statement (one transaction, one commit), and each is answered only once that
 * commit has returned; their events are published after it, in arrival order.
 *
 * Guarantees (tests in ingest-batcher.test.ts):
 * - nothing is answered before its commit: a failed write rejects, never resolves;
 * - a message that makes its batch fail fails alone: the batch is retried one message at a time;
 * - dedupe: one (channel, external message id) is written once; its other copies in the same batch wait for
 *   the first and answer duplicate (a copy in a later batch is found by the statement itself);
 * - order per client (channel, external client id): messages are written in arrival order. Within a batch
 *   the statement keeps input order; batches run one after the other; and while a message of a client is
 *   retried alone, the client's later messages wait behind it.
 */

export type BatchKey = { channelId: string; externalClientId: string; externalMessageId: string };

/** What the store answers for one message of a batch. */
export type BatchOutcome<R, E> =
  | { kind: 'appended'; result: R; events: E[] }
  | { kind: 'duplicate'; result: R }
  /** Not stored by the batch statement (it lost a race to a concurrent writer): it runs again on its own. */
  | { kind: 'miss' };

export type BatchStore<I, R, E> = {
  /** Writes the batch in one transaction; one outcome per item, in order. Throws when nothing was committed. */
  append(items: I[]): Promise<BatchOutcome<R, E>[]>;
  /** One message on its own (its batch failed, or it lost a race there): stored, or answered as a duplicate. */
  alone(item: I): Promise<R>;
  /** Publishes committed events (after the commit). */
  publish(events: E[]): Promise<void>;
  /** The answer a second copy of a message gets once the first is stored. */
  duplicateOf(result: R): R;
};

type Waiter<I, R> = {
  /** Built when the message is taken into a batch (its timestamps are taken then). */
  make: () => I;
  key: BatchKey;
  client: string;
  /** Already waited behind its client's earlier messages: may run now. */
  released: boolean;
  resolve: (r: R) => void;
  reject: (err: unknown) => void;
};

export type BatcherOptions = {
  /** Most messages in one statement. */
  maxBatch: number;
  /**
   * Independent batch pipelines, each with one statement in flight; a client always uses the same one (its
   * order holds), so concurrent statements touch different chats. 1 where the database is one connection.
   */
  lanes?: number;
};

type Lane<I, R> = { queue: Waiter<I, R>[]; running: boolean; scheduled: boolean };

export class IngestBatcher<I, R, E> {
  readonly #lanes: Lane<I, R>[];
  /** Per client: the work its later messages must wait for (a transactional or lone write in progress). */
  readonly #tails = new Map<string, Promise<unknown>>();
  /** Statements written, messages in them: for tests and diagnostics. */
  batches = 0;
  batched = 0;

  constructor(
    private readonly store: BatchStore<I, R, E>,
    private readonly options: BatcherOptions = { maxBatch: 100 },
  ) {
    this.#lanes = Array.from({ length: Math.max(1, options.lanes ?? 1) }, () => ({
      queue: [],
      running: false,
      scheduled: false,
    }));
  }

  #laneOf(client: string): Lane<I, R> {
    if (this.#lanes.length === 1) return this.#lanes[0];
    let h = 2166136261;
    for (let i = 0; i < client.length; i++) h = Math.imul(h ^ client.charCodeAt(i), 16777619);
    return this.#lanes[(h >>> 0) % this.#lanes.length];
  }

  /** Stores one message; resolves after the commit that holds it. `make` builds the item when its batch is formed. */
  submit(key: BatchKey, make: () => I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const w: Waiter<I, R> = {
        make,
        key,
        client: `${key.channelId}\u0000${key.externalClientId}`,
        released: false,
        resolve,
        reject,
      };
      if (this.#tails.has(w.client)) this.#behind(w, () => this.#requeue(w));
      else this.#enqueue(w);
    });
  }

  #enqueue(w: Waiter<I, R>): void {
    const lane = this.#laneOf(w.client);
    lane.queue.push(w);
    if (lane.running || lane.scheduled) return;
    // Let the requests that arrived in this turn of the event loop join the first batch.
    lane.scheduled = true;
    setImmediate(() => {
      lane.scheduled = false;
      void this.#drain(lane);
    });
  }

  /** Puts a waiter back in the queue once its client's earlier work is done; settles when it is stored. */
  #requeue(w: Waiter<I, R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      w.released = true;
      w.resolve = resolve;
      w.reject = reject;
      this.#enqueue(w);
    });
  }

  /** Runs `work` after the client's earlier work and settles the request with it; later messages wait in turn. */
  #behind(w: Waiter<I, R>, work: () => Promise<R>): void {
    const { resolve, reject } = w;
    const prev = this.#tails.get(w.client) ?? Promise.resolve();
    const run = prev.then(work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(w.client, tail);
    void tail.then(() => {
      if (this.#tails.get(w.client) === tail) this.#tails.delete(w.client);
    });
    run.then(resolve, reject);
  }

  /** The message on its own: at once when it already holds its client's turn, else behind the client's earlier work. */
  #alone(w: Waiter<I, R>, item: I): void {
    if (w.released) this.store.alone(item).then(w.resolve, w.reject);
    else this.#behind(w, () => this.store.alone(item));
  }

  async #drain(lane: Lane<I, R>): Promise<void> {
    if (lane.running) return;
    lane.running = true;
    try {
      while (lane.queue.length) {
        const batch: Waiter<I, R>[] = [];
        while (lane.queue.length && batch.length < this.options.maxBatch) {
          const w = lane.queue.shift() as Waiter<I, R>;
          // Queued before an earlier message of its client went down the transactional path: wait for it.
          if (!w.released && this.#tails.has(w.client)) this.#behind(w, () => this.#requeue(w));
          else batch.push(w);
        }
        if (batch.length) await this.#write(batch);
      }
    } finally {
      lane.running = false;
    }
  }

  async #write(batch: Waiter<I, R>[]): Promise<void> {
    // One copy of each provider message goes to the statement; the others follow the first.
    const firsts: { w: Waiter<I, R>; item: I }[] = [];
    const byMessage = new Map<string, { w: Waiter<I, R>; copies: Waiter<I, R>[] }>();
    for (const w of batch) {
      const id = `${w.key.channelId}\u0000${w.key.externalMessageId}`;
      const first = byMessage.get(id);
      if (first) first.copies.push(w);
      else {
        byMessage.set(id, { w, copies: [] });
        firsts.push({ w, item: w.make() });
      }
    }
    const settled = new Map<Waiter<I, R>, Promise<R>>();
    const track = (w: Waiter<I, R>) => {
      const p = new Promise<R>((resolve, reject) => {
        const { resolve: res, reject: rej } = w;
        w.resolve = (r) => {
          res(r);
          resolve(r);
        };
        w.reject = (err) => {
          rej(err);
          reject(err);
        };
      });
      p.catch(() => undefined);
      settled.set(w, p);
    };
    for (const { w, copies } of byMessage.values()) {
      if (!copies.length) continue;
      track(w);
      const first = settled.get(w) as Promise<R>;
      for (const copy of copies)
        first.then(
          (r) => copy.resolve(this.store.duplicateOf(r)),
          // The first copy failed: this one tries on its own (a later retry would).
          () => this.#alone(copy, copy.make()),
        );
    }

    let outcomes: BatchOutcome<R, E>[];
    try {
      outcomes = await this.store.append(firsts.map((f) => f.item));
      if (outcomes.length !== firsts.length)
        throw new Error('ingest batch: one outcome per message expected');
    } catch {
      // Nothing of the batch committed: each message again on its own, so a bad one fails alone.
      for (const f of firsts) this.#alone(f.w, f.item);
      return;
    }
    this.batches++;
    this.batched += firsts.length;
    const events: E[] = [];
    const appended: { w: Waiter<I, R>; result: R }[] = [];
    firsts.forEach((f, i) => {
      const o = outcomes[i];
      if (o.kind === 'appended') {
        events.push(...o.events);
        appended.push({ w: f.w, result: o.result });
      } else if (o.kind === 'duplicate') f.w.resolve(o.result);
      else this.#alone(f.w, f.item);
    });
    if (!appended.length) return;
    try {
      await this.store.publish(events);
    } catch (err) {
      for (const a of appended) a.w.reject(err);
      return;
    }
    for (const a of appended) a.w.resolve(a.result);
  }
}

/**
 * Timestamps with microseconds, strictly increasing while the clock's millisecond stays the same (up to 1,000 per
 * millisecond): a message stamped here sorts after an earlier one of the same millisecond. The first of each
 * millisecond is the bare millisecond, as every other write of the chat is stamped, so a tie with such a write
 * falls to the ids (time-ordered uuid v7).
 */
export class MicroStamps {
  #ms = Number.NaN;
  #us = 0;

  /** ISO 8601 text with microseconds, for a timestamptz column. */
  next(now: Date): string {
    const ms = now.getTime();
    if (ms !== this.#ms) {
      this.#ms = ms;
      this.#us = 0;
    } else if (this.#us < 999) this.#us++;
    return `${now.toISOString().slice(0, 23)}${String(this.#us).padStart(3, '0')}Z`;
  }
}
