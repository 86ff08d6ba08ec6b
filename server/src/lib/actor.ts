import type { Right } from '@smartconnect/contracts';

/**
 * Who performs a command. People act through their session; automation (a chat bot, a routing rule, the system's
 * own timers and pipeline stages) acts under its own name, never with a faked session. History and audit record
 * the actor; rights are checked for users only (automation was allowed when it was configured).
 *
 * A user carries the rights of their session (what they may see and do); automation sees the whole organisation.
 */
export type Actor =
  | { kind: 'user'; userId: string; organisationId: string; rights: ReadonlySet<Right> }
  | { kind: 'bot'; botId: string; organisationId: string }
  | { kind: 'rule'; ruleId: string; organisationId: string }
  | { kind: 'system'; organisationId: string };

export type UserActor = Extract<Actor, { kind: 'user' }>;

/** A person acting through their session (the route layer builds it from the request's AuthContext). */
export const userActor = (auth: {
  userId: string;
  organisationId: string;
  rights: ReadonlySet<Right>;
}): UserActor => ({
  kind: 'user',
  userId: auth.userId,
  organisationId: auth.organisationId,
  rights: auth.rights,
});

/** The user behind an actor, or null for automation (history rows keep actor_id null for it). */
export const actorUserId = (actor: Actor): string | null => (actor.kind === 'user' ? actor.userId : null);
