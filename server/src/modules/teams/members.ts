/**
 * Team memberships, written by their owner (teams) for the users module, which sets a user's teams when the user is
 * added or edited, and for support, which puts the platform's staff in its team; a file of its own so that users/
 * reaches it without importing teams' service (which imports users).
 */
export { addTeamMembers, setUserTeams } from './queries.ts';
