import type { AppContext } from '../../context.ts';
import type { StageRun, StageTx } from '../../jobs/pipeline.ts';
import type { PipelineJob } from '../../jobs/pipeline-queries.ts';
import { upsertTimer } from '../../jobs/queries.ts';
import type { Tx } from '../../realtime/emit.ts';
import { writeAutomatedMessage } from '../conversation/send-message.ts';
import { lockTimerChat } from '../conversation/timers.ts';
import * as Q from './queries.ts';

/** The holding phrase's durable timer (one per chat, re-armed for each waiting period). */
export const HOLDING_TIMER = 'auto_reply_holding' as const;

const say = (tx: Tx, orgId: string, chatId: string, text: string) =>
  writeAutomatedMessage(tx, { kind: 'system', organisationId: orgId }, chatId, {
    text,
    internal: false,
    attachments: [],
  });

/** What the stage still owes the chat's current waiting period. */
const owed = (c: Q.ReplyContext) => ({
  presence: c.presence_period !== c.period && (c.online_enabled || c.offline_enabled),
  holding: c.holding_enabled && c.holding_period !== c.period && !!c.holding_due,
});

/**
 * The run's chats as the stage first sees them, read once per run (one statement instead of one per job). A reading
 * taken before an earlier job of the run gave a reply can only say a reply is owed when it no longer is: what is
 * sent is decided on the chat's row read again under its lock.
 */
async function seenOf(tx: StageTx, run: StageRun, chatId: string): Promise<Q.ReplyContext | undefined> {
  let byChat = run.memo.get('auto_replies') as Map<string, Q.ReplyContext> | undefined;
  if (!byChat) {
    const chats = new Map(run.jobs.map((j) => [j.chat_id, { orgId: j.organisation_id, chatId: j.chat_id }]));
    byChat = new Map((await Q.replyContexts(tx.q, [...chats.values()])).map((c) => [c.chat_id, c]));
    run.memo.set('auto_replies', byChat);
  }
  return byChat.get(chatId);
}

/**
 * The pipeline's auto-replies stage, for every client message of an organisation with such replies on. Per waiting
 * period of a chat session (client messages after the operator's latest answer):
 * - the presence reply, once: 'online' when an operator of the chat's team is in work and no operator has answered
 *   in this session yet (it greets a new session), else 'offline' when nobody of the team is in work;
 * - the holding phrase's timer, armed once at the period's first unanswered message + the channel's wait (it
 *   speaks only while an operator of the team is in work, see fireHolding).
 * Nothing goes to a closed chat, an inactive channel, a client who blocked us, or without OPTION_AUTO_REPLY. It runs
 * in the job's transaction (the job is deleted in it): a retried job finds what a committed run recorded, and a
 * failed run recorded and sent nothing.
 */
export async function autoRepliesStage(tx: StageTx, job: PipelineJob, run: StageRun, _app: AppContext) {
  const orgId = job.organisation_id;
  const seen = await seenOf(tx, run, job.chat_id);
  if (!seen?.sendable || !seen.waiting) return undefined;
  const first = owed(seen);
  if (!first.presence && !first.holding) return undefined;
  // The chat's lock first, as every operation on it (the holding timer fires under the same lock); then read again.
  await lockTimerChat(tx.q, orgId, job.chat_id);
  const c = await Q.replyContext(tx.q, orgId, job.chat_id);
  if (!c?.sendable || !c.waiting) return undefined;
  const now = owed(c);
  if (now.presence) {
    const inWork = await Q.teamInWork(tx.q, c.team_id);
    const text = inWork
      ? c.online_enabled && c.unanswered_session && c.online_text
      : c.offline_enabled && c.offline_text;
    if (text) await say(tx, orgId, job.chat_id, text);
    await Q.markPeriod(tx.q, orgId, job.chat_id, 'presence_period', c.period);
  }
  if (now.holding && c.holding_due) {
    await upsertTimer(tx.q, orgId, HOLDING_TIMER, job.chat_id, c.holding_due);
    await Q.markPeriod(tx.q, orgId, job.chat_id, 'holding_period', c.period);
  }
  return undefined;
}

/**
 * The holding phrase, when its timer fires: sent once for the chat's waiting period if the client still waits for
 * an operator (an answer ended the period: nothing), the reply is still on, its time has come (a longer wait saved
 * meanwhile re-arms the timer) and an operator of the chat's team is in work: with nobody there, "an operator will
 * answer soon" would not be true (the offline reply speaks then), and the period's phrase is left out.
 */
export async function fireHolding(tx: Tx, orgId: string, chatId: string): Promise<void> {
  const c = await Q.replyContext(tx.q, orgId, chatId);
  if (!c?.sendable || !c.waiting || !c.holding_enabled || !c.holding_due) return;
  if (c.holding_sent_period === c.period) return;
  if (c.holding_due > tx.now)
    return void (await upsertTimer(tx.q, orgId, HOLDING_TIMER, chatId, c.holding_due));
  if (c.holding_text && (await Q.teamInWork(tx.q, c.team_id))) await say(tx, orgId, chatId, c.holding_text);
  await Q.markPeriod(tx.q, orgId, chatId, 'holding_sent_period', c.period);
}
