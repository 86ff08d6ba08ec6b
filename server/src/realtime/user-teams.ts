import type { Queryable } from '../db/index.ts';
import { onePlugPoint, pluggedOf } from '../plug-points.ts';

/**
 * The teams a signed-in user's socket follows (team queues, monitoring): read through the teams module's reader,
 * which teams/register.ts gives (realtime/ is infrastructure and imports no domain module); none until then.
 */
export const USER_TEAMS = onePlugPoint<(q: Queryable, userId: string) => Promise<string[]>>(
  'realtime.userTeams',
  async () => [],
);

/** The ids of the user's teams, by the reader given. */
export const userTeamIds = (q: Queryable, userId: string) => pluggedOf(USER_TEAMS)(q, userId);
