/**
 * The account fields other modules change on a user, written by their owner (users): auth sets the password, the
 * two-factor secrets and the last activity, presence the state. A file of its own, so those modules reach it
 * without importing users' service (which imports presence) or its queries file.
 */
export { markActive, setPassword, setPresenceRow, setTotp } from './queries.ts';
