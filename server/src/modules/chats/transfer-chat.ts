import type { TransferTarget } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { deleteTimers } from '../../jobs/queries.ts';
import { type Actor, actorUserId } from '../../lib/actor.ts';
import { withEvents } from '../../realtime/emit.ts';
import { findTeam, isAvailable } from '../routing/service.ts';
import {
  assign,
  distributeLocked,
  distributeWaiting,
  emitChat,
  handedOver,
  lockRoutingTeams,
  routeWaiting,
  type Tx,
  teamsOfOperator,
} from './lifecycle.ts';
import { assertCanAct, assertVisible, queueTeams, viewOf } from './policy.ts';
import * as Q from './queries.ts';

/**
 * Transfers an open chat to an operator, a team, the client's last operator or their personal manager.
 * A user target must be another online operator of the organisation; a team target puts the chat in that
 * team's queue and routes it there (never back to the operator it left). Anything else is
 * cannotTransferException, and nothing changes. The operator the chat left has room again: the queues of their
 * teams move, and so does the rest of the target team's queue.
 *
 * A user transfers their own chat (or any, with AUTHORITY_ALL_CHATS); automation (bot, rule, system) any chat of its
 * organisation, with history actor_id null. Assigning a chat to an operator by automation is a transfer with
 * {operatorId} (take is a user's own act).
 */
export async function transferChat(app: AppContext, actor: Actor, chatId: string, target: TransferTarget) {
  return withEvents(app, (q, emit) =>
    transferChatTx({ q, emit, now: app.clock.now() }, actor, chatId, target),
  );
}

/**
 * transferChat inside a transaction the caller holds (a pipeline stage's). cannotTransferException is thrown before
 * anything is written, so a caller may catch it and go on in the same transaction (a routing rule falls through).
 */
export async function transferChatTx(tx: Tx, actor: Actor, chatId: string, target: TransferTarget) {
  const orgId = actor.organisationId;
  const actorId = actorUserId(actor);
  const { q } = tx;
  const view = await viewOf(q, actor);
  const chat = await Q.lockChat(q, orgId, chatId);
  assertVisible(view, chat);
  assertCanAct(view, chat);
  if (chat.status === 'closed') throw new AppError('cannotTransferException');
  const before = {
    userIds: [chat.operator_id],
    teamIds: chat.status === 'waiting' ? queueTeams(chat) : [],
  };

  if ('teamId' in target) {
    if (!(await Q.teamInOrg(q, orgId, target.teamId))) throw new AppError('cannotTransferException');
    if (target.teamId === chat.team_id && chat.status === 'waiting')
      throw new AppError('cannotTransferException');
    await Q.moveToQueue(q, chat.id, target.teamId, tx.now);
    await handedOver(tx, orgId, chat.id);
    await deleteTimers(q, chat.id, ['redistribute']);
    await Q.insertHistory(q, {
      orgId,
      chatId: chat.id,
      kind: 'transfer',
      actorId,
      fromUserId: chat.operator_id,
      fromTeamId: chat.team_id,
      toTeamId: target.teamId,
      now: tx.now,
    });
    const teams = await lockRoutingTeams(tx, [
      target.teamId,
      ...(await teamsOfOperator(tx, chat.operator_id)),
    ]);
    const team = teams.get(target.teamId);
    if (team) {
      const row = { ...chat, operator_id: null, team_id: team.id };
      await routeWaiting(tx, team, row, { excludeUserIds: chat.operator_id ? [chat.operator_id] : [] });
    }
    const moved = await emitChat(tx, orgId, chat.id, 'chat.transferred', before, {
      fromTeamId: chat.team_id,
    });
    await distributeLocked(tx, teams.values(), { skipChatIds: [chat.id] });
    return moved;
  }

  const userId = await targetUser(tx, chat, target);
  if (!userId || userId === chat.operator_id || !(await isAvailable(q, orgId, userId)))
    throw new AppError('cannotTransferException');
  const team = await findTeam(q, chat.team_id);
  const ok = await assign(tx, chat, userId, {
    kind: 'transfer',
    actorId,
    from: ['waiting', 'in_progress'],
    team,
  });
  if (!ok) throw new AppError('cannotTransferException');
  const moved = await emitChat(tx, orgId, chat.id, 'chat.transferred', before);
  if (chat.status === 'in_progress') await distributeWaiting(tx, await teamsOfOperator(tx, chat.operator_id));
  return moved;
}

async function targetUser(tx: Tx, chat: Q.ChatRow, target: TransferTarget): Promise<string | null> {
  if ('operatorId' in target)
    return (await Q.userInOrg(tx.q, chat.organisation_id, target.operatorId)) ? target.operatorId : null;
  if ('target' in target && target.target === 'personal_manager') return chat.personal_manager_id;
  return Q.lastOperatorOfClient(tx.q, chat.client_id, chat.operator_id);
}
