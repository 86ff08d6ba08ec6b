import { buttonRowsSchema, FIELD_MESSAGES as M, MESSAGE_TEXT_MAX } from '@smartconnect/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../http/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { presentMessage } from './presenter.ts';
import { sendMessage } from './send-message.ts';

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
 * anything is stored or sent (validationException); then it is sendMessage's: stored pending with its outbox row,
 * without an author, not an operator's answer.
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
  return presentMessage(
    await sendMessage(app, actor, chatId, { text, buttons, internal: false, attachments: [] }),
  );
}
