import type { TransferTarget } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { registerStage, type StageRun, type StageTx } from '../../jobs/pipeline.ts';
import type { PipelineJob } from '../../jobs/pipeline-queries.ts';
import type { Actor } from '../../lib/actor.ts';
import { transferChatTx } from '../chats/transfer-chat.ts';
import { teamHasRoom } from '../routing/service.ts';
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
 * Carries out a rule's action through the same command an operator uses (transferChat, as the rule), or answers
 * false when it cannot be done now: the team has no operator In work with room, the last operator or personal
 * manager is missing or not In work, the chat bot does not exist (no bots yet). The history names the rule.
 */
async function carryOut(tx: StageTx, rule: Q.RuleRow, chat: Q.ChatFactsRow): Promise<boolean> {
  const { action } = rule;
  const history = (toTeamId: string | null) =>
    Q.insertRuleHistory(tx.q, {
      orgId: chat.organisation_id,
      chatId: chat.id,
      ruleId: rule.id,
      ruleName: rule.name,
      toTeamId,
      now: tx.now,
    });
  let target: TransferTarget;
  if (action.type === 'chat_bot' || (action.type === 'team' && !action.teamId)) return false;
  if (action.type === 'team' && action.teamId) {
    if (!(await teamHasRoom(tx.q, action.teamId))) return false;
    // Already the chat's queue: the queue stage hands it out.
    if (action.teamId === chat.team_id && chat.status === 'waiting') {
      await history(action.teamId);
      return true;
    }
    target = { teamId: action.teamId };
  } else target = { target: action.type === 'last_operator' ? 'last_operator' : 'personal_manager' };
  const actor: Actor = { kind: 'rule', ruleId: rule.id, organisationId: chat.organisation_id };
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
export async function rulesStage(tx: StageTx, job: PipelineJob, run: StageRun): Promise<undefined> {
  const rules = await rulesOf(tx, run, job.organisation_id);
  if (!rules.length) return;
  if (!job.opened && !rules.some((r) => r.conditions.messageType === 'mailing')) return;
  if (!job.opened && !(await openedByUsOf(tx, run, job.chat_id))) return;
  const chat = await Q.chatFacts(tx.q, job.organisation_id, job.chat_id, job.message_id);
  if (!chat || chat.status === 'closed') return;
  if (job.opened && (chat.status !== 'waiting' || chat.operator_id)) return;
  if (!job.opened && (!chat.opened_by_us || chat.earlier_client_message)) return;
  const mailing = !job.opened;
  const facts: ChatFacts = {
    channelId: chat.channel_id,
    repeated: chat.repeated,
    messageType: mailing ? 'mailing' : 'client',
    // A dialog an operator starts is a service message; advertising mailings do not exist yet.
    marketingType: mailing ? 'service' : null,
    // No chat bot names intents yet (issue 18).
    intent: null,
  };
  for (const rule of rules) {
    if (matches(rule.conditions, facts) && (await carryOut(tx, rule, chat))) return;
  }
}

/** The routing rules' slot in the conversation pipeline. */
export const registerRulesStage = () => registerStage('rules', rulesStage);
