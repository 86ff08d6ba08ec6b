import type { Queryable } from '../db/index.ts';
import { one } from '../db/index.ts';
import { AppError } from '../http/errors.ts';

export type Limit = { max: number; windowMs: number };

/** Fixed-window counter kept in the database, so every instance shares it. Returns the hits in the current window. */
export async function hit(q: Queryable, key: string, limit: Limit, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - limit.windowMs);
  const row = await one<{ hits: number }>(
    q,
    `insert into rate_limits (key, window_start, hits) values ($1, $2, 1)
     on conflict (key) do update set
       hits = case when rate_limits.window_start < $3 then 1 else rate_limits.hits + 1 end,
       window_start = case when rate_limits.window_start < $3 then $2 else rate_limits.window_start end
     returning hits`,
    [key, now, windowStart],
  );
  return row.hits;
}

/** Gives back one hit taken by `reserve` (an attempt that turned out to be allowed without counting, e.g. a success). */
export async function release(q: Queryable, keys: string[]): Promise<void> {
  await q.query('update rate_limits set hits = greatest(hits - 1, 0) where key = any($1::text[])', [keys]);
}

/**
 * Counts one attempt against every key before the work is done, and refuses with tooManyRequestsException
 * (with the seconds to wait) when a key is past its limit. Counting first is what makes a burst of parallel
 * attempts unable to slip under the limit: each one takes its own hit atomically.
 */
export async function reserve(q: Queryable, keys: string[], limit: Limit, now: Date): Promise<void> {
  let over = false;
  for (const key of keys) if ((await hit(q, key, limit, now)) > limit.max) over = true;
  if (over) {
    throw new AppError('tooManyRequestsException', undefined, {
      retryAfterSeconds: Math.ceil(limit.windowMs / 1000),
    });
  }
}
