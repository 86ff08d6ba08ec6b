import type { Page, TeamDto } from '@smartconnect/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { del, get, patch, post, qs } from '../../shared/api/client.ts';
import { teamKeys } from './keys.ts';

export type TeamInput = Omit<TeamDto, 'id' | 'memberCount' | 'members' | 'createdAt'> & {
  memberIds: string[];
};

const normalise = (e: TeamDto[] | Page<TeamDto>): TeamDto[] => (Array.isArray(e) ? e : e.items);

export function useTeams(search = '') {
  return useQuery({
    queryKey: teamKeys.list(search),
    queryFn: async () => normalise(await get<TeamDto[] | Page<TeamDto>>(`/api/teams${qs({ search })}`)),
    placeholderData: keepPreviousData,
  });
}

export const createTeam = (body: TeamInput) => post<TeamDto>('/api/teams', body);
export const updateTeam = (id: string, body: Partial<TeamInput>) => patch<TeamDto>(`/api/teams/${id}`, body);
export const deleteTeam = (id: string) => del<unknown>(`/api/teams/${id}`);
