import type { ChatHistoryKind, RealtimeEventType } from '@smartconnect/contracts';
import type { Queryable } from '../../db/index.ts';
import { deleteTimers, upsertTimer } from '../../jobs/queries.ts';
import type { Emit } from '../../realtime/emit.ts';
import { lockTeam, pickOperator, type RoutingTeam } from '../routing/service.ts';
import { chatAudience } from './policy.ts';
import { presentChat } from './presenter.ts';
import * as Q from './queries.ts';

/** Everything a state change inside one transaction needs. */
export type Tx = { q: Queryable; emit: Emit; now: Date };

const CHAT_TIMERS = ['auto_close', 'redistribute', 'overdue_half', 'overdue_expired'] as const;

/** Re-reads the chat and emits `type` (plus counters) to its audience and to `also` (who must drop it). */
export async function emitChat(
  tx: Tx,
  orgId: string,
  chatId: string,
  type: RealtimeEventType,
  also: Parameters<typeof chatAudience>[1] = {},
): Promise<Q.ChatRow> {
  const chat = await Q.findChat(tx.q, orgId, chatId);
  if (!chat) throw new Error(`chat ${chatId} vanished`);
  const audience = chatAudience(chat, also);
  await tx.emit(orgId, type, presentChat(chat), audience);
  if (type !== 'chat.updated') await tx.emit(orgId, 'counters.changed', { chatId }, audience);
  return chat;
}

/** Starts the redistribution clock of a freshly assigned chat when its team has one. */
async function armRedistribution(
  tx: Tx,
  orgId: string,
  chat: { id: string; operator_id: string | null },
  team: RoutingTeam | undefined,
) {
  if (team?.auto_redistribution_minutes) {
    const due = new Date(tx.now.getTime() + team.auto_redistribution_minutes * 60_000);
    await upsertTimer(tx.q, orgId, 'redistribute', chat.id, due);
  } else if (chat.operator_id) await deleteTimers(tx.q, chat.id, ['redistribute']);
  // (an unassigned chat has no redistribution timer to clear)
}

/**
 * Assigns the chat to `userId` if it is still in one of the `from` states (false otherwise: someone else won),
 * writes history and arms redistribution. Events are the caller's, once the whole change is done.
 */
export async function assign(
  tx: Tx,
  chat: Pick<Q.ChatRow, 'id' | 'organisation_id' | 'operator_id' | 'team_id'>,
  userId: string,
  h: { kind: ChatHistoryKind; actorId: string | null; from: Q.ChatRow['status'][]; team?: RoutingTeam },
): Promise<boolean> {
  const ok = await Q.assignChat(tx.q, {
    orgId: chat.organisation_id,
    chatId: chat.id,
    operatorId: userId,
    from: h.from,
    kind: h.kind,
    actorId: h.actorId,
    fromUserId: chat.operator_id,
    now: tx.now,
  });
  if (!ok) return false;
  await armRedistribution(tx, chat.organisation_id, chat, h.team);
  return true;
}

/** Routes one Waiting chat of a locked team: to the preferred operator when eligible, else by the team's method. */
export async function routeWaiting(
  tx: Tx,
  team: RoutingTeam,
  chat: Pick<Q.ChatRow, 'id' | 'organisation_id' | 'operator_id' | 'team_id' | 'client_id'>,
  opts: { preferLastOperator?: boolean; excludeUserIds?: string[] } = {},
): Promise<string | null> {
  const preferUserId = opts.preferLastOperator
    ? await Q.lastOperatorOfClient(tx.q, chat.client_id, null)
    : null;
  const userId = await pickOperator(tx.q, team, { preferUserId, excludeUserIds: opts.excludeUserIds });
  if (!userId) return null;
  const ok = await assign(tx, { ...chat, operator_id: null }, userId, {
    kind: 'assign',
    actorId: null,
    from: ['waiting'],
    team,
  });
  return ok ? userId : null;
}

/** Hands the team's Waiting chats, oldest first, to eligible operators until none is left or nobody has room. */
export async function distributeWaiting(tx: Tx, teamId: string): Promise<number> {
  const team = await lockTeam(tx.q, teamId);
  if (!team || team.distribution_method === 'manual') return 0;
  let assigned = 0;
  for (const chat of await Q.claimWaiting(tx.q, teamId, 200)) {
    const userId = await routeWaiting(tx, team, { ...chat, operator_id: null, team_id: teamId });
    if (!userId) break;
    assigned++;
    await emitChat(tx, chat.organisation_id, chat.id, 'chat.assigned', { teamIds: [teamId] });
  }
  return assigned;
}

/** Closes an open chat, writes history and stops its timers (the caller has checked the rules). */
export async function closeChatRow(
  tx: Tx,
  chat: Q.ChatRow,
  h: { kind: 'close' | 'auto_close'; actorId: string | null },
): Promise<Q.ChatRow> {
  await Q.markClosed(tx.q, chat.id, tx.now);
  await Q.insertHistory(tx.q, {
    orgId: chat.organisation_id,
    chatId: chat.id,
    kind: h.kind,
    actorId: h.actorId,
    fromUserId: chat.operator_id,
    now: tx.now,
  });
  await deleteTimers(tx.q, chat.id, [...CHAT_TIMERS]);
  const closed = await emitChat(tx, chat.organisation_id, chat.id, 'chat.closed', {
    teamIds: chat.status === 'waiting' ? [chat.team_id] : [],
  });
  // The operator has room again: the queue moves.
  await distributeWaiting(tx, chat.team_id);
  return closed;
}
