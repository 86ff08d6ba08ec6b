import type { Audience } from '@smartconnect/contracts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { userTeamIds } from '../teams/readers.ts';
import type { ChatRow, Viewer } from './queries.ts';

/**
 * What decides who sees a chat: its state, operator and team, and its channel's visible teams (teams that see the
 * channel's Waiting chats besides the chat's own team, channels.visible_team_ids).
 */
export type ChatScope = Pick<ChatRow, 'status' | 'operator_id' | 'team_id' | 'visible_team_ids'>;

/** The teams that see the chat while it waits: its own and its channel's visible teams. */
export const queueTeams = (c: Pick<ChatScope, 'team_id' | 'visible_team_ids'>): string[] => [
  ...new Set([c.team_id, ...c.visible_team_ids]),
];

export async function viewerOf(
  q: Queryable,
  auth: { userId: string; rights: ReadonlySet<string> },
): Promise<Viewer> {
  const all = auth.rights.has('AUTHORITY_ALL_CHATS');
  return { userId: auth.userId, all, teamIds: all ? [] : await userTeamIds(q, auth.userId) };
}

/**
 * How a command's actor sees chats: a user through their rights and teams (viewerOf); automation (bot, rule,
 * system) sees and acts on every chat of its organisation, since it was allowed when it was configured. Chats are
 * always looked up within the actor's organisation, so another organisation's chat stays chatNotFoundException.
 */
export type ActorView = Viewer | 'organisation';

export async function viewOf(q: Queryable, actor: Actor): Promise<ActorView> {
  return actor.kind === 'user' ? viewerOf(q, actor) : 'organisation';
}

/**
 * An operator sees their own chats, and a Waiting chat of their teams or of a channel visible to one of their teams;
 * AUTHORITY_ALL_CHATS sees every chat.
 */
export const canSee = (v: Viewer, c: ChatScope): boolean =>
  v.all ||
  c.operator_id === v.userId ||
  (c.status === 'waiting' && queueTeams(c).some((t) => v.teamIds.includes(t)));

/** Writing, closing, transferring and categorising: the chat's operator, or a holder of AUTHORITY_ALL_CHATS. */
export const canAct = (v: Viewer, c: ChatScope): boolean => v.all || c.operator_id === v.userId;

/** A chat the viewer may not see does not exist for them (404, never a hint that it exists). */
export function assertVisible<T extends ChatScope = ChatRow>(
  v: ActorView,
  chat: T | undefined,
): asserts chat is T {
  if (!chat || (v !== 'organisation' && !canSee(v, chat))) throw new AppError('chatNotFoundException');
}

export function assertCanAct(v: ActorView, chat: ChatScope): void {
  if (v !== 'organisation' && !canAct(v, chat)) throw new AppError('accessDeniedException');
}

/**
 * Who receives an event about this chat: its operator, its team and its channel's visible teams while it waits,
 * and AUTHORITY_ALL_CHATS; `also` adds the previous operator or teams of a transition so their lists drop the chat
 * (a chat that leaves the Waiting queue: queueTeams of the chat as it was).
 */
export function chatAudience(
  c: ChatScope,
  also: { userIds?: (string | null)[]; teamIds?: (string | null)[] } = {},
): Audience {
  const userIds = [...new Set([c.operator_id, ...(also.userIds ?? [])].filter((x): x is string => !!x))];
  const teamIds = [
    ...new Set(
      [...(c.status === 'waiting' ? queueTeams(c) : []), ...(also.teamIds ?? [])].filter(
        (x): x is string => !!x,
      ),
    ),
  ];
  const audience: Audience = { rights: ['AUTHORITY_ALL_CHATS'] };
  if (userIds.length) audience.userIds = userIds;
  if (teamIds.length) audience.teamIds = teamIds;
  return audience;
}
