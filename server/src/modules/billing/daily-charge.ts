import type { AppContext } from '../../context.ts';
import { dailyPrice } from './plans.ts';
import * as Q from './queries.ts';

const BATCH = 100;

/**
 * The daily tariff charge for the clock's current UTC day: each organisation on a plan whose paid days
 * (`paid_until`: trial, extensions, earlier charges) do not cover the day pays a thirtieth of the plan's monthly
 * price, and its paid days move to the day. Exactly once per organisation and day: the charge row is unique by
 * (organisation, day) and written in the transaction that takes the money, so two instances, a retry or a restart
 * in the middle never charge twice. A prepaid balance that does not cover the day is not charged: the day is
 * recorded as a cancelled charge and left unpaid. Returns how many organisations it charged.
 */
export async function runDailyCharges(app: AppContext): Promise<number> {
  const today = app.clock.now().toISOString().slice(0, 10);
  let charged = 0;
  for (;;) {
    const due = await Q.dueForCharge(app.db, today, BATCH);
    for (const org of due) {
      const price = dailyPrice(org.price);
      const done = await app.db.tx(async (q) => {
        const o = await Q.billingOf(q, org.id, true);
        if (!o || (o.paid_until !== null && o.paid_until >= today)) return false;
        const covered = o.billing_mode === 'postpaid' || Number(o.balance) >= price;
        const id = await Q.insertPayment(q, {
          organisationId: org.id,
          kind: 'charge',
          status: covered ? 'succeeded' : 'canceled',
          amount: price,
          notes: covered
            ? `Tariff ${org.plan_name}, ${today}`
            : `Tariff ${org.plan_name}, ${today}: not enough balance`,
          chargeDay: today,
        });
        if (!id || !covered) return false;
        await Q.addBalance(q, org.id, -price);
        await Q.setPaidUntil(q, org.id, today);
        return true;
      });
      if (done) charged++;
    }
    if (due.length < BATCH) return charged;
  }
}
