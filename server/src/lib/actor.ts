/**
 * Who performs a command. People act through their session; automation (a chat bot, a routing rule, the system's
 * own timers and pipeline stages) acts under its own name, never with a faked session. History and audit record
 * the actor; rights are checked for users only (automation was allowed when it was configured).
 */
export type Actor =
  | { kind: 'user'; userId: string; organisationId: string }
  | { kind: 'bot'; botId: string; organisationId: string }
  | { kind: 'rule'; ruleId: string; organisationId: string }
  | { kind: 'system'; organisationId: string };

/** The user behind an actor, or null for automation (history rows keep actor_id null for it). */
export const actorUserId = (actor: Actor): string | null => (actor.kind === 'user' ? actor.userId : null);
