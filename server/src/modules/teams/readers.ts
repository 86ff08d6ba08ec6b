import { maybe, type Queryable } from '../../db/index.ts';

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
