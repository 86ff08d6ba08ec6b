import type { ReadyDto } from '@smartconnect/contracts';
import { type AppContext, stateSlot } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import type { JobRunnerStatus } from '../../jobs/runner.ts';

/** A check that has not answered in this time has failed. */
export const READY_CHECK_TIMEOUT_MS = 3_000;
/** The job runner polls every second: one that has not finished a poll for this long is stuck. */
export const JOBS_STALE_MS = 60_000;

const runners = new WeakMap<Db, () => JobRunnerStatus>();
/** Set when the server starts shutting down: from then on the instance answers 'draining'. */
const DRAINING = stateSlot<{ since?: Date }>('health.draining', () => ({}));

/** The server is shutting down: /api/ready answers 503 'draining' so that load balancers send no new traffic. */
export function markDraining(app: AppContext): void {
  app.state.of(app, DRAINING).since ??= new Date();
}

/** The server tells readiness about its job runner once it started it. */
export function watchJobRunner(app: Pick<AppContext, 'db'>, status: () => JobRunnerStatus): void {
  runners.set(app.db, status);
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const check = async (work: () => Promise<unknown>): Promise<'ok' | 'fail'> => {
  try {
    await within(work(), READY_CHECK_TIMEOUT_MS);
    return 'ok';
  } catch {
    return 'fail';
  }
};

/** Whether this instance can serve: the database answers, Redis (when configured) answers, the job runner runs. */
export async function readiness(app: AppContext): Promise<ReadyDto> {
  const runner = runners.get(app.db);
  const [database, redis] = await Promise.all([
    check(() => app.db.query('select 1')),
    app.config.redisUrl && app.bus.ping
      ? check(() => app.bus.ping?.() ?? Promise.resolve())
      : ('off' as const),
  ]);
  let jobs: 'ok' | 'fail' = 'fail';
  if (runner) {
    const s = runner();
    jobs = !s.stopped && Date.now() - s.lastPollAt < JOBS_STALE_MS ? 'ok' : 'fail';
  }
  const checks = { database, redis, jobs } as const;
  const ready = Object.values(checks).every((c) => c !== 'fail');
  if (app.state.peek(DRAINING)?.since) return { status: 'draining', checks };
  return { status: ready ? 'ready' : 'unavailable', checks };
}
