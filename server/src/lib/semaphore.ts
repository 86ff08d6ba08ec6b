/** At most `limit` holders at a time; the others wait in arrival order. */
export type Semaphore = {
  /** Runs `fn` once a place is free, and frees it when `fn` settles. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Holders now, and callers waiting. */
  readonly active: number;
  readonly waiting: number;
};

export function createSemaphore(limit: number): Semaphore {
  if (!Number.isInteger(limit) || limit < 1) throw new Error('a semaphore needs a limit of at least 1');
  let active = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  return {
    async run(fn) {
      if (active < limit) active++;
      // A place handed over by release(): `active` stays as it was.
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await fn();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
