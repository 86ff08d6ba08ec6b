import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import type { UserActor } from '../../lib/actor.ts';
import { withEvents } from '../../realtime/emit.ts';
import { assertNotSuspended } from '../billing/suspension.ts';
import { enterWork } from '../presence/service.ts';
import { assign, distributeWaiting, emitChat, teamsOfOperator, tellTakenAway } from './lifecycle.ts';
import { assertVisible, queueTeams, viewerOf } from './policy.ts';
import * as Q from './queries.ts';
import { distributeTeamQueues } from './routing-distribute.ts';
import { findTeam } from './routing-service.ts';

/**
 * Takes a Waiting chat the caller sees: of one of their teams, or of a channel visible to one of their teams (it
 * stays in its own team; any, with AUTHORITY_ALL_CHATS); only a user who receives
 * dialogs (AUTHORITY_CHAT_DISTRIBUTION) or manages chats may, and taking puts a licensed user 'In work'. Of two
 * simultaneous takers exactly one wins: the assignment is a conditional UPDATE on status 'waiting'; the other
 * gets 409.
 *
 * Users only (a UserActor): taking is a person picking work for themselves. Automation that hands a chat to an
 * operator transfers it with {operatorId} (transferChat), which needs no session of that operator.
 */
export async function takeChat(app: AppContext, user: UserActor, chatId: string) {
  if (!user.rights.has('AUTHORITY_CHAT_DISTRIBUTION') && !user.rights.has('AUTHORITY_ALL_CHATS'))
    throw new AppError('accessDeniedException');
  let switched: string[] | null = null;
  const taken = await withEvents(app, async (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    const viewer = await viewerOf(q, user);
    // Checked before the user goes In work (nothing taken, nothing switched), and again after.
    const takeable = async () => {
      const chat = await Q.findChat(q, user.organisationId, chatId);
      // A chat the caller saw waiting (their team's, or a visible channel's) and someone took or closed meanwhile.
      if (
        chat &&
        chat.status !== 'waiting' &&
        !viewer.all &&
        queueTeams(chat).some((t) => viewer.teamIds.includes(t))
      )
        throw new AppError(chat.status === 'closed' ? 'chatClosedException' : 'chatAlreadyTakenException');
      assertVisible(viewer, chat);
      if (chat.status === 'closed') throw new AppError('chatClosedException');
      if (chat.status !== 'waiting') throw new AppError('chatAlreadyTakenException');
      return chat;
    };
    await takeable();
    await assertNotSuspended(q, user.organisationId);
    switched = await enterWork(tx, user);
    const chat = await takeable();
    const team = await findTeam(q, chat.team_id);
    const won = await assign(tx, chat, user.userId, {
      kind: 'assign',
      actorId: user.userId,
      from: ['waiting'],
      team,
    });
    if (!won) throw new AppError('chatAlreadyTakenException');
    // Every team that saw it waiting drops it (counters.changed names them all).
    return emitChat(tx, user.organisationId, chat.id, 'chat.assigned', { teamIds: queueTeams(chat) });
  });
  if (switched) await distributeTeamQueues(app, switched);
  return taken;
}

/**
 * Takes over a chat another operator is handling: a holder of AUTHORITY_ALL_CHATS (a supervisor or administrator)
 * becomes its operator, the history records a 'takeover' with the operator it came from, and that operator's list
 * drops it (chat.transferred tells them) while their teams' queues may give them another chat. Taking over puts a
 * licensed user 'In work' like a take. A Waiting chat is taken as usual; a closed one is chatClosedException; one
 * already the caller's is chatAlreadyTakenException.
 */
export async function takeOverChat(app: AppContext, user: UserActor, chatId: string) {
  if (!user.rights.has('AUTHORITY_ALL_CHATS')) throw new AppError('accessDeniedException');
  const orgId = user.organisationId;
  const seen = await Q.findChat(app.db, orgId, chatId);
  if (seen?.status === 'waiting') return takeChat(app, user, chatId);
  let switched: string[] | null = null;
  const taken = await withEvents(app, async (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    const viewer = await viewerOf(q, user);
    const check = (chat: Q.ChatRow | undefined): Q.ChatRow => {
      assertVisible(viewer, chat);
      if (chat.status === 'closed') throw new AppError('chatClosedException');
      if (chat.status !== 'in_progress' || chat.operator_id === user.userId)
        throw new AppError('chatAlreadyTakenException');
      return chat;
    };
    check(await Q.findChat(q, orgId, chatId));
    await assertNotSuspended(q, orgId);
    // The user and organisation before the chat (the lock order of sendMessage).
    switched = await enterWork(tx, user);
    const chat = check(await Q.lockChat(q, orgId, chatId));
    const won = await assign(tx, chat, user.userId, {
      kind: 'takeover',
      actorId: user.userId,
      from: ['in_progress'],
      team: await findTeam(q, chat.team_id),
    });
    if (!won) throw new AppError('chatAlreadyTakenException');
    const moved = await emitChat(tx, orgId, chat.id, 'chat.transferred', { userIds: [chat.operator_id] });
    await tellTakenAway(tx, chat, user.userId, 'takeover');
    // The operator it came from has room again.
    await distributeWaiting(tx, await teamsOfOperator(tx, chat.operator_id), { skipChatIds: [chat.id] });
    return moved;
  });
  if (switched) await distributeTeamQueues(app, switched);
  return taken;
}
