import type { PlanDto, planBodySchema, planUpdateSchema } from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { applyPlan, reapplyPlan } from '../organisations/billing-state.ts';
import * as Q from './queries.ts';

export const money = (v: string | number) => Math.round(Number(v) * 100) / 100;
/** One day of a plan: a thirtieth of its monthly price, in kopecks' precision. */
export const dailyPrice = (monthly: string | number) => Math.round((Number(monthly) * 100) / 30) / 100;

export function presentPlan(row: Q.PlanRow): PlanDto {
  return {
    id: row.id,
    name: row.name,
    price: money(row.price),
    operatorLicences: row.operator_licences,
    accountsMax: row.accounts_max,
    options: row.options,
    organisations: row.organisations,
  };
}

export const listPlans = async (app: AppContext) => (await Q.listPlans(app.db)).map(presentPlan);

export async function createPlan(app: AppContext, body: z.output<typeof planBodySchema>) {
  return app.db.tx(async (q) => {
    if (await Q.planNameTaken(q, body.name)) throw new AppError('planNameAlreadyExistsException');
    const id = await Q.insertPlan(q, body);
    return presentPlan((await Q.findPlan(q, id)) as Q.PlanRow);
  });
}

/** Changes a plan; the organisations on it take its new licences and options at once. */
export async function updatePlan(app: AppContext, id: string, patch: z.output<typeof planUpdateSchema>) {
  return app.db.tx(async (q) => {
    if (!(await Q.findPlan(q, id))) throw new AppError('planNotFoundException');
    if (patch.name && (await Q.planNameTaken(q, patch.name, id)))
      throw new AppError('planNameAlreadyExistsException');
    await Q.updatePlan(q, id, patch);
    await reapplyPlan(q, id);
    return presentPlan((await Q.findPlan(q, id)) as Q.PlanRow);
  });
}

/**
 * Puts an organisation on a plan: a prepaid balance must cover the plan's monthly price (§8 'not enough balance to
 * change tariff', `details.price`), then the plan's licences and options replace the organisation's. Call inside
 * the transaction of the change.
 */
export async function changePlan(
  q: Queryable,
  orgId: string,
  planId: string,
  opts: { skipBalanceCheck?: boolean } = {},
): Promise<void> {
  const org = await Q.billingOf(q, orgId, true);
  if (!org) throw new AppError('organizationNotFoundException');
  const plan = await Q.findPlan(q, planId);
  if (!plan) throw new AppError('planNotFoundException');
  if (org.plan_id === plan.id) return;
  if (!opts.skipBalanceCheck && org.billing_mode === 'prepaid' && Number(org.balance) < Number(plan.price))
    throw new AppError('notEnoughBalanceException', undefined, {
      price: money(plan.price),
      balance: money(org.balance),
    });
  await applyPlan(q, orgId, plan);
}

/** §8 'quota exceeded for login': a plan with an account quota refuses one more user account past it. */
export async function assertAccountQuota(q: Queryable, orgId: string): Promise<void> {
  const org = await Q.billingOf(q, orgId);
  if (!org?.plan_id) return;
  const plan = await Q.findPlan(q, org.plan_id);
  if (plan?.accounts_max != null && (await Q.countAccounts(q, orgId)) >= plan.accounts_max)
    throw new AppError('loginQuotaExceededException', undefined, { quota: plan.accounts_max });
}
