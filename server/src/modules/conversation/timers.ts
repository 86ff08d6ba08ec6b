import type { OverdueLevel } from '@smartconnect/contracts';
import type { Queryable } from '../../db/index.ts';
import { upsertTimer } from '../../jobs/queries.ts';
import type { TimerHandler } from '../../jobs/timers.ts';
import { DUE } from './due-times.ts';
import {
  assign,
  closeChatRow,
  distributeLocked,
  emitChat,
  lockRoutingTeams,
  type Tx,
  teamsOfOperator,
} from './lifecycle.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';
import { findTeam, pickOperator } from './routing-service.ts';

/** The lock a chat timer takes before anything else: the chat's row, as every operation on the chat does. */
export const lockTimerChat = (q: Queryable, orgId: string, chatId: string) => Q.lockChatRow(q, orgId, chatId);

/** Closes an open chat whose client has been silent for the team's auto-close time (re-arms if they wrote since). */
export async function fireAutoClose(tx: Tx, orgId: string, chatId: string): Promise<void> {
  const chat = await Q.lockChat(tx.q, orgId, chatId);
  if (!chat || chat.status === 'closed') return;
  // Settings only: the teams to route are locked later, all together in their order (lockRoutingTeams).
  const team = await findTeam(tx.q, chat.team_id);
  if (!team?.auto_close_minutes) return;
  const due = DUE.autoClose.at(chat.last_client_message_at ?? chat.created_at, team.auto_close_minutes);
  if (due > tx.now) return void (await upsertTimer(tx.q, orgId, 'auto_close', chat.id, due));
  await closeChatRow(tx, chat, { kind: 'auto_close', actorId: null });
}

/**
 * Closes an open chat with no message from either side for the team's inactivity time (§3, §4; 0 is off). Armed at
 * each client message and when the team's time changes; a later message (an operator's, a bot's) or a transfer to
 * another team is read here, and the timer re-armed to the new due time.
 */
export async function fireInactivityClose(tx: Tx, orgId: string, chatId: string): Promise<void> {
  const chat = await Q.lockChat(tx.q, orgId, chatId);
  if (!chat || chat.status === 'closed') return;
  const team = await findTeam(tx.q, chat.team_id);
  if (!team?.inactivity_hours) return;
  const last = Math.max(new Date(chat.created_at).getTime(), new Date(chat.last_message_at ?? 0).getTime());
  const due = DUE.inactivityClose.at(new Date(last), team.inactivity_hours);
  if (due > tx.now) return void (await upsertTimer(tx.q, orgId, 'inactivity_close', chat.id, due));
  await closeChatRow(tx, chat, { kind: 'inactivity_close', actorId: null });
}

/** Re-arms the inactivity close of a team's open chats after its inactivity time changed (teams module). */
export const armTeamInactivity = (q: Queryable, orgId: string, teamId: string) =>
  Q.armInactivityTimers(q, orgId, teamId);

/**
 * An operator who has not answered within the team's redistribution time loses the chat: it goes to another
 * eligible operator of the team, or back to the Waiting queue when there is none. The operator has room again,
 * so the queues of their teams move (this chat is not handed straight back to them).
 */
export async function fireRedistribute(tx: Tx, orgId: string, chatId: string): Promise<void> {
  const chat = await Q.lockChat(tx.q, orgId, chatId);
  if (chat?.status !== 'in_progress' || !chat.assigned_at) return;
  const settings = await findTeam(tx.q, chat.team_id);
  if (!settings?.auto_redistribution_minutes) return;
  const due = DUE.redistribute.at(chat.assigned_at, settings.auto_redistribution_minutes);
  if (due > tx.now) return void (await upsertTimer(tx.q, orgId, 'redistribute', chat.id, due));
  if (chat.last_operator_message_at && chat.last_operator_message_at >= chat.assigned_at) return;
  await redistributeChat(tx, chat, null);
}

