import { stateSlot } from '../../context.ts';
import { registerPeriodic } from '../../jobs/periodic.ts';
import { runDailyCharges } from './daily-charge.ts';
import { runMonthlyActs } from './monthly-acts.ts';

const EVERY_MS = 60_000;
const LAST_RUN = stateSlot('billing.last-run', () => ({ at: 0 }));

/**
 * The daily tariff charge, then the monthly acts: looked at once a minute per process (by the app's clock); each is
 * exactly once by the database (per organisation and day, per organisation and month).
 */
export function registerBilling(): void {
  registerPeriodic('daily-tariff-charge', async (app) => {
    const now = app.clock.now().getTime();
    const last = app.state.of(app, LAST_RUN);
    if (Math.abs(now - last.at) < EVERY_MS) return;
    last.at = now;
    await runDailyCharges(app);
    await runMonthlyActs(app);
  });
}
