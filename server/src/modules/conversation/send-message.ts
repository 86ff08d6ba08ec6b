import type { Attachment, ButtonRows } from '@smartconnect/contracts';
import { adapterFor } from '../../channels/registry.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { kickOutbox } from '../../jobs/outbox.ts';
import { deleteTimers, insertOutbox } from '../../jobs/queries.ts';
import { type Actor, actorUserId, type UserActor } from '../../lib/actor.ts';
import { withEvents } from '../../realtime/emit.ts';
import { assertNotSuspended } from '../billing/suspension.ts';
import { enterWork } from '../presence/service.ts';
import { emitChat, handedOver, type Tx } from './lifecycle.ts';
import { type ActorView, assertCanAct, assertVisible, chatAudience, viewerOf, viewOf } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';
import { distributeTeamQueues } from './routing-distribute.ts';

function assertChannelWritable(chat: Pick<Q.ChatRow, 'channel_status' | 'channel_deleted'>) {
  if (chat.channel_status !== 'active' || chat.channel_deleted)
    throw new AppError('deactivatedChannelException');
}

/**
 * A channel type with a session window (WhatsApp: 24 hours, §4) takes free text only that long after the client's
 * last message; later only registered templates may be sent (sessionEndedException, with when it closed).
 */
function assertSessionOpen(chat: Pick<Q.ChatRow, 'channel_type' | 'last_client_message_at'>, now: Date) {
  const hours = adapterFor(chat.channel_type).capabilities.sessionWindowHours;
  if (hours == null) return;
  const last = chat.last_client_message_at ? new Date(chat.last_client_message_at).getTime() : null;
  const closesAt = last === null ? null : last + hours * 3_600_000;
  if (closesAt === null || closesAt <= now.getTime())
    throw new AppError('sessionEndedException', undefined, {
      closedAt: closesAt === null ? null : new Date(closesAt).toISOString(),
    });
}

/**
 * Writes a message in an open chat. A normal message is stored pending with its outbox row in the same
 * transaction (the dispatcher delivers it after commit); an internal note stays inside the organisation. An
 * inactive channel refuses normal messages (deactivatedChannelException).
 *
 * A user (the chat's operator, or AUTHORITY_ALL_CHATS) answers the client: overdue and redistribution clocks stop,
 * and answering puts a licensed user 'In work' (see enterWork). Automation (bot, rule, system) writes without a
 * session or rights check, on any chat of its organisation; its message has no author (author_id null) and is not
 * an operator's answer: the chat's last message moves, the operator's clocks do not, and no presence changes.
 *
 * A user's `clientKey` makes the send idempotent: a repeat with the same key by the same author in the same chat
 * (a retry after a lost answer) answers the first message and stores, emits and delivers nothing. The chat row lock
 * serialises two sends of one chat, so the repeat finds the first once it commits (messages_client_key_idx backs it).
 */
export async function sendMessage(
  app: AppContext,
  actor: Actor,
  chatId: string,
  input: {
    text: string;
    internal: boolean;
    attachments: Attachment[];
    buttons?: ButtonRows;
    clientKey?: string;
    template?: Q.ProviderTemplateRef;
  },
) {
  // Buttons are automation's (a bot's reply); the chat center has no such field.
  if (input.buttons?.length && actor.kind === 'user') throw new AppError('accessDeniedException');
  const orgId = actor.organisationId;
  const clientKey = actor.kind === 'user' ? (input.clientKey ?? null) : null;
  let switched: string[] | null = null;
  let repeat = false;
  const message = await withEvents(app, async (q, emit) => {
    const now = app.clock.now();
    const view = await viewOf(q, actor);
    if (!input.internal && actor.kind === 'user') {
      // Answering a client is work: a licensed user goes 'In work' first (user and organisation before the chat).
      const seen = await Q.findChat(q, orgId, chatId);
      assertVisible(view, seen);
      assertCanAct(view, seen);
      await assertNotSuspended(q, orgId);
      switched = await enterWork({ q, emit, now }, actor);
    }
    const written = await writeMessage({ q, emit, now }, actor, view, chatId, input, clientKey);
    repeat = written.repeat;
    return written.m;
  });
  if (!input.internal && !repeat) kickOutbox(app);
  if (switched) await distributeTeamQueues(app, switched);
  return message;
}

type MessageInput = {
  text: string;
  internal: boolean;
  attachments: Attachment[];
  buttons?: ButtonRows;
  /** A registered template: allowed after the session window closed. */
  template?: Q.ProviderTemplateRef;
};

