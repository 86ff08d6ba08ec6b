import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { closeChatRow } from './lifecycle.ts';
import { assertCanAct, assertVisible, viewerOf } from './policy.ts';
import * as Q from './queries.ts';
import { applyCategory } from './set-category.ts';

/**
 * Closes an open chat by its operator (or AUTHORITY_ALL_CHATS), setting its request category first when
 * `categoryId` is given (history 'category_set', all in one transaction). With the organisation's
 * OPTION_CATEGORY on, a chat left without a category cannot be closed (closeWithoutCategoryException); without
 * the option a category cannot be given (optionUnavailableException).
 */
export async function closeChat(
  app: AppContext,
  auth: AuthContext,
  chatId: string,
  input: { categoryId?: string } = {},
) {
  return withEvents(app, async (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    const viewer = await viewerOf(q, auth);
    const chat = await Q.lockChat(q, auth.organisationId, chatId);
    assertVisible(viewer, chat);
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    assertCanAct(viewer, chat);
    const categories = auth.options.has('OPTION_CATEGORY');
    if (input.categoryId !== undefined && !categories)
      throw new AppError('optionUnavailableException', undefined, { option: 'OPTION_CATEGORY' });
    const current =
      input.categoryId !== undefined ? await applyCategory(tx, chat, input.categoryId, auth.userId) : chat;
    if (categories && !current.category_id) throw new AppError('closeWithoutCategoryException');
    return closeChatRow(tx, current, { kind: 'close', actorId: auth.userId });
  });
}
