import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { emitChat, type Tx } from './lifecycle.ts';
import { assertCanAct, assertVisible, viewerOf } from './policy.ts';
import * as Q from './queries.ts';

/**
 * Sets (or, with null, removes) the request category of a locked open chat and writes it to history; answers the
 * chat as it is now (unchanged when it already had that category). Events are the caller's.
 */
export async function applyCategory(
  tx: Tx,
  chat: Q.ChatRow,
  categoryId: string | null,
  actorId: string,
): Promise<Q.ChatRow> {
  if (categoryId && !(await Q.categoryInOrg(tx.q, chat.organisation_id, categoryId)))
    throw new AppError('categoryNotFoundException');
  if (chat.category_id === categoryId) return chat;
  await Q.setCategory(tx.q, chat.id, categoryId, tx.now);
  await Q.insertHistory(tx.q, {
    orgId: chat.organisation_id,
    chatId: chat.id,
    kind: categoryId ? 'category_set' : 'category_removed',
    actorId,
    categoryId: categoryId ?? chat.category_id,
    now: tx.now,
  });
  const current = await Q.findChat(tx.q, chat.organisation_id, chat.id);
  if (!current) throw new Error(`chat ${chat.id} vanished`);
  return current;
}

/** Sets (or, with null, removes) the request category of an open chat and writes it to history. */
export async function setChatCategory(
  app: AppContext,
  auth: AuthContext,
  chatId: string,
  categoryId: string | null,
) {
  return withEvents(app, async (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    const viewer = await viewerOf(q, auth);
    const chat = await Q.lockChat(q, auth.organisationId, chatId);
    assertVisible(viewer, chat);
    assertCanAct(viewer, chat);
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    const current = await applyCategory(tx, chat, categoryId, auth.userId);
    if (current === chat) return chat;
    return emitChat(tx, auth.organisationId, chat.id, 'chat.updated');
  });
}
