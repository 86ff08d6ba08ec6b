import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { kickOutbox } from '../../jobs/outbox.ts';
import { insertOutbox } from '../../jobs/queries.ts';
import type { Actor } from '../../lib/actor.ts';
import { withEvents } from '../../realtime/emit.ts';
import { emitChat, type Tx } from './lifecycle.ts';
import { assertCanAct, assertVisible, chatAudience, viewOf } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';

/** Writes one message to the chat's client from the system (no author): `say` of close steps and chat actions. */
export type Say = (text: string) => Promise<void>;

/** A system message to the client of a chat (no author), with its outbox row; false when none could go. */
export async function systemMessage(tx: Tx, chat: Q.ChatRow, text: string): Promise<boolean> {
  if (chat.channel_status !== 'active' || chat.channel_deleted) return false;
  const m = await Q.insertMessage(tx.q, {
    orgId: chat.organisation_id,
    chatId: chat.id,
    channelId: chat.channel_id,
    direction: 'out',
    kind: 'normal',
    internal: false,
    text,
    attachments: [],
    status: 'pending',
    authorId: null,
    externalMessageId: null,
    now: tx.now,
  });
  if (!m) return false;
  await tx.emit(chat.organisation_id, 'message.created', presentMessage(m), chatAudience(chat));
  await insertOutbox(tx.q, {
    orgId: chat.organisation_id,
    channelId: chat.channel_id,
    messageId: m.id,
    event: 'message.created',
    now: tx.now,
  });
  return true;
}

/**
 * Runs another module's action on an open chat the actor may act on (its operator, or AUTHORITY_ALL_CHATS), with
 * the chat locked, in one transaction; `say` writes a system message to the client, delivered after the commit.
 */
export async function actOnOpenChat<T>(
  app: AppContext,
  actor: Actor,
  chatId: string,
  action: (tx: Tx, chat: Q.ChatRow, say: Say) => Promise<T>,
): Promise<T> {
  let said = false;
  const result = await withEvents(app, async (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    const view = await viewOf(q, actor);
    const chat = await Q.lockChat(q, actor.organisationId, chatId);
    assertVisible(view, chat);
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    assertCanAct(view, chat);
    return action(tx, chat, async (text) => {
      said = (await systemMessage(tx, chat, text)) || said;
    });
  });
  if (said) kickOutbox(app);
  return result;
}

/**
 * Records another module's event in a chat's history (a rating asked or given) and tells who sees the chat
 * (`chat.updated`: the timeline reads the history again), in the caller's transaction.
 */
export async function recordChatEvent(
  tx: Tx,
  chat: { id: string; organisation_id: string },
  event: { kind: 'rating_requested' | 'rated'; actorId: string | null; score?: number | null },
): Promise<void> {
  await Q.insertHistory(tx.q, {
    orgId: chat.organisation_id,
    chatId: chat.id,
    kind: event.kind,
    actorId: event.actorId,
    score: event.score ?? null,
    now: tx.now,
  });
  await Q.touchChat(tx.q, chat.id, tx.now);
  await emitChat(tx, chat.organisation_id, chat.id, 'chat.updated');
}
