/**
 * Sessions, written by their owner (auth) for the users module, which ends a user's sessions on deactivation or a
 * new password, and for the request chain (http/auth.ts), which marks a session used; a file of its own so that
 * users/ reaches it without importing auth's service (which imports users).
 */
export { revokeUserSessions, touchSession } from './queries.ts';
