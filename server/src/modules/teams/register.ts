import { plug } from '../../plug-points.ts';
import { USER_TEAMS } from '../../realtime/user-teams.ts';
import { userTeamIds } from './readers.ts';

/** The teams module gives realtime its reader of a user's teams (a socket follows its teams' queues). */
export function registerTeams(): void {
  plug(USER_TEAMS, userTeamIds);
}
