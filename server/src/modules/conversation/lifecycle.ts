import type {
  Audience,
  ChatHistoryKind,
  ChatTakenAwayPayload,
  CountersChangedPayload,
  RealtimeEventType,
} from '@smartconnect/contracts';
import { deleteTimers, upsertTimer } from '../../jobs/queries.ts';
import { manyPlugPoint, plugsOf } from '../../plug-points.ts';
import type { Tx } from '../../realtime/emit.ts';
import { userTeamIds } from '../teams/readers.ts';
import { userName } from '../users/readers.ts';
import { DUE } from './due-times.ts';
import { chatAudience, queueTeams } from './policy.ts';
import { presentChat } from './presenter.ts';
import * as Q from './queries.ts';
import { lockTeams, pickOperator, type RoutingTeam } from './routing-service.ts';

/** Everything a state change inside one transaction needs (defined in realtime/, re-exported for the modules). */
export type { Tx } from '../../realtime/emit.ts';

const CHAT_TIMERS = [
  'auto_close',
  'inactivity_close',
  'redistribute',
  'overdue_half',
  'overdue_expired',
] as const;

/**
 * Re-reads the chat and emits `type` to its audience and to `also` (who must drop it). Every change of the
 * In progress / Waiting counts also emits counters.changed: by default every type but chat.updated, and
 * chat.updated too with `counters` (a chat sent back to the queue). `fromTeamId`: the team it left.
 */
export async function emitChat(
  tx: Tx,
  orgId: string,
  chatId: string,
  type: RealtimeEventType,
  also: Parameters<typeof chatAudience>[1] = {},
  opts: { counters?: boolean; fromTeamId?: string } = {},
): Promise<Q.ChatRow> {
  const chat = await Q.findChat(tx.q, orgId, chatId);
  if (!chat) throw new Error(`chat ${chatId} vanished`);
  for (const e of chatEvents(chat, type, also, opts)) await tx.emit(orgId, e.type, e.payload, e.audience);
  return chat;
}

/** The events of emitChat for a chat already read: `type` with the chat, and counters.changed when counts move. */
export function chatEvents(
  chat: Q.ChatRow,
  type: RealtimeEventType,
  also: Parameters<typeof chatAudience>[1] = {},
  opts: { counters?: boolean; fromTeamId?: string } = {},
): { type: RealtimeEventType; payload: unknown; audience: Audience }[] {
  const audience = chatAudience(chat, also);
  const events: { type: RealtimeEventType; payload: unknown; audience: Audience }[] = [
    { type, payload: presentChat(chat), audience },
  ];
  if (opts.counters ?? type !== 'chat.updated') {
    const payload: CountersChangedPayload = {
      chatId: chat.id,
      teamId: chat.team_id,
      // The channel's visible teams count its Waiting chats too.
      teamIds: [...new Set([chat.team_id, opts.fromTeamId ?? chat.team_id, ...chat.visible_team_ids])],
    };
    events.push({ type: 'counters.changed', payload, audience });
  }
  return events;
}

/** Starts the redistribution clock of a freshly assigned chat when its team has one. */
async function armRedistribution(
  tx: Tx,
  orgId: string,
  chat: { id: string; operator_id: string | null },
  team: RoutingTeam | undefined,
) {
  if (team?.auto_redistribution_minutes) {
    const due = DUE.redistribute.at(tx.now, team.auto_redistribution_minutes);
    await upsertTimer(tx.q, orgId, 'redistribute', chat.id, due);
  } else if (chat.operator_id) await deleteTimers(tx.q, chat.id, ['redistribute']);
  // (an unassigned chat has no redistribution timer to clear)
}

/**
 * Assigns the chat to `userId` if it is still in one of the `from` states (false otherwise: someone else won),
 * writes history and arms redistribution. Events are the caller's, once the whole change is done.
 */
/**
 * A step another module takes when a person (or a transfer) takes a chat over, inside that transaction: the bot
 * runtime ends the chat's bot dialog. Called when a chat is assigned, moved to another team's queue, or answered
 * by a user.
 */
