import { useChannels } from '../channels/api.ts';
import { useTeams } from '../teams/api.ts';

/** Names for the team and channel ids a rule holds (the lists the caller may read). */
export function useRuleNames() {
  const teams = useTeams();
  const channels = useChannels();
  return {
    team: (id: string | null) => teams.data?.find((x) => x.id === id)?.name,
    channel: (id: string) => channels.data?.find((c) => c.id === id)?.name,
  };
}