/**
 * Takes a locked in-progress chat from its operator: to another eligible operator of the team, or back to the
 * Waiting queue when there is none (history 'redistribution' either way). The operator has room again, so the
 * queues of their teams move, without handing this chat straight back to them.
 */
export async function redistributeChat(tx: Tx, chat: Q.ChatRow, actorId: string | null): Promise<void> {
  const orgId = chat.organisation_id;
  const previous = chat.operator_id;
  const teams = await lockRoutingTeams(tx, [chat.team_id, ...(await teamsOfOperator(tx, previous))]);
  const team = teams.get(chat.team_id);
  if (!team) return;
  const next = await pickOperator(tx.q, team, { excludeUserIds: previous ? [previous] : [] });
  if (next) {
    await assign(tx, chat, next, { kind: 'redistribution', actorId, from: ['in_progress'], team });
    await emitChat(tx, orgId, chat.id, 'chat.assigned', { userIds: [previous] });
  } else {
    await Q.moveToQueue(tx.q, chat.id, chat.team_id, tx.now);
    await Q.insertHistory(tx.q, {
      orgId,
      chatId: chat.id,
      kind: 'redistribution',
      actorId,
      fromUserId: previous,
      toTeamId: chat.team_id,
      now: tx.now,
    });
    // Back in the queue: In progress and Waiting both change.
    await emitChat(tx, orgId, chat.id, 'chat.updated', { userIds: [previous] }, { counters: true });
  }
  await distributeLocked(tx, teams.values(), { skipChatIds: [chat.id] });
}

const rank: Record<OverdueLevel, number> = { none: 0, half_expired: 1, expired: 2 };

/** Raises the chat's overdue level when its client's oldest unanswered message has waited past the channel threshold. */
export async function fireOverdue(tx: Tx, orgId: string, chatId: string, level: 'half_expired' | 'expired') {
  const chat = await Q.lockChat(tx.q, orgId, chatId);
  if (!chat || chat.status === 'closed' || !chat.unanswered_since) return;
  const minutes = level === 'half_expired' ? chat.half_expired_minutes : chat.expired_minutes;
  if (!minutes || rank[chat.overdue_level] >= rank[level]) return;
  const due = DUE.overdue.at(chat.unanswered_since, minutes);
  const kind = level === 'half_expired' ? 'overdue_half' : 'overdue_expired';
  if (due > tx.now) return void (await upsertTimer(tx.q, orgId, kind, chat.id, due));
  await Q.setOverdue(tx.q, chat.id, level, tx.now);
  await emitChat(tx, orgId, chat.id, 'chat.updated');
}

/** The chat timers by kind, registered with the job runner in conversation/register.ts. */
export const CHAT_TIMERS = {
  auto_close: { lock: lockTimerChat, fire: fireAutoClose },
  inactivity_close: { lock: lockTimerChat, fire: fireInactivityClose },
  redistribute: { lock: lockTimerChat, fire: fireRedistribute },
  overdue_half: { lock: lockTimerChat, fire: (tx, org, id) => fireOverdue(tx, org, id, 'half_expired') },
  overdue_expired: { lock: lockTimerChat, fire: (tx, org, id) => fireOverdue(tx, org, id, 'expired') },
} satisfies Record<string, TimerHandler>;

/**
 * Records a delivery answer on an outbound message, forward only (a late 'sent' never undoes 'read'), and tells
 * whoever sees the chat; answers the message when its status moved.
 */
export async function recordDelivery(
  tx: Tx,
  messageId: string,
  status: 'sent' | 'delivered' | 'read' | 'undelivered',
  reason: string | null = null,
): Promise<Q.MessageRow | undefined> {
  const m = await Q.advanceMessageStatus(tx.q, messageId, status, reason);
  if (!m) return undefined;
  const chat = await Q.findChat(tx.q, m.organisation_id, m.chat_id);
  if (chat) await tx.emit(m.organisation_id, 'message.status', presentMessage(m), chatAudience(chat));
  return m;
}
