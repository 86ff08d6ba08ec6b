import type { AppContext } from '../../context.ts';
import { withEvents } from '../../realtime/emit.ts';
import { distributeWaiting } from './lifecycle.ts';

/**
 * Hands out the Waiting queues of these teams now, in a transaction of its own, and answers how many chats
 * were assigned. For changes outside the chat engine that may give operators room: a team's dialog limit
 * raised, its distribution method changed (manual -> automatic), a member added, a user given
 * AUTHORITY_CHAT_DISTRIBUTION or re-activated. Call it after that change has committed.
 */
export async function distributeTeamQueues(app: AppContext, teamIds: string[]): Promise<number> {
  if (!teamIds.length) return 0;
  return withEvents(app, (q, emit) => distributeWaiting({ q, emit, now: app.clock.now() }, teamIds));
}
