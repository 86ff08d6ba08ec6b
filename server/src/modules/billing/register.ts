import { registerPeriodic } from '../../jobs/periodic.ts';
import { runDailyCharges } from './daily-charge.ts';
import { runMonthlyActs } from './monthly-acts.ts';

const EVERY_MS = 60_000;
let lastRun = 0;

/**
 * The daily tariff charge, then the monthly acts: looked at once a minute per process (by the app's clock); each is
 * exactly once by the database (per organisation and day, per organisation and month).
 */
export function registerBilling(): void {
  registerPeriodic('daily-tariff-charge', async (app) => {
    const now = app.clock.now().getTime();
    if (Math.abs(now - lastRun) < EVERY_MS) return;
    lastRun = now;
    await runDailyCharges(app);
    await runMonthlyActs(app);
  });
}
