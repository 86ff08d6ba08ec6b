import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { distributeTeamQueues } from '../conversation/routing-distribute.ts';
import { addBalance, setPaidUntil, setSuspended } from '../organisations/billing-state.ts';
import { chargeNote } from './notes.ts';
import { dailyPrice } from './plans.ts';
import * as Q from './queries.ts';

const BATCH = 100;

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * One organisation's tariff for `today`, inside the caller's transaction (the organisation row locked). Paid days
 * (`paid_until`, the last paid day: trial, extensions, earlier charges) that cover today lift a suspension. Else, on
 * a plan, today's charge (a thirtieth of the monthly price) is taken from a prepaid balance that covers it (a
 * postpaid one may go negative) and the paid days move to today, lifting a suspension; a prepaid balance that does
 * not cover it leaves the day unpaid (one cancelled charge row for the day) and suspends the organisation for
 * non-payment. A prepaid organisation whose paid days ran out with no plan to pay for is suspended too. Exactly
 * once per organisation and day: one charge row per (organisation, day), a cancelled one turned succeeded when a
 * later try of the same day can pay. Returns whether it charged.
 */
export async function chargeDay(q: Queryable, orgId: string, today: string, now: Date): Promise<boolean> {
  const o = await Q.billingOf(q, orgId, true);
  if (!o || o.is_platform || o.status !== 'active') return false;
  const suspend = (on: boolean) =>
    on === (o.suspended_at !== null) ? undefined : setSuspended(q, orgId, on ? now : null);
  if (o.paid_until !== null && o.paid_until >= today) {
    await suspend(false);
    return false;
  }
  const plan = o.plan_id ? await Q.findPlan(q, o.plan_id) : null;
  if (!plan) {
    await suspend(o.paid_until !== null && o.billing_mode === 'prepaid');
    return false;
  }
  const prior = await Q.chargeOfDay(q, orgId, today);
  if (prior?.status === 'succeeded') return false;
  const price = dailyPrice(plan.price);
  if (o.billing_mode === 'prepaid' && Number(o.balance) < price) {
    if (!prior)
      await Q.insertPayment(q, {
        organisationId: orgId,
        kind: 'charge',
        status: 'canceled',
        amount: price,
        notes: chargeNote(o.language, plan.name, today, true),
        chargeDay: today,
      });
    await suspend(true);
    return false;
  }
  const notes = chargeNote(o.language, plan.name, today);
  if (prior) await Q.chargeSucceeded(q, prior.id, price, notes);
  else
    await Q.insertPayment(q, {
      organisationId: orgId,
      kind: 'charge',
      status: 'succeeded',
      amount: price,
      notes,
      chargeDay: today,
    });
  await addBalance(q, orgId, -price);
  await setPaidUntil(q, orgId, today);
  await suspend(false);
  return true;
}

/**
 * The daily tariff charge for the clock's current UTC day (see chargeDay): each organisation whose day is due and
 * not yet tried today. Two instances, a retry or a restart in the middle never charge twice: the charge row and
 * the money move in one transaction under the organisation's row lock. Returns how many organisations it charged.
 */
export async function runDailyCharges(app: AppContext): Promise<number> {
  const now = app.clock.now();
  const today = utcDay(now);
  let charged = 0;
  for (;;) {
    const due = await Q.dueForCharge(app.db, today, BATCH);
    for (const org of due) if (await app.db.tx((q) => chargeDay(q, org.id, today, now))) charged++;
    if (due.length < BATCH) return charged;
  }
}

/**
 * Something may let a suspended organisation pay (a top-up, a change of plan, staff's edit or extension): today's
 * charge is tried at once, so the suspension lifts without waiting for tomorrow's run, and the chats that waited
 * meanwhile go to the operators online. Nothing for one not suspended.
 */
export async function resumeIfSuspended(app: AppContext, orgId: string): Promise<void> {
  const now = app.clock.now();
  const lifted = await app.db.tx(async (q) => {
    if (!(await Q.billingOf(q, orgId))?.suspended_at) return false;
    await chargeDay(q, orgId, utcDay(now), now);
    return !(await Q.billingOf(q, orgId))?.suspended_at;
  });
  if (lifted) await distributeTeamQueues(app, await Q.teamIdsOf(app.db, orgId));
}
