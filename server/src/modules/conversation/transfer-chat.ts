import type { TransferTarget } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { kickOutbox } from '../../jobs/outbox.ts';
import { deleteTimers } from '../../jobs/queries.ts';
import { type Actor, actorUserId } from '../../lib/actor.ts';
import { onePlugPoint, pluggedOf } from '../../plug-points.ts';
import { withEvents } from '../../realtime/emit.ts';
import { teamInOrg } from '../teams/readers.ts';
import { userInOrg } from '../users/readers.ts';
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
  tellTakenAway,
} from './lifecycle.ts';
import { assertCanAct, assertVisible, queueTeams, viewOf } from './policy.ts';
import * as Q from './queries.ts';
import { findTeam, isAvailable } from './routing-service.ts';

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
  const moved = await withEvents(app, (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    return 'botId' in target
      ? transferToBotTx(app, tx, actor, chatId, target.botId)
      : transferChatTx(tx, actor, chatId, target);
  });
  // The bot's first reply goes out now, not at the dispatcher's next poll.
  if ('botId' in target) kickOutbox(app);
  return moved;
}

/**
 * Hands a locked chat to a chat bot (the bot runtime registers it, so chats/ does not depend on the runtime): checks
 * the plan option and the bot, calls `handOver` with the bot's name (the chat leaves its operator, the history records
 * the transfer), then starts the bot's dialog and lets it answer.
 */
export type BotTransfer = (
  app: AppContext,
  tx: Tx,
  chat: Q.ChatRow,
  botId: string,
  handOver: (botName: string) => Promise<void>,
) => Promise<void>;
export const BOT_TRANSFER = onePlugPoint<BotTransfer | null>('chats.botTransfer', null);

/**
 * §4 transfer to a chat bot: the same rights as any transfer (the caller's own chat, or any with
 * AUTHORITY_ALL_CHATS); the chat leaves its operator and waits in its team's queue, which skips it while the bot
 * talks; the bot starts at its root node on its current published version. The operator's teams' queues move.
 */
async function transferToBotTx(app: AppContext, tx: Tx, actor: Actor, chatId: string, botId: string) {
  const orgId = actor.organisationId;
  const view = await viewOf(tx.q, actor);
  const chat = await Q.lockChat(tx.q, orgId, chatId);
  assertVisible(view, chat);
  assertCanAct(view, chat);
  const botTransfer = pluggedOf(BOT_TRANSFER);
  if (chat.status === 'closed' || !botTransfer) throw new AppError('cannotTransferException');
  const before = {
    userIds: [chat.operator_id],
    teamIds: chat.status === 'waiting' ? queueTeams(chat) : [],
  };
  await botTransfer(app, tx, chat, botId, async (botName) => {
    await deleteTimers(tx.q, chat.id, ['redistribute']);
    await Q.moveToQueue(tx.q, chat.id, chat.team_id, tx.now);
    await Q.insertHistory(tx.q, {
      orgId,
      chatId: chat.id,
      kind: 'transfer',
      actorId: actorUserId(actor),
      fromUserId: chat.operator_id,
      fromTeamId: chat.team_id,
      toBotId: botId,
      botName,
      now: tx.now,
    });
  });
  const moved = await emitChat(tx, orgId, chat.id, 'chat.transferred', before, { fromTeamId: chat.team_id });
  await tellTakenAway(tx, chat, actorUserId(actor), 'transfer');
  if (chat.status === 'in_progress') await distributeWaiting(tx, await teamsOfOperator(tx, chat.operator_id));
  return moved;
}

/**
 * transferChat inside a transaction the caller holds (a pipeline stage's). cannotTransferException is thrown before
 * anything is written, so a caller may catch it and go on in the same transaction (a routing rule falls through).
 */
export async function transferChatTx(tx: Tx, actor: Actor, chatId: string, target: TransferTarget) {
  const orgId = actor.organisationId;
  const actorId = actorUserId(actor);
  const { q } = tx;
  // A bot's final action or a rule never hands a chat to a bot this way (a rule starts the bot itself).
  if ('botId' in target) throw new AppError('cannotTransferException');
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
    if (!(await teamInOrg(q, orgId, target.teamId))) throw new AppError('cannotTransferException');
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
    await tellTakenAway(tx, chat, actorId, 'transfer');
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
  await tellTakenAway(tx, chat, actorId, 'transfer');
  if (chat.status === 'in_progress') await distributeWaiting(tx, await teamsOfOperator(tx, chat.operator_id));
  return moved;
}

async function targetUser(tx: Tx, chat: Q.ChatRow, target: TransferTarget): Promise<string | null> {
  if ('operatorId' in target)
    return (await userInOrg(tx.q, chat.organisation_id, target.operatorId)) ? target.operatorId : null;
  if ('target' in target && target.target === 'personal_manager') return chat.personal_manager_id;
  return Q.lastOperatorOfClient(tx.q, chat.client_id, chat.operator_id);
}
