import type { AppContext } from '../../context.ts';
import { withEvents } from '../../realtime/emit.ts';
import * as Q from './queries.ts';
import { redistributeChat } from './timers.ts';

/**
 * Takes every In progress chat from an operator who can no longer work on them (deactivated): each goes to
 * another eligible operator of its team or back to the Waiting queue, with history 'redistribution' by the
 * acting user. One transaction per chat, locking the chat before its teams as every chat operation does.
 * Answers how many chats were released.
 */
export async function releaseOperatorChats(
  app: AppContext,
  orgId: string,
  userId: string,
  actorId: string | null,
): Promise<number> {
  let released = 0;
  for (const chatId of await Q.inProgressChatIdsOf(app.db, orgId, userId)) {
    const moved = await withEvents(app, async (q, emit) => {
      const chat = await Q.lockChat(q, orgId, chatId);
      // Taken, transferred or closed in the meantime: nothing to release.
      if (chat?.status !== 'in_progress' || chat.operator_id !== userId) return false;
      await redistributeChat({ q, emit, now: app.clock.now() }, chat, actorId);
      return true;
    });
    if (moved) released++;
  }
  return released;
}
