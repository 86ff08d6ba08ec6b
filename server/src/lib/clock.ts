/** The time source of the server; tests swap it to move time forward without waiting. */
export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

/** A clock that tests advance by hand. */
export class ManualClock implements Clock {
  #t: number;
  constructor(start = Date.now()) {
    this.#t = start;
  }
  now(): Date {
    return new Date(this.#t);
  }
  advance(ms: number): void {
    this.#t += ms;
  }
}
