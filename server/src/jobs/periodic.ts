import { type AppContext, stateSlot } from '../context.ts';

/** Work a module runs on every job poll (about once a second), e.g. folding report rollups; keep each call short. */
export type PeriodicTask = (app: AppContext) => Promise<void>;

const tasks = new Map<string, { task: PeriodicTask; everyMs: number }>();

/** When each task of this app last ran, by the app's clock (a task with `everyMs` waits that long between runs). */
const LAST_RUNS = stateSlot('periodic.last-runs', () => new Map<string, number>());

/**
 * Registers a task by name (registering the same name again replaces it). `everyMs`: at most one run in that time
 * per process, by the app's clock (a clock moved back counts as due too); 0 runs it on every poll.
 */
export function registerPeriodic(name: string, task: PeriodicTask, opts: { everyMs?: number } = {}): void {
  tasks.set(name, { task, everyMs: opts.everyMs ?? 0 });
}

/** Runs every due task once, one after another; a failing task is logged and does not stop the others. */
export async function runPeriodic(app: AppContext): Promise<void> {
  const lastRuns = app.state.of(app, LAST_RUNS);
  for (const [name, { task, everyMs }] of tasks) {
    if (everyMs) {
      const now = app.clock.now().getTime();
      const last = lastRuns.get(name);
      if (last !== undefined && Math.abs(now - last) < everyMs) continue;
      lastRuns.set(name, now);
    }
    try {
      await task(app);
    } catch (err) {
      app.log.error({ err, task: name }, 'periodic task failed');
    }
  }
}
