import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { type Actor, actorUserId } from '../../lib/actor.ts';
import { withEvents } from '../../realtime/emit.ts';
import { categoryForTeam, categoryPath } from '../categories/service.ts';
import { emitChat, type Tx } from './lifecycle.ts';
import { assertCanAct, assertVisible, viewOf } from './policy.ts';
import * as Q from './queries.ts';

/**
 * Sets (or, with null, removes) the request category of a locked open chat and writes it to history with the
 * category's path of names; answers the chat as it is now (unchanged when it already had that category). A category
 * of any level may be set when the chat's team may use it (sessionCategoryNotAvailableException otherwise). Events
 * are the caller's. `actorId`: the user who acts, null for automation.
 */
export async function applyCategory(
  tx: Tx,
  chat: Q.ChatRow,
  categoryId: string | null,
  actorId: string | null,
): Promise<Q.ChatRow> {
  if (chat.category_id === categoryId) return chat;
  const path = categoryId
    ? (await categoryForTeam(tx.q, chat.organisation_id, categoryId, chat.team_id)).path
    : chat.category_id && (await categoryPath(tx.q, chat.organisation_id, chat.category_id));
  await Q.setCategory(tx.q, chat.id, categoryId, tx.now);
  await Q.insertHistory(tx.q, {
    orgId: chat.organisation_id,
    chatId: chat.id,
    kind: categoryId ? 'category_set' : 'category_removed',
    actorId,
    categoryId: categoryId ?? chat.category_id,
    categoryPath: path || null,
    now: tx.now,
  });
  const current = await Q.findChat(tx.q, chat.organisation_id, chat.id);
  if (!current) throw new Error(`chat ${chat.id} vanished`);
  return current;
}

/**
 * Sets (or, with null, removes) the request category of an open chat and writes it to history. The route checks a
 * user's OPTION_CATEGORY; automation is refused without it here (optionUnavailableException).
 */
export async function setChatCategory(
  app: AppContext,
  actor: Actor,
  chatId: string,
  categoryId: string | null,
) {
  return withEvents(app, async (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    const view = await viewOf(q, actor);
    const chat = await Q.lockChat(q, actor.organisationId, chatId);
    assertVisible(view, chat);
    assertCanAct(view, chat);
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    if (actor.kind !== 'user' && !(await Q.orgOptions(q, actor.organisationId)).includes('OPTION_CATEGORY'))
      throw new AppError('optionUnavailableException', undefined, { option: 'OPTION_CATEGORY' });
    const current = await applyCategory(tx, chat, categoryId, actorUserId(actor));
    if (current === chat) return chat;
    return emitChat(tx, actor.organisationId, chat.id, 'chat.updated');
  });
}
