import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { closeChatRow } from './lifecycle.ts';
import { assertCanAct, assertVisible, viewerOf } from './policy.ts';
import * as Q from './queries.ts';

/**
 * Closes an open chat by its operator (or AUTHORITY_ALL_CHATS). With the organisation's OPTION_CATEGORY
 * on, a chat without a request category cannot be closed (closeWithoutCategoryException).
 */
export async function closeChat(app: AppContext, auth: AuthContext, chatId: string) {
  return withEvents(app, async (q, emit) => {
    const viewer = await viewerOf(q, auth);
    const chat = await Q.lockChat(q, auth.organisationId, chatId);
    assertVisible(viewer, chat);
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    assertCanAct(viewer, chat);
    if (auth.options.has('OPTION_CATEGORY') && !chat.category_id)
      throw new AppError('closeWithoutCategoryException');
    return closeChatRow({ q, emit, now: app.clock.now() }, chat, { kind: 'close', actorId: auth.userId });
  });
}
