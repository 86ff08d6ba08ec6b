import { DEFAULT_OPT_OUT_WORDS } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { markMailingReply, type PipelineJob, type StageRun, type StageTx } from '../../jobs/pipeline.ts';
import { optOutOfAdvertising } from '../clients/consent.ts';
import { closeChatAtClientsWord } from '../conversation/close-client-chats.ts';
import { showMailingInReply } from '../conversation/mailing-messages.ts';
import { writeAutomatedMessage } from '../conversation/send-message.ts';
import * as Q from './queries.ts';

/** A client's message opening a dialog within this long of a mailing sent to them answers that mailing. */
export const MAILING_REPLY_WINDOW_MS = 7 * 24 * 3_600_000;

const OPT_OUT_CONFIRMATION = {
  eng: 'You have unsubscribed from advertising mailings. You will still receive service messages.',
  rus: 'Вы отписались от рекламных рассылок. Сервисные сообщения продолжат приходить.',
} as const;

/** The words compared: letters and digits only, in upper case ("Stop!" and " stop " are STOP). */
const normal = (s: string) =>
  s
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLocaleUpperCase('ru');
const OPT_OUT = new Set(DEFAULT_OPT_OUT_WORDS.map(normal));

/** Whether a reply is an opt-out word (the whole message, ignoring case and punctuation). */
export const isOptOut = (text: string) => OPT_OUT.has(normal(text));

/**
 * The pipeline's 'mailing_replies' stage: a client message that opened a dialog within the reply window of a
 * mailing sent to that contact answers the mailing. The mailing's message is shown at the top of the dialog, the
 * recipient is counted as replied, and the rules route the dialog with message type 'mailing' and the mailing's
 * marketing type. An opt-out word marks the client opted out of advertising, is answered once with a
 * confirmation, and ends the dialog (no operator needed).
 */
export async function mailingRepliesStage(tx: StageTx, job: PipelineJob, run: StageRun, _app: AppContext) {
  if (!job.opened) return 'continue' as const;
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
  const optOut = isOptOut(chat.text);
  await Q.markReplied(tx.q, sent.mailing_id, chat.contact_id, tx.now, optOut);
  if (!optOut) {
    markMailingReply(run, job, sent.marketing_type);
    return 'continue' as const;
  }
  const actor = { kind: 'system', organisationId: job.organisation_id } as const;
  if (await optOutOfAdvertising(tx.q, job.organisation_id, chat.client_id, tx.now)) {
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
  await closeChatAtClientsWord(tx, job.organisation_id, job.chat_id);
  return 'stop' as const;
}
