import type { Right, RoleDto, roleCreateSchema, roleUpdateSchema } from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { assertCanGrant } from '../users/policy.ts';
import { announceAccess } from '../users/service.ts';
import * as Q from './queries.ts';

export const presentRole = (r: Q.RoleRow): RoleDto => ({
  id: r.id,
  name: r.name,
  description: r.description,
  rights: r.rights as Right[],
  builtIn: r.built_in,
  userCount: r.user_count,
});

export async function getRole(app: AppContext, scope: string | null, id: string) {
  const role = await Q.findRole(app.db, scope, id);
  if (!role) throw new AppError('roleNotFoundException');
  return role;
}

/** Creates a custom role whose name is unique in the organisation, with rights the caller holds. */
export async function createRole(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof roleCreateSchema>,
) {
  assertCanGrant(auth, input.rights);
  const id = await app.db.tx(async (q) => {
    if (await Q.nameTaken(q, auth.organisationId, input.name))
      throw new AppError('roleNameAlreadyExistsException');
    return Q.insertRole(q, auth.organisationId, { ...input, rights: [...new Set(input.rights)] });
  });
  return getRole(app, auth.organisationId, id);
}

/** Updates a custom role; built-in roles are immutable. */
export async function updateRole(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof roleUpdateSchema>,
) {
  const role = await getRole(app, auth.organisationId, id);
  if (role.built_in) throw new AppError('immutableRoleUpdateException');
  assertCanGrant(auth, [...role.rights, ...(input.rights ?? [])]);
  await withEvents(app, async (q, emit) => {
    if (input.name && (await Q.nameTaken(q, auth.organisationId, input.name, id))) {
      throw new AppError('roleNameAlreadyExistsException');
    }
    await Q.updateRole(q, auth.organisationId, id, {
      ...input,
      rights: input.rights && [...new Set(input.rights)],
    });
    // Every holder's open sockets take the new rights at once.
    if (input.rights) await announceAccess({ q, emit }, auth.organisationId, { roleId: id });
  });
  return getRole(app, auth.organisationId, id);
}

/** Deletes a custom role (irreversible); a role still held by users cannot go. */
export async function deleteRole(app: AppContext, auth: AuthContext, id: string) {
  const role = await getRole(app, auth.organisationId, id);
  if (role.built_in) throw new AppError('immutableRoleUpdateException');
  if (role.user_count > 0)
    throw new AppError('roleInUseException', undefined, { userCount: role.user_count });
  await Q.deleteRole(app.db, auth.organisationId, id);
}
