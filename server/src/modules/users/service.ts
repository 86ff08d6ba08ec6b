import type {
  AccessChangedPayload,
  accountUpdateSchema,
  userCreateSchema,
  userUpdateSchema,
} from '@smartconnect/contracts';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { hashPassword } from '../../lib/password.ts';
import { type Emit, withEvents } from '../../realtime/emit.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { assertAccountQuota } from '../billing/plans.ts';
import { releaseOperatorChats } from '../conversation/release-operator.ts';
import { distributeTeamQueues } from '../conversation/routing-distribute.ts';
import { removeFile, saveFile } from '../files/service.ts';
import { changePresence } from '../presence/service.ts';
import { setUserTeams } from '../teams/members.ts';
import { checkedTeamIds } from '../teams/readers.ts';
import { assertCanChangeTeams, assertCanGrant, assertCanManage, assertNotSelf } from './policy.ts';
import * as Q from './queries.ts';

type CreateInput = z.output<typeof userCreateSchema>;
type UpdateInput = z.output<typeof userUpdateSchema>;

async function checkRole(q: Queryable, auth: AuthContext, roleId: string) {
  const role = await Q.findRoleInOrg(q, auth.organisationId, roleId);
  if (!role) throw new AppError('validationException', { roleId: M.roleIncorrect });
  assertCanGrant(auth, role.rights);
}

async function checkUnique(
  q: Queryable,
  orgId: string,
  email?: string,
  phone?: string | null,
  exceptId?: string,
) {
  // A field error too: the form puts it under the field (issue 36), not only in a toast.
  if (email && (await Q.emailTaken(q, email, exceptId)))
    throw new AppError('emailAlreadyExistsException', { email: M.emailExists });
  if (phone && (await Q.phoneTaken(q, orgId, phone, exceptId)))
    throw new AppError('phoneAlreadyExistsException', { phone: M.phoneExists });
}

/** Creates a user of the caller's organisation with a role the caller may grant and teams of the same organisation. */
export async function createUser(app: AppContext, auth: AuthContext, input: CreateInput) {
  assertCanChangeTeams(auth, [], input.teamIds);
  const passwordHash = await hashPassword(input.password);
  const id = await app.db.tx(async (q) => {
    await checkRole(q, auth, input.roleId);
    const teamIds = await checkedTeamIds(q, auth.organisationId, input.teamIds);
    await checkUnique(q, auth.organisationId, input.email, input.phone);
    await assertAccountQuota(q, auth.organisationId);
    const org = await q.query<{ language: 'eng' | 'rus' }>(
      'select language from organisations where id = $1',
      [auth.organisationId],
    );
    const userId = await Q.insertUser(q, {
      organisationId: auth.organisationId,
      roleId: input.roleId,
      name: input.name,
      email: input.email,
      phone: input.phone,
      passwordHash,
      breakTimeoutMinutes: input.breakTimeoutMinutes,
      language: input.language ?? org[0]?.language ?? 'eng',
      active: input.active,
    });
    await setUserTeams(q, auth.organisationId, userId, teamIds);
    return userId;
  });
  return getUser(app, auth.organisationId, id);
}

export async function getUser(app: AppContext, scope: string | null, id: string) {
  const row = await Q.findUser(app.db, scope, id);
  if (!row) throw new AppError('accountNotFoundException');
  return row;
}

/** Updates a user of the caller's organisation; deactivation and a password change revoke the user's tokens. */
export async function updateUser(app: AppContext, auth: AuthContext, id: string, input: UpdateInput) {
  const current = await getUser(app, auth.organisationId, id);
  if (input.active === false || (input.roleId && input.roleId !== current.role_id)) assertNotSelf(auth, id);
  // Editing a user who holds rights the caller lacks would let the caller take over that account.
  assertCanManage(auth, current.role_rights);
  if (input.teamIds) assertCanChangeTeams(auth, teamIdsOf(current), input.teamIds);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  await withEvents(app, async (q, emit) => {
    if (input.roleId) await checkRole(q, auth, input.roleId);
    await checkUnique(q, auth.organisationId, input.email, input.phone, id);
    await Q.updateUser(q, auth.organisationId, id, {
      name: input.name,
      email: input.email,
      phone: input.phone,
      roleId: input.roleId,
      breakTimeoutMinutes: input.breakTimeoutMinutes,
      language: input.language,
      active: input.active,
      passwordHash,
    });
    if (input.teamIds)
      await setUserTeams(
        q,
        auth.organisationId,
        id,
        await checkedTeamIds(q, auth.organisationId, input.teamIds),
      );
    if (input.active === false || passwordHash) await revokeUserSessions(q, id);
    if (input.teamIds || input.roleId || input.active !== undefined || passwordHash)
      await announceAccess(
        { q, emit },
        auth.organisationId,
        { userIds: [id] },
        passwordHash ? null : undefined,
      );
  });
  // Deactivated: offline at once (presence.changed for the supervisors' screens, auto-break timer dropped).
  if (input.active === false)
    await changePresence(app, { organisationId: auth.organisationId, userId: id }, 'offline', 'manual');
  const user = await getUser(app, auth.organisationId, id);
  // A deactivated operator's open chats go to colleagues or back to the queue: nobody would answer them.
  if (input.active === false) await releaseOperatorChats(app, auth.organisationId, id, auth.userId);
  // New teams, a role that receives chats or a re-activation may let this user take Waiting chats.
  if (input.teamIds || input.roleId || input.active) await distributeTeamQueues(app, teamIdsOf(user));
  return user;
}

