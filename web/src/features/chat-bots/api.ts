import type {
  BotGraph,
  ChatBotDto,
  ChatBotSummaryDto,
  Page,
  TeamDto,
  UserDto,
} from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { del, get, patch, post } from '../../shared/api/client.ts';
import { botKeys } from './keys.ts';

export function useChatBots(enabled = true) {
  return useQuery({
    queryKey: botKeys.all,
    queryFn: async () => (await get<Page<ChatBotSummaryDto>>('/api/chat-bots')).items,
    enabled,
  });
}

export function useChatBot(id: string) {
  return useQuery({
    queryKey: botKeys.one(id),
    queryFn: () => get<ChatBotDto>(`/api/chat-bots/${id}`),
    // The editor owns the draft once opened: no refetch would overwrite what is being drawn.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export type BotInput = { name: string; description: string; defaultMessage: string };
export const createBot = (body: BotInput) => post<ChatBotDto>('/api/chat-bots', body);
export const saveBot = (id: string, body: Partial<BotInput> & { draft?: BotGraph }) =>
  patch<ChatBotDto>(`/api/chat-bots/${id}`, body);
export const publishBot = (id: string) => post<ChatBotDto>(`/api/chat-bots/${id}/publish`, {});
export const deleteBot = (id: string) => del<unknown>(`/api/chat-bots/${id}`);

/** Final actions' choices; a caller without the teams or users rights simply gets no list (no redirect). */
export function useTeamChoices() {
  return useQuery({
    queryKey: botKeys.teams,
    queryFn: async () => {
      const e = await get<TeamDto[] | Page<TeamDto>>('/api/teams');
      return Array.isArray(e) ? e : e.items;
    },
    meta: { silent: true },
  });
}
export function useOperatorChoices() {
  return useQuery({
    queryKey: botKeys.users,
    queryFn: async () => (await get<Page<UserDto>>('/api/users?limit=500')).items,
    meta: { silent: true },
  });
}
