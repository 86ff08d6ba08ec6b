import type { BotIntent, TransferTarget } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { handedBack, mailingReplyOf, routesChat, type StageRun, type StageTx } from '../../jobs/pipeline.ts';
import type { PipelineJob } from '../../jobs/pipeline-queries.ts';
import type { Actor } from '../../lib/actor.ts';
import { chatIntentOf, startBotDialog } from '../bot-runtime/runtime.ts';
import { closeChatTx } from '../conversation/close-chat.ts';
import { teamHasRoom } from '../conversation/routing-service.ts';
import { insertRuleHistory, nameRuleOnClose } from '../conversation/rule-history.ts';
import { transferChatTx } from '../conversation/transfer-chat.ts';
import { type ChatFacts, matches } from './conditions.ts';
import * as Q from './queries.ts';

/** The run's active rules per organisation, read once per run. */
async function rulesOf(tx: StageTx, run: StageRun, orgId: string): Promise<Q.RuleRow[]> {
  let byOrg = run.memo.get('rules') as Map<string, Q.RuleRow[]> | undefined;
  if (!byOrg) {
    const orgIds = [...new Set(run.jobs.map((j) => j.organisation_id))];
    byOrg = new Map();
    for (const r of await Q.activeRules(tx.q, orgIds)) {
      const list = byOrg.get(r.organisation_id) ?? [];
      list.push(r);
      byOrg.set(r.organisation_id, list);
    }
    run.memo.set('rules', byOrg);
  }
  return byOrg.get(orgId) ?? [];
}

/**
 * Whether a user's outbound message opened the chat of a job that did not open it (only such a chat's first client
 * reply is routed, by the 'mailing' rules): the run's chats read once per run, so a chat the client opened costs its
 * later messages no statement of their own.
 */
async function openedByUsOf(tx: StageTx, run: StageRun, chatId: string): Promise<boolean> {
  let byChat = run.memo.get('rules.openedByUs') as Map<string, boolean> | undefined;
  if (!byChat) {
    const chats = new Map(
      run.jobs
        .filter((j) => !j.opened)
        .map((j) => [j.chat_id, { orgId: j.organisation_id, chatId: j.chat_id }]),
    );
    byChat = new Map((await Q.openedByUs(tx.q, [...chats.values()])).map((c) => [c.id, c.opened_by_us]));
    run.memo.set('rules.openedByUs', byChat);
  }
  return byChat.get(chatId) ?? false;
}

/**
 * Carries out a rule's action through the same command an operator uses (transferChat or closeChat, as the rule), or answers
 * false when it cannot be done now: the team has no operator In work with room, the last operator or personal
 * manager is missing or not In work, the chat bot cannot take the chat (startBotDialog). The history names the rule.
 */
async function carryOut(
  tx: StageTx,
  rule: Q.RuleRow,
  chat: Q.ChatFactsRow,
  ctx: { app: AppContext; run: StageRun; job: PipelineJob },
): Promise<boolean> {
  const { action } = rule;
  const history = (toTeamId: string | null) =>
    insertRuleHistory(tx.q, {
      orgId: chat.organisation_id,
      chatId: chat.id,
      ruleId: rule.id,
      ruleName: rule.name,
      toTeamId,
      now: tx.now,
    });
  let target: TransferTarget;
  if (action.type === 'chat_bot') {
    // The chat talks to the bot (its published version); the bot answers this very message.
    if (!action.botId || !(await startBotDialog(ctx.app, tx, ctx.run, ctx.job, action.botId))) return false;
    await history(null);
    return true;
  }
  const actor: Actor = { kind: 'rule', ruleId: rule.id, organisationId: chat.organisation_id };
  if (action.type === 'close') {
    try {
      await closeChatTx(ctx.app, tx, actor, chat.id);
    } catch (err) {
      // The organisation wants a request category before a close: the chat goes on to the next rule, then people.
      if (err instanceof AppError && err.code === 'closeWithoutCategoryException') return false;
      throw err;
    }
    await nameRuleOnClose(tx.q, { chatId: chat.id, ruleId: rule.id, ruleName: rule.name, now: tx.now });
    return true;
  }
  if (action.type === 'team' && !action.teamId) return false;
  if (action.type === 'team' && action.teamId) {
    if (!(await teamHasRoom(tx.q, action.teamId))) return false;
    // Already the chat's queue: the queue stage hands it out.
    if (action.teamId === chat.team_id && chat.status === 'waiting') {
      await history(action.teamId);
      return true;
    }
    target = { teamId: action.teamId };
  } else target = { target: action.type === 'last_operator' ? 'last_operator' : 'personal_manager' };
  try {
    await transferChatTx(tx, actor, chat.id, target);
  } catch (err) {
    if (err instanceof AppError && err.code === 'cannotTransferException') return false;
    throw err;
  }
  await history(action.type === 'team' ? (action.teamId ?? null) : null);
  return true;
}

/**
 * The pipeline's 'rules' stage: for a chat that needs routing, the organisation's enabled rules are tried by
 * priority; the first whose conditions hold and whose action can be carried out routes the chat, and the rest are
 * skipped. None (or OPTION_ROUTING off): the default rule, the chat stays in its channel's team for the queue stage.
 * A chat needs routing once per session: at the client message that opened it (still Waiting with no operator), or,
 * for a chat our outbound message opened (the create-chat page), at the client's first reply ('mailing').
 * A retried job finds the chat routed already and changes nothing.
 */
export async function rulesStage(
  tx: StageTx,
  job: PipelineJob,
  run: StageRun,
  app: AppContext,
): Promise<'stop' | undefined> {
  const rules = await rulesOf(tx, run, job.organisation_id);
  if (!rules.length) return;
  // A chat a bot handed back is routed as at its opening.
  const opened = routesChat(run, job);
  if (!opened && !rules.some((r) => r.conditions.messageType === 'mailing')) return;
  if (!opened && !(await openedByUsOf(tx, run, job.chat_id))) return;
  const chat = await Q.chatFacts(tx.q, job.organisation_id, job.chat_id, job.message_id);
  if (!chat || chat.status === 'closed') return;
  if (opened && (chat.status !== 'waiting' || chat.operator_id)) return;
  if (!opened && (!chat.opened_by_us || chat.earlier_client_message)) return;
  // A reply to a mailing (the mailing_replies stage) carries its marketing type; a dialog an operator started is a
  // service message.
  const reply = opened ? mailingReplyOf(run, job) : null;
  const mailing = !opened || reply !== null;
  const facts: ChatFacts = {
    channelId: chat.channel_id,
    repeated: chat.repeated,
    messageType: mailing ? 'mailing' : 'client',
    marketingType: reply ?? (mailing ? 'service' : null),
    // The intent the chat's bot recognised in the client's words (issue 18), if a bot talked to the chat.
    intent: (await chatIntentOf(tx.q, chat.id)) as BotIntent | null,
  };
  for (const rule of rules) {
    if (!matches(rule.conditions, facts)) continue;
    // A bot that was handed the chat back is not handed it again by the same kind of rule.
    if (rule.action.type === 'chat_bot' && !job.opened) continue;
    if (await carryOut(tx, rule, chat, { app, run, job }))
      // The bot holds the chat (or placed it), or the rule closed it: no auto-reply or queue for it.
      return rule.action.type === 'close' || (rule.action.type === 'chat_bot' && !handedBack(run, job))
        ? 'stop'
        : undefined;
  }
}
