import type {
  CategoryDto,
  ChatCountersDto,
  ChatDto,
  ChatFilter,
  MessageDto,
  TransferTarget,
} from '@smartconnect/contracts';
import { CHAT_FILTERS } from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { get, post, put } from '../../shared/api/client.ts';
import { chatKeys } from './keys.ts';

export { CHAT_FILTERS, type ChatFilter };

export type ChatList = { items: ChatDto[]; total: number };

export const chatsQuery = (filter: ChatFilter) => ({
  queryKey: chatKeys.list(filter),
  queryFn: () => get<ChatList>(`/api/chats?filter=${filter}&limit=200`),
  staleTime: 30_000,
});

/** Counters of the menu (in progress and waiting), kept fresh by `counters.changed` events. */
export function useChatCounters(): Record<string, number> | undefined {
  const counters = useQuery({
    queryKey: chatKeys.counters,
    queryFn: () => get<ChatCountersDto>('/api/chats/counters'),
    meta: { silent: true },
    staleTime: 60_000,
  });
  if (!counters.data) return undefined;
  return { assigned: counters.data.inProgress ?? 0, waiting: counters.data.waiting ?? 0 };
}

/**
 * One chat. `listed` is its row of the list (a ChatDto and its unread count): the conversation's top bar draws from
 * it at once, and the chat is not asked for again while the row is fresh (realtime events replace the cached chat:
 * cache.ts). A chat opened by its link, not in the list, is fetched.
 */
export function chatQuery(id: string, listed?: { chat: ChatDto; at: number }) {
  return {
    queryKey: chatKeys.chat(id),
    queryFn: () => get<ChatDto>(`/api/chats/${id}`),
    initialData: listed?.chat,
    initialDataUpdatedAt: listed?.at,
    staleTime: 15_000,
    meta: { silent: true },
    retry: false,
  };
}

export function useChat(id: string) {
  // A chat transferred away or closed by someone else may vanish: the screen says so itself.
  return useQuery(chatQuery(id));
}

export const sendMessage = (chatId: string, text: string, internal: boolean) =>
  post<MessageDto>(`/api/chats/${chatId}/messages`, { text, internal });
export const takeChat = (id: string) => post<ChatDto>(`/api/chats/${id}/take`);
export const transferChat = (id: string, target: TransferTarget) =>
  post<ChatDto>(`/api/chats/${id}/transfer`, target);
/** Closes a chat; with a category it is set in the same step (the server checks OPTION_CATEGORY's rule). */
export const closeChat = (id: string, categoryId?: string) =>
  post<ChatDto>(`/api/chats/${id}/close`, categoryId ? { categoryId } : {});
export const createCategory = (name: string) => post<CategoryDto>('/api/categories', { name });
export const setCategory = (id: string, categoryId: string | null) =>
  put<ChatDto>(`/api/chats/${id}/category`, { categoryId });
