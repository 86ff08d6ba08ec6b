import {
  type FirstRunDto,
  LIMITS,
  type OrganisationDto,
  type organisationCreateSchema,
  type organisationSettingsSchema,
  type organisationUpdateSchema,
} from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { resumeIfSuspended } from '../billing/daily-charge.ts';
import { changePlan } from '../billing/plans.ts';
import { forgetInboundChannels } from '../channels/service.ts';
import { rezoneDailyRollups } from '../reports/rollup-rebuild.ts';
import { announceOrganisationEnded } from '../users/service.ts';
import { createOrganisationWithAdmin } from './create.ts';
import * as Q from './queries.ts';

export function presentOrganisation(row: Q.OrganisationRow): OrganisationDto {
  return {
    id: row.id,
    login: row.login,
    name: row.name,
    language: row.language,
    status: row.status,
    tariffName: row.tariff_name,
    options: row.options,
    operatorLicences: row.operator_licences,
    onlineOperators: row.online_operators,
    modifyDenied: row.modify_denied,
    timeZone: row.time_zone,
    adminEmail: row.admin_email,
    instance: row.instance,
    planId: row.plan_id,
    firstTariffDay: row.first_tariff_day,
    paidUntil: row.paid_until,
    balance: Math.round(Number(row.balance) * 100) / 100,
    billingMode: row.billing_mode,
    suspended: row.suspended,
    updatedAt: new Date(row.updated_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The caller's own organisation, the platform's included (staff see their own too). */
export async function ownOrganisation(app: AppContext, organisationId: string): Promise<OrganisationDto> {
  const row = await Q.findOrganisation(app.db, organisationId, true);
  if (!row) throw new AppError('organizationNotFoundException');
  return presentOrganisation(row);
}

/** The first-run checklist of the caller's organisation (issue 36). */
export async function firstRun(app: AppContext, organisationId: string): Promise<FirstRunDto> {
  const r = await Q.firstRun(app.db, organisationId);
  return {
    hasChats: r.chats,
    channelConnected: r.channels,
    colleagueInvited: r.users > 1,
    widgetTried: r.widget_chats,
    widgetChannelId: r.widget_channel_id,
  };
}

/** The organisation's administrator changes its own settings: the reports' time zone (issue 17). */
export async function updateOwnSettings(
  app: AppContext,
  organisationId: string,
  patch: z.output<typeof organisationSettingsSchema>,
): Promise<OrganisationDto> {
  await app.db.tx(async (q) => {
    await Q.updateOrganisation(q, organisationId, { timeZone: patch.timeZone });
    await rezoneDailyRollups(q, organisationId);
  });
  return ownOrganisation(app, organisationId);
}

export async function listOrganisations(app: AppContext): Promise<OrganisationDto[]> {
  return (await Q.listOrganisations(app.db)).map(presentOrganisation);
}

/**
 * Platform staff change a customer organisation's plan options, operator licences, status, name or language.
 * Lowering licences below the operators online now signs nobody out: the limit applies to the next who goes online.
 */
export async function updateOrganisation(
  app: AppContext,
  id: string,
  patch: z.output<typeof organisationUpdateSchema>,
): Promise<OrganisationDto> {
  const updated = await withEvents(app, async (q, emit) => {
    const before = await Q.findOrganisation(q, id);
    if (!before) throw new AppError('organizationNotFoundException');
    if (patch.login && (await Q.loginTaken(q, patch.login, id)))
      throw new AppError('organizationLoginAlreadyExistsException');
    const { planId, ...rest } = patch;
    // The balance first (staff may credit it in the same change), then the plan checks it.
    await Q.updateOrganisation(q, id, {
      ...rest,
      options: patch.options && [...new Set(patch.options)],
      modifyDenied: patch.modifyDenied && [...new Set(patch.modifyDenied)],
    });
    if (planId) await changePlan(q, id, planId);
    // Deactivated: its users' sessions end (REST refuses them at once); their sockets close at once too (issue 29).
    if (patch.status === 'deactivated' && before.status !== 'deactivated')
      await announceOrganisationEnded({ q, emit }, id);
    // Reports' daily rollups count the days of the organisation's zone.
    if (patch.timeZone) await rezoneDailyRollups(q, id);
    const row = await Q.findOrganisation(q, id);
    if (!row) throw new AppError('organizationNotFoundException');
    return presentOrganisation(row);
  });
  // Credit, a plan, more paid days or postpaid may let a suspended organisation pay: tried at once.
  await resumeIfSuspended(app, id);
  // Inbound pushes read the organisation's status with the channel: a deactivation refuses them at once.
  if (patch.status || patch.options || patch.planId) forgetInboundChannels(app);
  const row = await Q.findOrganisation(app.db, id);
  return row ? presentOrganisation(row) : updated;
}

/** Platform staff create a customer organisation with its Administrator, who is mailed an invitation link. */
export async function createOrganisation(app: AppContext, body: z.output<typeof organisationCreateSchema>) {
  const created = await app.db.tx((q) => createOrganisationWithAdmin(app, q, body));
  await created.finish();
  const row = await Q.findOrganisation(app.db, created.organisationId);
  if (!row) throw new AppError('organizationNotFoundException');
  return presentOrganisation(row);
}

/** §4 'tariff can be extended by 14 days' (§9): active organisations whose tariff has an end. */
export async function extendOrganisation(app: AppContext, id: string) {
  const today = app.clock.now().toISOString().slice(0, 10);
  const row = await app.db.tx(async (q) => {
    if (!(await Q.findOrganisation(q, id))) throw new AppError('organizationNotFoundException');
    if (!(await Q.extendPaidUntil(q, id, LIMITS.tariffExtensionDays, today)))
      throw new AppError('cannotExtendTariffException');
    return Q.findOrganisation(q, id);
  });
  if (!row) throw new AppError('organizationNotFoundException');
  await resumeIfSuspended(app, id);
  return presentOrganisation((await Q.findOrganisation(app.db, id)) ?? row);
}
