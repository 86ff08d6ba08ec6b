import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { emitChat } from './lifecycle.ts';
import { assertCanAct, assertVisible, viewerOf } from './policy.ts';
import * as Q from './queries.ts';

/** Sets (or, with null, removes) the request category of an open chat and writes it to history. */
export async function setChatCategory(
  app: AppContext,
  auth: AuthContext,
  chatId: string,
  categoryId: string | null,
) {
  return withEvents(app, async (q, emit) => {
    const now = app.clock.now();
    const viewer = await viewerOf(q, auth);
    const chat = await Q.lockChat(q, auth.organisationId, chatId);
    assertVisible(viewer, chat);
    assertCanAct(viewer, chat);
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    if (categoryId && !(await Q.categoryInOrg(q, auth.organisationId, categoryId)))
      throw new AppError('categoryNotFoundException');
    if (chat.category_id === categoryId) return chat;
    await Q.setCategory(q, chat.id, categoryId, now);
    await Q.insertHistory(q, {
      orgId: auth.organisationId,
      chatId: chat.id,
      kind: categoryId ? 'category_set' : 'category_removed',
      actorId: auth.userId,
      categoryId: categoryId ?? chat.category_id,
      now,
    });
    return emitChat({ q, emit, now }, auth.organisationId, chat.id, 'chat.updated');
  });
}
