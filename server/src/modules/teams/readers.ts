import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';

/**
 * What other modules read of teams and their members (the teams module owns both tables, docs/ARCHITECTURE.md):
 * one reader each, instead of a copy per module.
 */

/** The teams a user is a member of. */
export const userTeamIds = async (q: Queryable, userId: string): Promise<string[]> =>
  (await q.query<{ team_id: string }>('select team_id from team_members where user_id = $1', [userId])).map(
    (r) => r.team_id,
  );

/** Whether a team exists, not deleted, in the organisation. */
export const teamInOrg = async (q: Queryable, orgId: string, teamId: string): Promise<boolean> =>
  !!(await maybe(q, 'select 1 from teams where id = $1 and organisation_id = $2 and deleted_at is null', [
    teamId,
    orgId,
  ]));

/** Which of the given team ids exist, not deleted, in the organisation. */
export const teamsInOrg = async (q: Queryable, orgId: string, ids: readonly string[]): Promise<Set<string>> =>
  new Set(
    (
      await q.query<{ id: string }>(
        'select id from teams where id = any($1::uuid[]) and organisation_id = $2 and deleted_at is null',
        [ids, orgId],
      )
    ).map((r) => r.id),
  );

/** The given team ids without repeats, all of the organisation; else the field error 'teamIds' (§8 team incorrect). */
export async function checkedTeamIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if ((await teamsInOrg(q, orgId, unique)).size !== unique.length)
    throw new AppError('validationException', { teamIds: M.teamIncorrect });
  return unique;
}
