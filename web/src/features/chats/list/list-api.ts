import type {
  ChatDto,
  ChatListItemDto,
  ChatListPage,
  ClientDto,
  ClientFileDto,
  ClientLookupDto,
  MessageDto,
  MessageHitDto,
  Page,
} from '@smartconnect/contracts';
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { get, patch, post, qs } from '../../../shared/api/client.ts';
import { clientKeys } from '../../client-profiles/keys.ts';
import { chatKeys, type ListFilters, type ListKind } from '../keys.ts';

export type { ListFilters, ListKind };

const PAGE = 50;

/** A chat list by cursor pages (newest activity first); lists refetch on chat events (cache.ts). */
export function useChatPages(kind: ListKind, f: ListFilters) {
  return useInfiniteQuery({
    queryKey: chatKeys.pages(kind, f),
    queryFn: ({ pageParam }) =>
      get<ChatListPage>(
        `${kind === 'expired' ? '/api/chats/expired' : '/api/chats'}${qs({
          filter: kind === 'expired' ? undefined : kind,
          limit: PAGE,
          cursor: pageParam || undefined,
          ...f,
        })}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 30_000,
  });
}

/** Every chat of the loaded pages, without the duplicates a page boundary can give after a live move. */
export function flatten(data: InfiniteData<ChatListPage> | undefined): ChatListItemDto[] {
  const seen = new Set<string>();
  const out: ChatListItemDto[] = [];
  for (const p of data?.pages ?? [])
    for (const c of p.items)
      if (!seen.has(c.id)) {
        seen.add(c.id);
        out.push(c);
      }
  return out;
}

/** Sets a chat's unread count in every loaded list page (0 once opened). */
export function setUnread(client: QueryClient, chatId: string, unread: number) {
  client.setQueriesData<InfiniteData<ChatListPage>>({ queryKey: chatKeys.pagesAll }, (data) =>
    data?.pages
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            items: p.items.map((c) => (c.id === chatId ? { ...c, unread } : c)),
          })),
        }
      : data,
  );
}

export const markRead = (chatId: string) => post<{ unread: number }>(`/api/chats/${chatId}/read`);

type Ref = { id: string; name: string };
export type FilterOptions = { channels: (Ref & { type: string })[]; teams: Ref[]; operators: Ref[] };
export const useFilterOptions = () =>
  useQuery({
    queryKey: chatKeys.filterOptions,
    queryFn: () => get<FilterOptions>('/api/chats/filter-options'),
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });

// ---- client side panel ----
export const useClient = (id: string) =>
  useQuery({
    queryKey: clientKeys.one(id),
    queryFn: () => get<ClientDto>(`/api/clients/${id}`),
    retry: false,
  });
export const useClientChats = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: clientKeys.chats(id),
    queryFn: () => get<Page<ChatDto>>(`/api/clients/${id}/chats`),
    enabled,
    retry: false,
  });
export const useClientFiles = (id: string) =>
  useQuery({
    queryKey: clientKeys.files(id),
    queryFn: () => get<Page<ClientFileDto>>(`/api/clients/${id}/files`),
    retry: false,
  });
export const useClientChatMessages = (clientId: string, chatId: string | null) =>
  useQuery({
    queryKey: clientKeys.chat(clientId, chatId),
    queryFn: () =>
      get<{ chat: ChatDto; items: MessageDto[]; total: number }>(
        `/api/clients/${clientId}/chats/${chatId}/messages`,
      ),
    enabled: !!chatId,
    retry: false,
  });
export const renameClient = (id: string, name: string) => patch<ClientDto>(`/api/clients/${id}`, { name });

// ---- create chat, search ----
export const lookupClients = (q: string) => get<Page<ClientLookupDto>>(`/api/clients${qs({ q })}`);
export const createChat = (body: { clientId: string; channelId: string; text: string }) =>
  post<ChatDto>('/api/chats', body);
export type SearchFilters = ListFilters & { status?: string; from?: string; to?: string };
export const searchMessages = (q: string, f: SearchFilters, cursor?: string) =>
  get<{ items: MessageHitDto[]; nextCursor: string | null }>(
    `/api/search/messages${qs({ q, ...f, cursor })}`,
  );
export const searchClients = (q: string, f: SearchFilters) =>
  get<{
    items: {
      id: string;
      name: string;
      contacts: { channelName: string; externalId: string }[];
      lastChat: { id: string; status: string } | null;
    }[];
  }>(`/api/search/clients${qs({ q, ...f })}`);
