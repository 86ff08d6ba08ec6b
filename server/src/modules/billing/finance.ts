import { randomUUID } from 'node:crypto';
import {
  type BillingDocumentDto,
  CURRENCY,
  type FinanceDto,
  type PaymentDto,
  VAT_RATE,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { addBalance } from '../organisations/billing-state.ts';
import { resumeIfSuspended } from './daily-charge.ts';
import { demoPaymentOf, markDemoPayment } from './demo-payments.ts';
import { topUpNote } from './notes.ts';
import { renderDocument } from './pdf.ts';
import { changePlan, dailyPrice, money, presentPlan } from './plans.ts';
import { paymentProvider, providerName } from './provider.ts';
import * as Q from './queries.ts';
import { billingState } from './suspension.ts';

/** At most this many top-ups waiting for the payer at once (§8 'limit on simultaneously created objects'). */
export const MAX_PENDING_TOP_UPS = 3;

const day = (d: Date) => d.toISOString().slice(0, 10);

async function billing(app: AppContext, orgId: string) {
  const org = await Q.billingOf(app.db, orgId);
  if (!org) throw new AppError('organizationNotFoundException');
  return org;
}

export async function financeSummary(app: AppContext, orgId: string): Promise<FinanceDto> {
  const org = await billing(app, orgId);
  const plan = org.plan_id ? await Q.findPlan(app.db, org.plan_id) : null;
  return {
    balance: money(org.balance),
    currency: CURRENCY,
    billingMode: org.billing_mode,
    paidUntil: org.paid_until,
    plan: plan ? presentPlan(plan) : null,
    tariffName: plan?.name ?? org.tariff_name,
    dailyCharge: plan ? dailyPrice(plan.price) : 0,
    state: await billingState(app, orgId),
  };
}

const presentPayment = (p: Q.PaymentRow): PaymentDto => ({
  id: p.id,
  transactionId: p.provider_payment_id ?? p.id,
  date: new Date(p.created_at).toISOString(),
  type: p.kind,
  status: p.status,
  amount: money(p.amount),
  currency: p.currency,
  notes: p.notes,
});
export const listPayments = async (app: AppContext, orgId: string) =>
  (await Q.listPayments(app.db, orgId)).map(presentPayment);

const presentDocument = (d: Q.DocumentRow): BillingDocumentDto => ({
  id: d.id,
  kind: d.kind,
  number: d.number,
  sum: money(d.sum),
  vat: money(d.vat),
  paid: d.paid,
  releaseDate: d.release_date,
  period: d.period,
  link: `/api/finance/documents/${d.id}/pdf`,
});
export const listDocuments = async (app: AppContext, orgId: string) =>
  (await Q.listDocuments(app.db, orgId)).map(presentDocument);

export async function documentPdf(app: AppContext, orgId: string, id: string) {
  const doc = await Q.findDocument(app.db, orgId, id);
  if (!doc) throw new AppError('documentNotFoundException');
  const org = await billing(app, orgId);
  return { doc, pdf: await renderDocument(doc, org) };
}

/** The organisation's own change of plan from the finance screen (the options screen's change-plan action). */
export async function changeOwnPlan(app: AppContext, orgId: string, planId: string) {
  await app.db.tx((q) => changePlan(q, orgId, planId));
  await resumeIfSuspended(app, orgId);
  return financeSummary(app, orgId);
}

const vatOf = (sum: number) => Math.round((sum * VAT_RATE * 100) / (100 + VAT_RATE)) / 100;

/**
 * Starts a top-up: a pending payment and its unpaid invoice, then the provider's payment with our payment's id as
 * the Idempotence-Key (a retried call cannot create a second one). Refuses a postpaid account (§8 'postpaid account
 * not switched to prepaid'), an installation without a shop ('billing account not registered') and more than
 * MAX_PENDING_TOP_UPS waiting at once.
 */
export async function topUp(app: AppContext, orgId: string, amount: number) {
  const provider = await paymentProvider(app, orgId);
  const paymentId = await app.db.tx(async (q) => {
    const org = await Q.billingOf(q, orgId, true);
    if (!org) throw new AppError('organizationNotFoundException');
    if (org.billing_mode === 'postpaid') throw new AppError('postpaidAccountException');
    if ((await Q.pendingTopUps(q, orgId)) >= MAX_PENDING_TOP_UPS)
      throw new AppError('objectsLimitException', undefined, { limit: MAX_PENDING_TOP_UPS });
    const id = (await Q.insertPayment(q, {
      organisationId: orgId,
      kind: 'top_up',
      status: 'pending',
      amount,
      notes: topUpNote(org.language),
      idempotenceKey: randomUUID(),
    })) as string;
    await Q.insertDocument(q, {
      organisationId: orgId,
      paymentId: id,
      kind: 'invoice',
      sum: amount,
      vat: vatOf(amount),
      paid: false,
      day: day(app.clock.now()),
    });
    return id;
  });
  try {
    const created = await provider.create(app, {
      organisationId: orgId,
      amount,
      currency: CURRENCY,
      returnUrl: `${app.config.publicUrl}/admin/finance/balance?payment=${paymentId}`,
      description: `SmartConnect top-up ${paymentId}`,
      idempotenceKey: paymentId,
      paymentId,
    });
    const url = created.confirmation?.confirmation_url ?? null;
    await Q.setProviderPayment(app.db, paymentId, created.id, url);
    if (!url) throw new AppError('providerUnavailableException');
    return { paymentId, confirmationUrl: url };
  } catch (err) {
    // Nothing was charged: the payment is cancelled so it does not hold a place among the pending ones.
    await app.db.tx((q) => Q.settle(q, paymentId, 'canceled'));
    throw err;
  }
}

/**
 * Settles a top-up from what the provider says when asked (a notification is only a hint to ask): succeeded
 * credits the balance and marks its invoice paid with an act and a factura, cancelled closes it. Exactly once:
 * only the call that moves the payment out of pending credits, however many notifications arrive.
 */
export async function settleFromProvider(app: AppContext, providerPaymentId: string): Promise<boolean> {
  const local = await Q.paymentByProviderId(app.db, providerPaymentId);
  if (local?.status !== 'pending') return false;
  const remote = await (await paymentProvider(app, local.organisation_id)).fetch(app, providerPaymentId);
  const amount = money(local.amount);
  if (remote.status === 'succeeded' && remote.paid) {
    if (Number(remote.amount.value) !== amount || remote.amount.currency !== local.currency) {
      app.log.warn({ providerPaymentId }, 'payment amount differs from the top-up: not credited');
      return false;
    }
    const credited = await app.db.tx(async (q) => {
      if (!(await Q.settle(q, local.id, 'succeeded'))) return false;
      await addBalance(q, local.organisation_id, amount);
      await Q.markDocumentsPaid(q, local.id);
      for (const kind of ['act', 'factura'] as const)
        await Q.insertDocument(q, {
          organisationId: local.organisation_id,
          paymentId: local.id,
          kind,
          sum: amount,
          vat: vatOf(amount),
          paid: true,
          day: day(app.clock.now()),
        });
      return true;
    });
    // A top-up that covers the day's charge lifts a suspension at once (the charge taken, the days moved).
    if (credited) await resumeIfSuspended(app, local.organisation_id);
    return credited;
  }
  if (remote.status === 'canceled') await app.db.tx((q) => Q.settle(q, local.id, 'canceled'));
  return false;
}

/** The payer came back to the finance page: ask the provider now rather than wait for its notification. */
export async function refreshPayment(app: AppContext, orgId: string, id: string) {
  const p = await Q.findPayment(app.db, orgId, id);
  if (!p) throw new AppError('paymentNotFoundException');
  if (p.status === 'pending' && p.provider_payment_id) await settleFromProvider(app, p.provider_payment_id);
  return presentPayment((await Q.findPayment(app.db, orgId, id)) as Q.PaymentRow);
}

/**
 * The demo payment page: the payment it shows, and the payer's answer settling the top-up. Only while the demo
 * page is the organisation's provider (a payment left from before a switch to YooKassa cannot be paid here).
 */
async function demoOnly(app: AppContext, orgId: string) {
  if ((await providerName(app, orgId)) !== 'demo') throw new AppError('paymentNotFoundException');
}
export async function demoPayment(app: AppContext, orgId: string, id: string) {
  await demoOnly(app, orgId);
  return demoPaymentOf(app, orgId, id);
}
export async function answerDemo(
  app: AppContext,
  orgId: string,
  id: string,
  outcome: 'succeeded' | 'canceled',
) {
  await demoOnly(app, orgId);
  await markDemoPayment(app, orgId, id, outcome);
  // Another organisation's id changed nothing above, so settling finds it still pending at the provider.
  await settleFromProvider(app, id);
  return demoPaymentOf(app, orgId, id);
}
