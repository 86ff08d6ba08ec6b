import type { AppContext } from '../context.ts';

/** Work a module runs on every job poll (about once a second), e.g. folding report rollups; keep each call short. */
export type PeriodicTask = (app: AppContext) => Promise<void>;

const tasks = new Map<string, PeriodicTask>();

/** Registers a task by name (registering the same name again replaces it). */
export function registerPeriodic(name: string, task: PeriodicTask): void {
  tasks.set(name, task);
}

/** Runs every task once, one after another; a failing task is logged and does not stop the others. */
export async function runPeriodic(app: AppContext): Promise<void> {
  for (const [name, task] of tasks) {
    try {
      await task(app);
    } catch (err) {
      app.log.error({ err, task: name }, 'periodic task failed');
    }
  }
}
