import type { StoredEvent } from './bus.ts';

export type SequencerOptions = {
  /** After this long with a hole below a held event, look the hole up in the database. */
  gapCheckMs: number;
  /**
   * A hole still empty after this long is stepped over even while writers are in flight (a very long
   * transaction); an event that commits later is still delivered, late.
   */
  gapTimeoutMs: number;
  /** How many delivered ids are remembered to drop a second copy of one (bus and database both). */
  recentSize: number;
};

export type SequencerSource = {
  /** Committed events with ids in (after, before), in id order, at most `limit`. */
  between(after: number, before: number, limit: number): Promise<StoredEvent[]>;
  /** Ids of the transactions now able to write events (other than the reader's own); null when unknown. */
  writers?(): Promise<string[] | null>;
};

/**
 * Turns events arriving in publication order (which under concurrent transactions is not id order)
 * into one stream in id order. `watermark` is the id up to which every event has been delivered or is
 * known never to commit; a socket that joins at the watermark and replays (its cursor, watermark] from
 * the database therefore misses nothing and sees nothing twice.
 */
export class Sequencer {
  watermark: number;
  readonly #held = new Map<number, StoredEvent>();
  readonly #discarded = new Set<number>();
  readonly #recent = new Set<number>();
  readonly #recentOrder: number[] = [];
  #recentHead = 0;
  #gapSince = 0;
  #timer: NodeJS.Timeout | undefined;
  #checking = false;
  #closed = false;
  #inFlight: { writers: Set<string>; below: number } | undefined;
  lastArrival = 0;

  constructor(
    start: number,
    private readonly deliver: (event: StoredEvent) => void,
    private readonly source: SequencerSource,
    private readonly options: SequencerOptions,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.watermark = start;
  }

  get held(): number {
    return this.#held.size;
  }

  /** An event from the bus or the database, in any order, possibly twice. */
  accept(event: StoredEvent): void {
    this.lastArrival = Date.now();
    const id = Number(event.id);
    if (id <= this.watermark) {
      // Late: a transaction stepped over as dead (or in flight at start-up) committed after all.
      if (this.#recent.has(id) || this.#discarded.has(id)) return;
      this.#emit(id, event);
      return;
    }
    if (this.#held.has(id)) return;
    this.#held.set(id, event);
    this.#advance();
  }

  /** Ids whose transaction rolled back. */
  discard(ids: string[]): void {
    for (const raw of ids) {
      const id = Number(raw);
      if (id > this.watermark) this.#discarded.add(id);
    }
    this.#advance();
  }

  #emit(id: number, event: StoredEvent): void {
    this.#remember(id);
    try {
      this.deliver(event);
    } catch (err) {
      this.onError(err);
    }
  }

  #remember(id: number): void {
    const size = this.options.recentSize;
    if (this.#recentOrder.length < size) this.#recentOrder.push(id);
    else {
      this.#recent.delete(this.#recentOrder[this.#recentHead]);
      this.#recentOrder[this.#recentHead] = id;
      this.#recentHead = (this.#recentHead + 1) % size;
    }
    this.#recent.add(id);
  }

  #advance(): void {
    const before = this.watermark;
    for (;;) {
      const next = this.watermark + 1;
      const event = this.#held.get(next);
      if (event) {
        this.#held.delete(next);
        this.watermark = next;
        this.#emit(next, event);
      } else if (this.#discarded.has(next)) {
        this.#discarded.delete(next);
        this.watermark = next;
      } else break;
    }
    // How long the watermark has been stuck below a held event.
    if (!this.#held.size) this.#gapSince = 0;
    else if (this.watermark !== before || !this.#gapSince) this.#gapSince = Date.now();
    if (this.#held.size && !this.#timer && !this.#closed) {
      this.#timer = setTimeout(() => this.#checkGap(), this.options.gapCheckMs);
      this.#timer.unref();
    }
  }

  /** Looks at the current hole now instead of at the next timer (tests). */
  checkGaps(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    return this.#checkGap();
  }

  async #checkGap(): Promise<void> {
    this.#timer = undefined;
    if (this.#checking || this.#closed || !this.#held.size) return;
    this.#checking = true;
    try {
      // Which writers were in flight when the hole was first seen: once they have all finished, every id
      // below the highest event held then has either committed (and is read below) or never will.
      // The writers are asked before the rows are read, so a writer that commits in between is read.
      let settledBelow = 0;
      const writers = this.source.writers ? await this.source.writers() : null;
      if (writers) {
        if (!this.#inFlight) this.#inFlight = { writers: new Set(writers), below: this.#lastHeld() };
        if (!writers.some((w) => this.#inFlight?.writers.has(w))) {
          settledBelow = this.#inFlight.below;
          this.#inFlight = undefined;
        }
      }
      const found = await this.source.between(this.watermark, this.#lastHeld(), 10_000);
      for (const e of found) this.accept(e);
      // Step over ids still missing (a rolled-back or crashed writer): every hole below settledBelow,
      // or, after the timeout, the hole the watermark has been stuck at.
      while (this.#held.size && this.#firstHeld() <= settledBelow) this.#stepTo(this.#firstHeld());
      const timedOut = this.#gapSince && Date.now() - this.#gapSince >= this.options.gapTimeoutMs;
      if (this.#held.size && timedOut) {
        this.#inFlight = undefined;
        this.#stepTo(this.#firstHeld());
      }
    } catch (err) {
      this.onError(err);
    } finally {
      this.#checking = false;
      if (!this.#held.size) this.#inFlight = undefined;
      if (this.#held.size && !this.#timer && !this.#closed) {
        this.#timer = setTimeout(() => this.#checkGap(), this.options.gapCheckMs);
        this.#timer.unref();
      }
    }
  }

  /** Declares every id between the watermark and `id` (a held event) dead, and delivers on from `id`. */
  #stepTo(id: number): void {
    if (id > this.watermark + 1) this.watermark = id - 1;
    this.#advance();
  }

  #lastHeld(): number {
    let max = 0;
    for (const id of this.#held.keys()) if (id > max) max = id;
    return max;
  }

  #firstHeld(): number {
    let min = Number.POSITIVE_INFINITY;
    for (const id of this.#held.keys()) if (id < min) min = id;
    return min;
  }

  /** Takes in whatever committed after the watermark that the bus has not brought (lost pub/sub messages). */
  async catchUp(limit = 1000): Promise<void> {
    const found = await this.source.between(this.watermark, Number.MAX_SAFE_INTEGER, limit);
    for (const e of found) this.accept(e);
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
  }
}
