import type { ChatTypingPayload } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import type { UserActor } from '../../lib/actor.ts';
import { typingToProvider } from '../channels/typing.ts';
import { assertCanAct, assertVisible, chatAudience, viewOf } from '../conversation/policy.ts';
import { type ChatRow, findChat } from '../conversation/readers.ts';

/**
 * Tells who sees an open chat that someone is writing in it: a signal, not stored, never replayed (the site chat
 * widget forwards an operator's to its visitor). Nothing is written to the database.
 */
export async function signalTyping(
  app: AppContext,
  chat: ChatRow,
  who: Omit<ChatTypingPayload, 'chatId'>,
): Promise<void> {
  if (chat.status === 'closed') return;
  const payload: ChatTypingPayload = { chatId: chat.id, ...who };
  app.bus.signal({
    organisationId: chat.organisation_id,
    type: 'chat.typing',
    payload,
    audience: chatAudience(chat),
  });
}

/**
 * The chat's operator (or AUTHORITY_ALL_CHATS) is writing a reply: colleagues see it, and the client too where the
 * channel shows typing (the site widget by its socket, a provider by its adapter's `typing`).
 */
export async function operatorTyping(app: AppContext, actor: UserActor, chatId: string): Promise<void> {
  const view = await viewOf(app.db, actor);
  const chat = await findChat(app.db, actor.organisationId, chatId);
  assertVisible(view, chat);
  if (chat.status === 'closed') throw new AppError('chatClosedException');
  assertCanAct(view, chat);
  const name = chat.operator_id === actor.userId ? (chat.operator_name ?? undefined) : undefined;
  await signalTyping(app, chat, { by: 'operator', userId: actor.userId, name });
  void typingToProvider(app, chat).catch((err) =>
    app.log.warn({ err, chat: chat.id }, 'typing not shown at the provider'),
  );
}

/** A client is writing in their open chat (the widget says so): the operators who see the chat are told. */
export async function clientTyping(app: AppContext, organisationId: string, chatId: string): Promise<void> {
  const chat = await findChat(app.db, organisationId, chatId);
  if (chat) await signalTyping(app, chat, { by: 'client' });
}
