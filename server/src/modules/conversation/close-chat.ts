import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { kickOutbox } from '../../jobs/outbox.ts';
import { type Actor, actorUserId } from '../../lib/actor.ts';
import { manyPlugPoint, plugsOf } from '../../plug-points.ts';
import { withEvents } from '../../realtime/emit.ts';
import { type Say, systemMessage } from './chat-action.ts';
import { closeChatRow, type Tx } from './lifecycle.ts';
import { assertCanAct, assertVisible, viewOf } from './policy.ts';
import * as Q from './queries.ts';
import { applyCategory } from './set-category.ts';

/**
 * A step another module takes when a chat closes, inside the closing transaction (the ratings module asks the client
 * for a rating): `say` writes one message to the client from the system, delivered through the outbox.
 */
export type CloseStep = (app: AppContext, tx: Tx, chat: Q.ChatRow, say: Say) => Promise<void>;
export const CLOSE_STEPS = manyPlugPoint<CloseStep>('chats.closeStep');

/**
 * Closes an open chat, setting its request category first when `categoryId` is given (history 'category_set',
 * all in one transaction). A user closes their own chat (or any, with AUTHORITY_ALL_CHATS); automation (bot, rule,
 * system) any chat of its organisation, with history actor_id null. For every actor: with the organisation's
 * OPTION_CATEGORY on, a chat left without a category cannot be closed (closeWithoutCategoryException); without
 * the option a category cannot be given (optionUnavailableException).
 */
export async function closeChat(
  app: AppContext,
  actor: Actor,
  chatId: string,
  input: { categoryId?: string } = {},
) {
  let said = false;
  const closed = await withEvents(app, async (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    const done = await closeChatTx(app, tx, actor, chatId, input);
    said = done.said;
    return done.closed;
  });
  if (said) kickOutbox(app);
  return closed;
}

/**
 * closeChat inside a transaction the caller holds (a bot's final action in a pipeline stage): the same checks and
 * rows; `said` tells whether a close step wrote a message to deliver (the caller kicks the outbox after commit).
 */
export async function closeChatTx(
  app: AppContext,
  tx: Tx,
  actor: Actor,
  chatId: string,
  input: { categoryId?: string } = {},
): Promise<{ closed: Q.ChatRow; said: boolean }> {
  let said = false;
  const { q } = tx;
  const view = await viewOf(q, actor);
  const chat = await Q.lockChat(q, actor.organisationId, chatId);
  assertVisible(view, chat);
  if (chat.status === 'closed') throw new AppError('chatClosedException');
  assertCanAct(view, chat);
  const categories = (await Q.orgOptions(q, actor.organisationId)).includes('OPTION_CATEGORY');
  if (input.categoryId !== undefined && !categories)
    throw new AppError('optionUnavailableException', undefined, { option: 'OPTION_CATEGORY' });
  const actorId = actorUserId(actor);
  const current =
    input.categoryId !== undefined ? await applyCategory(tx, chat, input.categoryId, actorId) : chat;
  // The category is asked of people: a rule closes by its own condition (§4 'closed by a rule'), with none.
  if (categories && !current.category_id && actor.kind !== 'rule')
    throw new AppError('closeWithoutCategoryException');
  for (const step of plugsOf(CLOSE_STEPS))
    await step(app, tx, current, async (text) => {
      said = (await systemMessage(tx, current, text)) || said;
    });
  return { closed: await closeChatRow(tx, current, { kind: 'close', actorId }), said };
}
