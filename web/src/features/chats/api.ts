import { useQuery } from '@tanstack/react-query';
import { get } from '../../shared/api/client.ts';

export const CHAT_FILTERS = ['assigned', 'waiting', 'closed'] as const;
export type ChatFilter = (typeof CHAT_FILTERS)[number];

/** The minimal shape the chat center reads; the chats issue owns the full DTO. */
export type ChatListItem = {
  id: string;
  status?: string;
  client?: { name?: string | null } | null;
  clientName?: string | null;
  lastMessage?: { text?: string | null; createdAt?: string } | null;
  updatedAt?: string;
};
type ChatList = { items: ChatListItem[]; total: number };

function normalise(entity: unknown): ChatList {
  if (Array.isArray(entity)) return { items: entity as ChatListItem[], total: entity.length };
  const e = entity as Partial<ChatList> | null;
  return { items: e?.items ?? [], total: e?.total ?? e?.items?.length ?? 0 };
}

export const chatsQuery = (filter: ChatFilter) => ({
  queryKey: ['chats', filter],
  queryFn: async () => normalise(await get<unknown>(`/api/chats?filter=${filter}`)),
  // The chats API may not exist yet: the chat center then shows its empty state, never an error.
  meta: { silent: true },
  retry: false,
  staleTime: 30_000,
});

/** Counters of the menu (in progress and waiting); undefined while the chats API is unavailable. */
export function useChatCounters(): Record<string, number> | undefined {
  const counters = useQuery({
    queryKey: ['chats', 'counters'],
    queryFn: () => get<{ inProgress: number; waiting: number }>('/api/chats/counters'),
    meta: { silent: true },
    retry: false,
    refetchInterval: (q) => (q.state.status === 'success' ? 30_000 : false),
  });
  if (!counters.data) return undefined;
  return { assigned: counters.data.inProgress ?? 0, waiting: counters.data.waiting ?? 0 };
}