/**
 * sendMessage's writing step, inside the caller's transaction: the chat locked, checked, the message and its outbox
 * row; `repeat` when a user's `clientKey` names a message they already sent in this chat (answered, nothing written).
 */
async function writeMessage(
  tx: Tx,
  actor: Actor,
  view: ActorView,
  chatId: string,
  input: MessageInput,
  clientKey: string | null = null,
): Promise<{ m: Q.MessageRow; repeat: boolean }> {
  const { q, emit, now } = tx;
  const orgId = actor.organisationId;
  const chat = await Q.lockChatForMessage(q, orgId, chatId);
  assertVisible(view, chat);
  if (clientKey && actor.kind === 'user') {
    const first = await Q.findMessageByClientKey(q, chat.id, actor.userId, clientKey);
    if (first) return { m: first, repeat: true };
  }
  if (chat.status === 'closed') throw new AppError('chatClosedException');
  assertCanAct(view, chat);
  if (!input.internal) {
    assertChannelWritable(chat);
    if (!input.template) assertSessionOpen(chat, now);
  }
  // Automation's message to send: the message, its outbox row and the chat's last message in one statement.
  const combined = actor.kind !== 'user' && !input.internal;
  const m = await (combined ? Q.insertAutomatedMessage : Q.insertMessage)(q, {
    orgId,
    chatId: chat.id,
    channelId: chat.channel_id,
    direction: 'out',
    kind: input.internal ? 'internal' : 'normal',
    internal: input.internal,
    text: input.text,
    attachments: input.attachments,
    buttons: input.buttons,
    status: input.internal ? null : 'pending',
    authorId: actorUserId(actor),
    externalMessageId: null,
    clientKey,
    providerTemplate: input.template ?? null,
    botId: actor.kind === 'bot' ? actor.botId : null,
    now,
  });
  if (!m) throw new Error('message insert returned nothing');
  await emit(orgId, 'message.created', presentMessage(m), chatAudience(chat));
  if (!input.internal && !combined) {
    await insertOutbox(q, {
      orgId,
      channelId: chat.channel_id,
      messageId: m.id,
      event: 'message.created',
      now,
    });
    if (actor.kind === 'user') {
      // An operator answering takes the chat over from a bot.
      await handedOver(tx, orgId, chat.id);
      await Q.touchChatOnOperatorMessage(q, chat.id, m.text, now);
      await deleteTimers(q, chat.id, ['redistribute', 'overdue_half', 'overdue_expired']);
      if (chat.overdue_level !== 'none') await emitChat({ q, emit, now }, orgId, chat.id, 'chat.updated');
    }
  }
  return { m, repeat: false };
}

/**
 * sendMessage for automation that already holds a transaction (a pipeline stage, a timer): the same checks and
 * rows (a closed chat or an inactive channel refuses; no author; not an operator's answer), in the caller's
 * transaction, so the message commits or rolls back with the caller's work. Delivery is the outbox's: the
 * dispatcher's poll (or a kick after the commit) sends it.
 */
export function writeAutomatedMessage(
  tx: Tx,
  actor: Exclude<Actor, { kind: 'user' }>,
  chatId: string,
  input: MessageInput,
) {
  return writeMessage(tx, actor, 'organisation', chatId, input).then((w) => w.m);
}

/**
 * Edits the caller's own message in an open chat: a normal message becomes kind 'edited' and the edit is delivered.
 * Users only: an automation message stores no author to prove it is the editor's own (author_id is null).
 */
export async function editMessage(
  app: AppContext,
  actor: UserActor,
  chatId: string,
  messageId: string,
  text: string,
) {
  const message = await withEvents(app, async (q, emit) => {
    const now = app.clock.now();
    const viewer = await viewerOf(q, actor);
    const chat = await Q.lockChat(q, actor.organisationId, chatId);
    assertVisible(viewer, chat);
    const current = await Q.findMessage(q, chat.id, messageId);
    if (!current) throw new AppError('messageNotFoundException');
    if (current.direction !== 'out' || current.author_id !== actor.userId)
      throw new AppError('messageEditDeniedException');
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    if (!current.internal) {
      assertChannelWritable(chat);
      if (!adapterFor(chat.channel_type).capabilities.edit)
        throw new AppError('messageEditUnsupportedException');
    }
    const m = await Q.editMessageText(q, current.id, text, current.internal ? 'internal' : 'edited', now);
    await emit(actor.organisationId, 'message.updated', presentMessage(m), chatAudience(chat));
    if (!current.internal)
      await insertOutbox(q, {
        orgId: actor.organisationId,
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
