import type { AppContext } from '../context.ts';
import { runOutbox, stopKicks } from './outbox.ts';
import { runPipeline } from './pipeline.ts';
import { runDueTimers } from './timers.ts';

export const POLL_INTERVAL_MS = 1_000;

export type JobRunner = { stop(): Promise<void> };

/** Polls pipeline jobs, durable timers and the outbox about once a second; safe to run on every instance at once. */
export function startJobs(app: AppContext, intervalMs = POLL_INTERVAL_MS): JobRunner {
  let stopped = false;
  let running: Promise<void> | null = null;
  const tick = async () => {
    try {
      await runPipeline(app);
      await runDueTimers(app);
      await runOutbox(app);
    } catch (err) {
      if (!stopped) app.log.error({ err }, 'job poll failed');
    }
  };
  const timer = setInterval(() => {
    if (stopped || running) return;
    running = tick().finally(() => {
      running = null;
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await stopKicks(app);
    },
  };
}
