import type { OrganisationDto, organisationUpdateSchema } from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { forgetInboundChannels } from '../channels/service.ts';
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
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The caller's own organisation, the platform's included (staff see their own too). */
export async function ownOrganisation(app: AppContext, organisationId: string): Promise<OrganisationDto> {
  const row = await Q.findOrganisation(app.db, organisationId, true);
  if (!row) throw new AppError('organizationNotFoundException');
  return presentOrganisation(row);
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
  const updated = await app.db.tx(async (q) => {
    if (!(await Q.findOrganisation(q, id))) throw new AppError('organizationNotFoundException');
    await Q.updateOrganisation(q, id, {
      ...patch,
      options: patch.options && [...new Set(patch.options)],
      modifyDenied: patch.modifyDenied && [...new Set(patch.modifyDenied)],
    });
    const row = await Q.findOrganisation(q, id);
    if (!row) throw new AppError('organizationNotFoundException');
    return presentOrganisation(row);
  });
  // Inbound pushes read the organisation's status with the channel: a deactivation refuses them at once.
  if (patch.status || patch.options) forgetInboundChannels(app);
  return updated;
}