export type HandOverStep = (tx: Tx, orgId: string, chatId: string) => Promise<void>;
export const HAND_OVER_STEPS = manyPlugPoint<HandOverStep>('chats.handOverStep');
export async function handedOver(tx: Tx, orgId: string, chatId: string): Promise<void> {
  for (const step of plugsOf(HAND_OVER_STEPS)) await step(tx, orgId, chatId);
}

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
  await handedOver(tx, chat.organisation_id, chat.id);
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

/**
 * Locks these teams for routing, in id order, as the first team locks of the transaction: every transaction
 * that locks several teams takes them this way round, so none waits for another in a cycle. Answers the teams
 * by id (a missing one is left out).
 */
export async function lockRoutingTeams(tx: Tx, teamIds: (string | null | undefined)[]) {
  const ids = [...new Set(teamIds.filter((id): id is string => !!id))];
  const teams = ids.length ? await lockTeams(tx.q, ids) : [];
  return new Map(teams.map((t) => [t.id, t]));
}

/** The teams whose queues may move when this operator gains room: their own. */
export const teamsOfOperator = async (tx: Tx, userId: string | null): Promise<string[]> =>
  userId ? userTeamIds(tx.q, userId) : [];

/**
 * Hands the Waiting chats of locked teams (lockRoutingTeams) to eligible operators, oldest first per team, until
 * none is left or nobody has room; `skipChatIds` stay where they are (a chat just taken from its operator is not
 * handed straight back). Manual teams keep their queue.
 */
export async function distributeLocked(
  tx: Tx,
  teams: Iterable<RoutingTeam>,
  opts: { skipChatIds?: string[] } = {},
): Promise<number> {
  const skip = new Set(opts.skipChatIds ?? []);
  let assigned = 0;
  for (const team of teams) {
    if (team.distribution_method === 'manual') continue;
    for (const chat of await Q.claimWaiting(tx.q, team.id, 200)) {
      if (skip.has(chat.id)) continue;
      const userId = await routeWaiting(tx, team, { ...chat, operator_id: null, team_id: team.id });
      if (!userId) break;
      assigned++;
      await emitChat(tx, chat.organisation_id, chat.id, 'chat.assigned', {
        teamIds: queueTeams({ team_id: team.id, visible_team_ids: chat.visible_team_ids }),
      });
    }
  }
  return assigned;
}

/**
 * Hands out the Waiting queues of these teams: wherever operators may have gained room or a chat went back to
 * a queue. Call with no team locked yet in the transaction (see lockRoutingTeams).
 */
export async function distributeWaiting(
  tx: Tx,
  teamIds: (string | null | undefined)[],
  opts: { skipChatIds?: string[] } = {},
): Promise<number> {
  return distributeLocked(tx, (await lockRoutingTeams(tx, teamIds)).values(), opts);
}

/** Closes an open chat, writes history and stops its timers (the caller has checked the rules). */
export async function closeChatRow(
  tx: Tx,
  chat: Q.ChatRow,
  h: { kind: 'close' | 'auto_close' | 'inactivity_close'; actorId: string | null },
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
    teamIds: chat.status === 'waiting' ? queueTeams(chat) : [],
  });
  // Its operator has room again: the queues of all their teams move (and the chat's own team's).
  await distributeWaiting(tx, [chat.team_id, ...(await teamsOfOperator(tx, chat.operator_id))]);
  return closed;
}

/**
 * Tells the operator a person took a chat from (a take-over, a transfer by someone else) with `chat.takenAway`:
 * their screen shows a notice and a line in the chat. Nothing when nobody had it, or they moved it themselves.
 */
export async function tellTakenAway(
  tx: Tx,
  chat: Q.ChatRow,
  actorId: string | null,
  kind: ChatTakenAwayPayload['kind'],
): Promise<void> {
  const from = chat.operator_id;
  if (!from || !actorId || actorId === from || chat.status !== 'in_progress') return;
  const payload: ChatTakenAwayPayload = {
    chatId: chat.id,
    kind,
    by: { id: actorId, name: await userName(tx.q, chat.organisation_id, actorId) },
    client: presentChat(chat).client.name,
  };
  await tx.emit(chat.organisation_id, 'chat.takenAway', payload, { userIds: [from] });
}
