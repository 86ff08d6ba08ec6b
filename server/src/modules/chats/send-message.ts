import type { Attachment } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { kickOutbox } from '../../jobs/outbox.ts';
import { deleteTimers, insertOutbox } from '../../jobs/queries.ts';
import { withEvents } from '../../realtime/emit.ts';
import { enterWork } from '../presence/service.ts';
import { distributeTeamQueues } from '../routing/distribute.ts';
import { emitChat } from './lifecycle.ts';
import { assertCanAct, assertVisible, chatAudience, viewerOf } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';

function assertChannelWritable(chat: Q.ChatRow) {
  if (chat.channel_status !== 'active' || chat.channel_deleted)
    throw new AppError('deactivatedChannelException');
}

/**
 * Writes an operator message in an open chat. A normal message is stored pending with its outbox row in the
 * same transaction (the dispatcher delivers it after commit) and answers the client: overdue and
 * redistribution clocks stop. An internal note stays inside the organisation. An inactive channel refuses
 * normal messages (deactivatedChannelException). Answering puts a licensed user 'In work' (see enterWork).
 */
export async function sendMessage(
  app: AppContext,
  auth: AuthContext,
  chatId: string,
  input: { text: string; internal: boolean; attachments: Attachment[] },
) {
  let switched: string[] | null = null;
  const message = await withEvents(app, async (q, emit) => {
    const now = app.clock.now();
    const viewer = await viewerOf(q, auth);
    if (!input.internal) {
      // Answering a client is work: a licensed user goes 'In work' first (user and organisation before the chat).
      const seen = await Q.findChat(q, auth.organisationId, chatId);
      assertVisible(viewer, seen);
      assertCanAct(viewer, seen);
      switched = await enterWork({ q, emit, now }, auth);
    }
    const chat = await Q.lockChat(q, auth.organisationId, chatId);
    assertVisible(viewer, chat);
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    assertCanAct(viewer, chat);
    if (!input.internal) assertChannelWritable(chat);
    const m = await Q.insertMessage(q, {
      orgId: auth.organisationId,
      chatId: chat.id,
      channelId: chat.channel_id,
      direction: 'out',
      kind: input.internal ? 'internal' : 'normal',
      internal: input.internal,
      text: input.text,
      attachments: input.attachments,
      status: input.internal ? null : 'pending',
      authorId: auth.userId,
      externalMessageId: null,
      now,
    });
    if (!m) throw new Error('message insert returned nothing');
    await emit(auth.organisationId, 'message.created', presentMessage(m), chatAudience(chat));
    if (!input.internal) {
      await insertOutbox(q, {
        orgId: auth.organisationId,
        channelId: chat.channel_id,
        messageId: m.id,
        event: 'message.created',
        now,
      });
      await Q.touchChatOnOperatorMessage(q, chat.id, m.text, now);
      await deleteTimers(q, chat.id, ['redistribute', 'overdue_half', 'overdue_expired']);
      if (chat.overdue_level !== 'none')
        await emitChat({ q, emit, now }, auth.organisationId, chat.id, 'chat.updated');
    }
    return m;
  });
  if (!input.internal) kickOutbox(app);
  if (switched) await distributeTeamQueues(app, switched);
  return message;
}

/** Edits the caller's own message in an open chat: a normal message becomes kind 'edited' and the edit is delivered. */
export async function editMessage(
  app: AppContext,
  auth: AuthContext,
  chatId: string,
  messageId: string,
  text: string,
) {
  const message = await withEvents(app, async (q, emit) => {
    const now = app.clock.now();
    const viewer = await viewerOf(q, auth);
    const chat = await Q.lockChat(q, auth.organisationId, chatId);
    assertVisible(viewer, chat);
    const current = await Q.findMessage(q, chat.id, messageId);
    if (!current) throw new AppError('messageNotFoundException');
    if (current.direction !== 'out' || current.author_id !== auth.userId)
      throw new AppError('messageEditDeniedException');
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    if (!current.internal) assertChannelWritable(chat);
    const m = await Q.editMessageText(q, current.id, text, current.internal ? 'internal' : 'edited', now);
    await emit(auth.organisationId, 'message.updated', presentMessage(m), chatAudience(chat));
    if (!current.internal)
      await insertOutbox(q, {
        orgId: auth.organisationId,
        channelId: chat.channel_id,
        messageId: m.id,
        event: 'message.updated',
        now,
      });
    return m;
  });
  if (!message.internal) kickOutbox(app);
  return message;
}
