import type { Queryable } from '../../db/index.ts';
import { chooseOperator } from './routing-choose.ts';
import * as Q from './routing-queries.ts';

export type { RoutingTeam } from './routing-queries.ts';
export { findTeam, isAvailable, lockTeam, lockTeams } from './routing-queries.ts';

/**
 * Chooses the operator for one chat of a locked team by its distribution method, and records the turn.
 * Call with the team locked (lockTeam) so concurrent choices of one team see each other's assignments.
 * A manual team hands out nothing but a returning client to their last operator (`preferUserId`).
 */
export async function pickOperator(
  q: Queryable,
  team: Q.RoutingTeam,
  opts: { preferUserId?: string | null; excludeUserIds?: string[] } = {},
): Promise<string | null> {
  if (team.distribution_method === 'manual' && !opts.preferUserId) return null;
  const candidates = await Q.teamCandidates(q, team.id);
  const userId = chooseOperator(team.distribution_method, candidates, {
    dialogLimit: team.dialog_limit,
    ...opts,
  });
  if (userId && team.distribution_method !== 'manual') await Q.touchRotation(q, team.id, userId);
  return userId;
}

/**
 * Whether the team can take a chat now: one of its operators is In work, may receive chats and is under the team's
 * dialog limit (a routing rule's team action falls through otherwise).
 */
export async function teamHasRoom(q: Queryable, teamId: string): Promise<boolean> {
  const team = await Q.findTeam(q, teamId);
  if (!team) return false;
  return (await Q.teamCandidates(q, teamId)).some((c) => c.load < team.dialog_limit);
}
