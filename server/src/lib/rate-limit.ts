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

/** Hits in the current window, without counting one more. */
export async function peek(q: Queryable, key: string, limit: Limit, now: Date): Promise<number> {
  const rows = await q.query<{ hits: number }>(
    'select hits from rate_limits where key = $1 and window_start >= $2',
    [key, new Date(now.getTime() - limit.windowMs)],
  );
  return rows[0]?.hits ?? 0;
}

/** Refuses with tooManyRequestsException when any of the keys has used up its window. */
export async function assertUnder(q: Queryable, keys: string[], limit: Limit, now: Date): Promise<void> {
  for (const key of keys) {
    if ((await peek(q, key, limit, now)) >= limit.max) {
      throw new AppError('tooManyRequestsException', undefined, {
        retryAfterSeconds: Math.ceil(limit.windowMs / 1000),
      });
    }
  }
}
