import { buttonRowsSchema, FIELD_MESSAGES as M, MESSAGE_TEXT_MAX } from '@smartconnect/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, validationError } from '../../http/errors.ts';
import { kickOutbox } from '../../jobs/outbox.ts';
import { insertOutbox } from '../../jobs/queries.ts';
import type { Actor } from '../../lib/actor.ts';
import { withEvents } from '../../realtime/emit.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';

/**
 * A message with buttons as automation writes it: a text (Telegram shows a keyboard only under a text) and at
 * least one row of buttons, limited by contracts' buttonRowsSchema (e.g. a payload of at most 64 bytes).
 */
const buttonsMessage = z.object({
  text: z
    .string(M.requiredFields)
    .max(MESSAGE_TEXT_MAX, M.valueIncorrect)
    .refine((v) => v.trim() !== '', M.requiredFields),
  buttons: buttonRowsSchema.min(1, M.valueIncorrect),
});

/**
 * Writes a message with buttons in an open chat of the actor's organisation, for automation (a chat bot's reply;
 * operators cannot send buttons, the chat center's send route has no such field). The input is validated before
 * anything is stored or sent (validationException); the message is stored pending with its outbox row in one
 * transaction, without an author, and delivered after commit by the channel's adapter. It is not an operator's
 * answer: the chat's operator clocks and presence are left alone.
 */
export async function sendButtonsMessage(
  app: AppContext,
  actor: Exclude<Actor, { kind: 'user' }>,
  chatId: string,
  input: unknown,
) {
  const parsed = buttonsMessage.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  const { text, buttons } = parsed.data;
  const orgId = actor.organisationId;
  const message = await withEvents(app, async (q, emit) => {
    const now = app.clock.now();
    const chat = await Q.lockChat(q, orgId, chatId);
    if (!chat) throw new AppError('chatNotFoundException');
    if (chat.status === 'closed') throw new AppError('chatClosedException');
    if (chat.channel_status !== 'active' || chat.channel_deleted)
      throw new AppError('deactivatedChannelException');
    const m = await Q.insertMessage(q, {
      orgId,
      chatId: chat.id,
      channelId: chat.channel_id,
      direction: 'out',
      kind: 'normal',
      internal: false,
      text,
      attachments: [],
      buttons,
      status: 'pending',
      authorId: null,
      externalMessageId: null,
      now,
    });
    if (!m) throw new Error('message insert returned nothing');
    await emit(orgId, 'message.created', presentMessage(m), chatAudience(chat));
    await insertOutbox(q, {
      orgId,
      channelId: chat.channel_id,
      messageId: m.id,
      event: 'message.created',
      now,
    });
    return m;
  });
  kickOutbox(app);
  return presentMessage(message);
}
