import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { markMailingReply, type PipelineJob, type StageRun, type StageTx } from '../../jobs/pipeline.ts';
import { optOutOfAdvertising } from '../clients/consent.ts';
import { closeChatAtClientsWord } from '../conversation/close-client-chats.ts';
import { showMailingInReply } from '../conversation/mailing-messages.ts';
import { writeAutomatedMessage } from '../conversation/send-message.ts';
import * as Q from './queries.ts';
import { MAILING_REPLY_WINDOW_MS, normalWord, optOutWords } from './settings.ts';

const OPT_OUT_CONFIRMATION = {
  eng: 'You have unsubscribed from advertising mailings. You will still receive service messages.',
  rus: 'Вы отписались от рекламных рассылок. Сервисные сообщения продолжат приходить.',
} as const;

/** Whether a reply is one of the words (the whole message, ignoring case and punctuation). */
export const isOptOut = (text: string, words: Set<string>) => words.has(normalWord(text));

/**
 * The pipeline's 'mailing_replies' stage: a client message that opened a dialog within the reply window of a
 * mailing sent to that contact answers the mailing. The mailing's message is shown at the top of the dialog, the
 * recipient is counted as replied, and the rules route the dialog with message type 'mailing' and the mailing's
 * marketing type. An opt-out word marks the client opted out of advertising, is answered once with a
 * confirmation, and ends the dialog (no operator needed).
 */
export async function mailingRepliesStage(tx: StageTx, job: PipelineJob, run: StageRun, _app: AppContext) {
  if (!job.opened) return optOutInDialog(tx, job);
  const [chat] = await tx.q.query<{ contact_id: string; client_id: string; created_at: Date; text: string }>(
    `select c.contact_id, c.client_id, c.created_at, m.text from chats c join messages m on m.id = $2
      where c.id = $1 and c.status = 'waiting'`,
    [job.chat_id, job.message_id],
  );
  if (!chat) return 'continue' as const;
  const opened = new Date(chat.created_at);
  const sent = await Q.latestSentTo(
    tx.q,
    chat.contact_id,
    new Date(opened.getTime() - MAILING_REPLY_WINDOW_MS),
    opened,
  );
  if (!sent) return 'continue' as const;
  await showMailingInReply(tx, job.organisation_id, job.chat_id, sent.message_id);
  const optOut = isOptOut(chat.text, await optOutWords(tx.q, job.organisation_id));
  await Q.markReplied(tx.q, sent.mailing_id, chat.contact_id, tx.now, optOut);
  if (!optOut) {
    markMailingReply(run, job, sent.marketing_type);
    return 'continue' as const;
  }
  await confirmOptOut(tx, job, chat.client_id);
  await closeChatAtClientsWord(tx, job.organisation_id, job.chat_id);
  return 'stop' as const;
}

/**
 * An opt-out word in a dialog that was already open (the client answered a mailing while talking to an operator or a
 * bot): the client opts out and is told so; the dialog goes on. Seen because a started mailing makes every message
 * of its organisation pass the pipeline for the reply window (settings.ts needRepliesSeen).
 */
async function optOutInDialog(tx: StageTx, job: PipelineJob) {
  const [msg] = await tx.q.query<{ contact_id: string; client_id: string; text: string }>(
    `select c.contact_id, c.client_id, m.text from chats c join messages m on m.id = $2
      where c.id = $1 and c.status <> 'closed' and m.direction = 'in'`,
    [job.chat_id, job.message_id],
  );
  // Cheap first: only a short message can be a word.
  if (!msg || msg.text.length > 60 || !isOptOut(msg.text, await optOutWords(tx.q, job.organisation_id)))
    return 'continue' as const;
  const sent = await Q.latestSentTo(
    tx.q,
    msg.contact_id,
    new Date(tx.now.getTime() - MAILING_REPLY_WINDOW_MS),
    tx.now,
  );
  if (!sent) return 'continue' as const;
  await Q.markReplied(tx.q, sent.mailing_id, msg.contact_id, tx.now, true);
  await confirmOptOut(tx, job, msg.client_id);
  return 'stop' as const;
}

/** Marks the client opted out of advertising and confirms it once (a second word changes nothing, says nothing). */
async function confirmOptOut(tx: StageTx, job: PipelineJob, clientId: string) {
  const actor = { kind: 'system', organisationId: job.organisation_id } as const;
  if (!(await optOutOfAdvertising(tx, job.organisation_id, clientId))) return;
  const [org] = await tx.q.query<{ language: 'eng' | 'rus' }>(
    'select language from organisations where id = $1',
    [job.organisation_id],
  );
  try {
    await writeAutomatedMessage(tx, actor, job.chat_id, {
      text: OPT_OUT_CONFIRMATION[org?.language ?? 'eng'],
      internal: false,
      attachments: [],
    });
  } catch (err) {
    // A channel stopped meanwhile: the opt-out holds; there is nobody to confirm it through.
    if (!(err instanceof AppError)) throw err;
  }
}
