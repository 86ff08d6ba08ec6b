import { VAT_RATE } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import * as Q from './queries.ts';

const BATCH = 100;

/**
 * The monthly acts for the daily tariff charges: once a calendar month is over in an organisation's time zone, one
 * act sums that month's charges (Finance -> billing, a PDF like the other documents). Exactly once per organisation
 * and month, whichever instance, retry or restart issues it (see Q.issueMonthlyActs). Returns how many it issued.
 */
export async function runMonthlyActs(app: AppContext): Promise<number> {
  let issued = 0;
  for (;;) {
    const n = await app.db.tx((q) => Q.issueMonthlyActs(q, app.clock.now(), VAT_RATE, BATCH));
    issued += n;
    if (n < BATCH) return issued;
  }
}
