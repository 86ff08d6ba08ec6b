import type { AppContext } from '../context.ts';
import { runOutbox, stopKicks } from './outbox.ts';
import { runPeriodic } from './periodic.ts';
import { runPipeline } from './pipeline.ts';
import { runDuePolls, stopPolls } from './polls.ts';
import { markJobsStopping } from './stopping.ts';
import { runDueTimers } from './timers.ts';

export const POLL_INTERVAL_MS = 1_000;

/** `lastPollAt`: when the last poll ended (or the runner started), for readiness; `stopped` once stopping. */
export type JobRunnerStatus = { stopped: boolean; lastPollAt: number; polling: boolean };
export type JobRunner = { stop(): Promise<void>; status(): JobRunnerStatus };

/** Polls pipeline jobs, durable timers, the outbox and pull channels (IMAP) about once a second; safe to run on every instance at once. */
export function startJobs(app: AppContext, intervalMs = POLL_INTERVAL_MS): JobRunner {
  let stopped = false;
  let running: Promise<void> | null = null;
  let lastPollAt = Date.now();
  const tick = async () => {
    try {
      await runPipeline(app);
      await runDueTimers(app);
      await runOutbox(app);
      // Pull channels' sessions run in the background under their leases (polls.ts).
      await runDuePolls(app);
      // Modules' periodic work (report rollups, provider token renewal): jobs/periodic.ts.
      await runPeriodic(app);
    } catch (err) {
      if (!stopped) app.log.error({ err }, 'job poll failed');
    }
  };
  const timer = setInterval(() => {
    if (stopped || running) return;
    running = tick().finally(() => {
      running = null;
      lastPollAt = Date.now();
    });
  }, intervalMs);
  timer.unref();
  return {
    status: () => ({ stopped, lastPollAt, polling: running !== null }),
    async stop() {
      stopped = true;
      // The poll in flight finishes what it holds and claims nothing more.
      markJobsStopping(app);
      clearInterval(timer);
      await running;
      await stopPolls(app);
      await stopKicks(app);
    },
  };
}
