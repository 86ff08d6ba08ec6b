import type { PollSession } from './types.ts';

/**
 * What the long-polling adapters share (Telegram's getUpdates, VK's Bots Long Poll): waiting that a session's end
 * cuts short, and the wait after failures.
 */

/** Resolves after `ms`, or at once when the session ends. */
export const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });

/** Waits after failures (network, 5xx) double from 1 s up to a minute; a success starts over. */
export const LONG_POLL_BACKOFF_MS = [1_000, 60_000] as const;

/** The wait after `failures` failures in a row: 1 s doubling up to a minute. */
export const backoffMs = (failures: number) =>
  Math.min(LONG_POLL_BACKOFF_MS[0] * 2 ** Math.min(Math.max(failures - 1, 0), 10), LONG_POLL_BACKOFF_MS[1]);

/**
 * How a session's provider is doing, for the channel's admins: `failed` records the provider out of reach (an
 * 'unreachable' problem, which opens only when it lasts) and waits longer after each failure in a row; `answered`
 * ends the channel's problems on the session's first answer and the first one after failures.
 */
export function pollHealth(session: PollSession) {
  let failures = 0;
  let reported = false;
  return {
    failed: async (detail: string) => {
      failures++;
      await session.problem('unreachable', detail);
      await pause(backoffMs(failures), session.signal);
    },
    answered: async () => {
      if (reported && !failures) return;
      failures = 0;
      reported = true;
      await session.working();
    },
  };
}

/** Seconds a provider may hold a long poll open (Telegram's `timeout`, VK's `wait`: 25 is what both suggest). */
export const LONG_POLL_HOLD_S = 25;

/** A refused token is tried again this much later (the admin may fix it at the provider meanwhile). */
export const REFUSED_AGAIN_MS = 5 * 60_000;

/** A channel that does not poll (its updates come by webhook) is looked at again this much later. */
export const NOT_POLLED_IDLE_MS = 60 * 60_000;

/**
 * The session's cursor, stored at most once a second while batches keep coming (each store is a statement; under
 * load a bot answers a batch every few milliseconds). Safe because the provider is told what was read by the next
 * request itself (Telegram's offset, VK's ts): after a crash the session starts from the stored cursor, at most a
 * second behind, and what comes again is deduped by ingest. `save` answers false once the session's claim is lost
 * (known when it stores); `flush` stores what is pending (the session ends).
 */
export function cursorSaver(session: PollSession, everyMs = 1_000) {
  let pending: Record<string, unknown> | null = null;
  let savedAt = 0;
  const store = async (cursor: Record<string, unknown>) => {
    pending = null;
    savedAt = Date.now();
    return session.saveCursor(cursor);
  };
  return {
    /** Stores now when `now` or a second has passed since the last store; else keeps it for later. */
    save: (cursor: Record<string, unknown>, now = false): Promise<boolean> => {
      if (now || Date.now() - savedAt >= everyMs) return store(cursor);
      pending = cursor;
      return Promise.resolve(true);
    },
    flush: async (): Promise<void> => {
      if (pending) await store(pending).catch(() => false);
    },
  };
}

/**
 * A polling pass's failed provider call: `refused` the channel's credentials, `retryAfterMs` the wait the provider
 * asked for. Thrown through the pass and read where it ends (what is not one of these is not the provider's).
 */
export class PollFailure extends Error {
  constructor(
    message: string,
    readonly refused = false,
    readonly retryAfterMs = 0,
  ) {
    super(message);
  }
}

/**
 * The end of a polling pass that threw (Ozon, Yandex Market, Avito): a refused key is the channel's problem, tried
 * again 5 minutes later; a provider failure is its 'unreachable' problem (opened only once it lasts), the failures
 * in a row are stored with `saveFailures` and the next pass waits the longer of the provider's Retry-After and the
 * backoff. Anything else (receive() failing: the channel was deactivated meanwhile) is not the provider's and is
 * thrown on for the job runner to retry. Answers when to poll again.
 */
export async function afterFailedPass(
  session: PollSession,
  err: unknown,
  failures: number,
  saveFailures: (failures: number) => Promise<unknown>,
): Promise<{ againInMs: number }> {
  if (session.signal.aborted) return { againInMs: 0 };
  if (!(err instanceof PollFailure)) throw err;
  if (err.refused) {
    await session.problem('token_refused', err.message);
    return { againInMs: REFUSED_AGAIN_MS };
  }
  await session.problem('unreachable', err.message);
  const n = failures + 1;
  await saveFailures(n).catch(() => false);
  return { againInMs: Math.max(err.retryAfterMs, backoffMs(n)) };
}
