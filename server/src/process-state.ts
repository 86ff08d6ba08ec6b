/**
 * One kind of per-process state (a batcher, a cache, a socket hub, ...), declared where it is used: made for an app
 * on first use, and released by the app's close() when it has a `release`.
 */
export type StateSlot<T, A> = {
  readonly name: string;
  create(app: A): T;
  release?(value: T): void | Promise<void>;
};

/** The slot maker for apps of type A (context.ts makes `stateSlot` for the AppContext). */
export const slotFor =
  <A>() =>
  <T>(
    name: string,
    create: (app: A) => T,
    release?: (value: T) => void | Promise<void>,
  ): StateSlot<T, A> => ({
    name,
    create,
    release,
  });

/**
 * The process state of one app, owned by its AppContext (`app.state`): every slot's value lives here, so a second
 * app in the same process (a test's second instance) has its own, and close() releases them, newest first.
 */
export class ProcessState<A> {
  readonly #values = new Map<StateSlot<unknown, A>, unknown>();

  /** The slot's value, made on first use. */
  of<T>(app: A, slot: StateSlot<T, A>): T {
    if (this.#values.has(slot as StateSlot<unknown, A>))
      return this.#values.get(slot as StateSlot<unknown, A>) as T;
    const value = slot.create(app);
    this.#values.set(slot as StateSlot<unknown, A>, value);
    return value;
  }

  /** The slot's value if it was made, without making it. */
  peek<T>(slot: StateSlot<T, A>): T | undefined {
    return this.#values.get(slot as StateSlot<unknown, A>) as T | undefined;
  }

  set<T>(slot: StateSlot<T, A>, value: T): void {
    this.#values.set(slot as StateSlot<unknown, A>, value);
  }

  delete<T>(slot: StateSlot<T, A>): void {
    this.#values.delete(slot as StateSlot<unknown, A>);
  }

  /** The names of the slots made so far (tests, diagnostics). */
  get names(): string[] {
    return [...this.#values.keys()].map((s) => s.name);
  }

  /** Releases every value that has a release, newest first; a failing release does not stop the others. */
  async close(onError: (err: unknown, name: string) => void): Promise<void> {
    const made = [...this.#values].reverse();
    this.#values.clear();
    for (const [slot, value] of made) {
      try {
        await slot.release?.(value);
      } catch (err) {
        onError(err, slot.name);
      }
    }
  }
}
