import { type Language, LIMITS, type PlanOption } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { createInvitation, mailInvitation } from '../auth/service.ts';
import { changePlan } from '../billing/plans.ts';
import { addUser, isEmailTaken } from '../users/service.ts';
import * as Q from './queries.ts';

export type OrganisationWithAdmin = {
  login: string;
  name: string;
  adminEmail: string;
  adminName?: string;
  language: Language;
  planId?: string | null;
  instance?: string | null;
  /** The administrator's password, already hashed (sign-up); without it an invitation link is mailed. */
  passwordHash?: string;
  adminPhone?: string | null;
  /** Plan options when no plan is given (sign-up's trial has them all); a plan's options replace them. */
  options?: readonly PlanOption[];
};

/**
 * §9 'Trial: 7 days', the one reading for every way an organisation is created: `paid_until` is the last paid day
 * (inclusive, a UTC day like the daily charge's), so a trial of 7 whole days counting the day of creation ends on
 * today + 6; the daily charge first charges today + 7.
 */
export function trialEnd(now: Date): string {
  return new Date(now.getTime() + (LIMITS.trialDays - 1) * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Creates a customer organisation (its built-in roles and default routing rule) with its Administrator, on a plan
 * (its licences and options; a new organisation's balance is 0, so the plan's balance check is skipped) and the
 * §9 trial (`trialEnd`). Inside the caller's transaction; the invitation, if any, is mailed by `finish`
 * after commit. Shared by staff's `POST /api/organisations` and the sign-up.
 */
export async function createOrganisationWithAdmin(
  app: AppContext,
  q: Queryable,
  input: OrganisationWithAdmin,
) {
  if (await Q.loginTaken(q, input.login)) throw new AppError('organizationLoginAlreadyExistsException');
  if (await isEmailTaken(q, input.adminEmail)) throw new AppError('emailAlreadyExistsException');
  const today = app.clock.now();
  const org = await Q.insertOrganisation(q, {
    login: input.login,
    name: input.name,
    adminEmail: input.adminEmail,
    options: [...(input.options ?? [])],
    language: input.language,
    instance: input.instance ?? null,
    firstTariffDay: today.toISOString().slice(0, 10),
    paidUntil: trialEnd(today),
  });
  if (input.planId) await changePlan(q, org.id, input.planId, { skipBalanceCheck: true });
  const adminId = await addUser(q, {
    organisationId: org.id,
    roleId: org.roles.ADMINISTRATOR,
    name: input.adminName ?? 'Administrator',
    email: input.adminEmail,
    phone: input.adminPhone ?? null,
    // No password until the invitation is used: an unusable hash nobody can log in with.
    passwordHash: input.passwordHash ?? '!',
    breakTimeoutMinutes: null,
    language: input.language,
    active: true,
    teamIds: [],
  });
  const link = input.passwordHash
    ? null
    : await createInvitation(app, q, { id: adminId, organisationId: org.id });
  return {
    organisationId: org.id,
    adminId,
    roles: org.roles,
    paidUntil: trialEnd(today),
    /** Mails the invitation; call after the transaction committed. */
    finish: async () => {
      if (link) await mailInvitation(app, input.adminEmail, input.name, link);
    },
  };
}
