import { registerPeriodic } from '../../jobs/periodic.ts';
import { runDailyCharges } from './daily-charge.ts';
import { runMonthlyActs } from './monthly-acts.ts';

/**
 * The daily tariff charge, then the monthly acts: looked at once a minute per process (by the app's clock); each is
 * exactly once by the database (per organisation and day, per organisation and month).
 */
export function registerBilling(): void {
  registerPeriodic(
    'daily-tariff-charge',
    async (app) => {
      await runDailyCharges(app);
      await runMonthlyActs(app);
    },
    { everyMs: 60_000 },
  );
}
