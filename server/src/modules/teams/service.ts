import type { teamCreateSchema, teamUpdateSchema } from '@smartconnect/contracts';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { distributeTeamQueues } from '../conversation/routing-distribute.ts';
import { armTeamInactivity } from '../conversation/timers.ts';
import { announceAccess } from '../users/service.ts';
import * as Q from './queries.ts';

async function checkMembers(q: Queryable, orgId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  if ((await Q.countUsersInOrg(q, orgId, unique)) !== unique.length) {
    throw new AppError('validationException', { memberIds: M.valueIncorrect });
  }
  return unique;
}

/** Refuses any change of teams when platform staff locked them (§8 'team modify denied'). */
async function assertTeamsModifiable(q: Queryable, orgId: string) {
  if (await Q.teamModifyDenied(q, orgId)) throw new AppError('teamModifyDeniedException');
}

export async function getTeam(app: AppContext, scope: string | null, id: string) {
  const team = await Q.findTeam(app.db, scope, id);
  if (!team) throw new AppError('teamNotFoundException');
  return team;
}

/** Creates a team with a name unique in the organisation and members of the same organisation. */
export async function createTeam(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof teamCreateSchema>,
) {
  const id = await withEvents(app, async (q, emit) => {
    await assertTeamsModifiable(q, auth.organisationId);
    if (await Q.nameTaken(q, auth.organisationId, input.name))
      throw new AppError('teamNameAlreadyExistsException');
    const { memberIds, ...fields } = input;
    const teamId = await Q.insertTeam(q, auth.organisationId, fields);
    const members = await checkMembers(q, auth.organisationId, memberIds);
    await Q.setMembers(q, auth.organisationId, teamId, members);
    await announceAccess({ q, emit }, auth.organisationId, { userIds: members });
    return teamId;
  });
  return getTeam(app, auth.organisationId, id);
}

export async function updateTeam(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof teamUpdateSchema>,
) {
  const before = await getTeam(app, auth.organisationId, id);
  await withEvents(app, async (q, emit) => {
    await assertTeamsModifiable(q, auth.organisationId);
    if (input.name && (await Q.nameTaken(q, auth.organisationId, input.name, id))) {
      throw new AppError('teamNameAlreadyExistsException');
    }
    const { memberIds, ...fields } = input;
    await Q.updateTeam(q, auth.organisationId, id, fields);
    if (fields.inactivityHours !== undefined && fields.inactivityHours !== before.inactivity_hours)
      await armTeamInactivity(q, auth.organisationId, id);
    if (memberIds) {
      const members = await checkMembers(q, auth.organisationId, memberIds);
      await Q.setMembers(q, auth.organisationId, id, members);
      // Who left and who joined: their open sockets take the new teams at once.
      const userIds = [...new Set([...before.members.map((m) => m.id), ...members])];
      await announceAccess({ q, emit }, auth.organisationId, { userIds });
    }
  });
  // A raised dialog limit, an automatic method or a new member may give the team's Waiting chats somewhere to go.
  await distributeTeamQueues(app, [id]);
  return getTeam(app, auth.organisationId, id);
}

export async function deleteTeam(app: AppContext, auth: AuthContext, id: string) {
  const team = await getTeam(app, auth.organisationId, id);
  await withEvents(app, async (q, emit) => {
    await assertTeamsModifiable(q, auth.organisationId);
    const usage = await Q.teamUsage(q, auth.organisationId, id);
    if (usage.channels > 0 || usage.open_chats > 0) {
      throw new AppError('teamInUseException', undefined, {
        channels: usage.channels,
        openChats: usage.open_chats,
      });
    }
    await Q.deleteTeam(q, auth.organisationId, id, usage.chats > 0 || usage.deleted_channels > 0);
    await announceAccess({ q, emit }, auth.organisationId, { userIds: team.members.map((m) => m.id) });
  });
}

/** Adds a team without an acting user's checks: for bootstrapping an organisation (seed, provisioning). */
export const addTeam = (q: Queryable, organisationId: string, fields: Q.TeamFields) =>
  Q.insertTeam(q, organisationId, fields);