const teamIdsOf = (user: Q.UserRow) => user.teams.map((t) => t.id);

/** Moves a user between teams (AUTHORITY_TEAMS_UPDATE: "change user team"). */
export async function setTeams(app: AppContext, auth: AuthContext, id: string, teamIds: string[]) {
  await getUser(app, auth.organisationId, id);
  await withEvents(app, async (q, emit) => {
    await setUserTeams(q, auth.organisationId, id, await checkedTeamIds(q, auth.organisationId, teamIds));
    await announceAccess({ q, emit }, auth.organisationId, { userIds: [id] });
  });
  const user = await getUser(app, auth.organisationId, id);
  await distributeTeamQueues(app, teamIdsOf(user));
  return user;
}

/** Swaps a user's photo for new bytes (or none) and drops the old file. */
export async function replacePhoto(app: AppContext, user: Q.UserRow, data: Buffer | null) {
  await app.db.tx(async (q) => {
    const key = data ? await saveFile(app, q, user.organisation_id, data, 'image/jpeg') : null;
    await Q.updateUser(q, user.organisation_id, user.id, { photoKey: key });
    await removeFile(app, q, user.photo_key);
  });
  return getUser(app, user.organisation_id, user.id);
}

/** PATCH auth/acc/update: the caller's own name, phone, break timeout and language. */
export async function updateOwnAccount(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof accountUpdateSchema>,
) {
  await app.db.tx(async (q) => {
    await checkUnique(q, auth.organisationId, undefined, input.phone, auth.userId);
    await Q.updateUser(q, auth.organisationId, auth.userId, input);
  });
}

export const searchUsersShort = (app: AppContext, organisationId: string, name: string) =>
  Q.searchShort(app.db, organisationId, name);

/**
 * Tells every instance's realtime gateway that these users' teams, rights or activity changed (listed users and
 * every holder of `roleId`): their open sockets take the new scope at once. `keepSessionId` (a session id, or
 * null for none) says the user's other sessions ended, so their sockets close; `endedSessionIds` (a logout) says
 * which sessions ended, so theirs close. Call inside the change's transaction.
 */
export async function announceAccess(
  tx: { q: Queryable; emit: Emit },
  orgId: string,
  who: { userIds?: string[]; roleId?: string },
  keepSessionId?: string | null,
  endedSessionIds?: string[],
): Promise<void> {
  for (const u of await Q.accessOf(tx.q, orgId, who.userIds ?? [], who.roleId ?? null)) {
    const payload: AccessChangedPayload = {
      userId: u.id,
      teamIds: u.team_ids,
      rights: u.rights,
      active: u.active,
      ...(keepSessionId !== undefined ? { keepSessionId } : {}),
      ...(endedSessionIds ? { endedSessionIds } : {}),
    };
    await tx.emit(orgId, 'access.changed', payload, { userIds: [u.id] });
  }
}

/**
 * Every session of the organisation's users ended (the organisation deactivated): their sockets close at once on
 * every instance. Call inside the change's transaction.
 */
export async function announceOrganisationEnded(
  tx: { q: Queryable; emit: Emit },
  orgId: string,
): Promise<void> {
  const userIds = await Q.userIdsOf(tx.q, orgId);
  if (userIds.length) await announceAccess(tx, orgId, { userIds }, null);
}

/** Whether an account already has this e-mail (e-mails are unique across organisations). */
export const isEmailTaken = (q: Queryable, email: string) => Q.emailTaken(q, email);

/** Adds a user without an acting user's checks: for bootstrapping an organisation (seed, provisioning). */
export async function addUser(q: Queryable, input: Q.UserInsert & { teamIds: string[] }): Promise<string> {
  const { teamIds, ...user } = input;
  const id = await Q.insertUser(q, user);
  await setUserTeams(q, user.organisationId, id, teamIds);
  return id;
}
