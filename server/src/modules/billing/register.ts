import { registerPeriodic } from '../../jobs/periodic.ts';
import { runDailyCharges } from './daily-charge.ts';

const EVERY_MS = 60_000;
let lastRun = 0;

/** The daily tariff charge: looked at once a minute per process (by the app's clock); the charge itself is exactly once per day. */
export function registerBilling(): void {
  registerPeriodic('daily-tariff-charge', async (app) => {
    const now = app.clock.now().getTime();
    if (Math.abs(now - lastRun) < EVERY_MS) return;
    lastRun = now;
    await runDailyCharges(app);
  });
}
