import type { ChatDto, ChatFilter } from '@smartconnect/contracts';

/** The list filters of the chat center (URL parameters of /admin/chats). */
export type ListFilters = { channelId?: string; teamId?: string; operatorId?: string; q?: string };
export type ListKind = ChatFilter | 'expired';

/** Query keys of the chat center: lists per filter, counters, one chat and what hangs off it. */
export const chatKeys = {
  all: ['chats'] as const,
  list: (filter: ChatFilter) => ['chats', filter] as const,
  counters: ['chats', 'counters'] as const,
  /** The prefix of every cursor-paged list. */
  pagesAll: ['chats', 'list'] as const,
  pages: (kind: ListKind, f: ListFilters) => ['chats', 'list', kind, f] as const,
  filterOptions: ['chats', 'filter-options'] as const,
  /** The prefix of every single chat and what hangs off it. */
  chatAll: ['chat'] as const,
  chat: (id: string) => ['chat', id] as const,
  messages: (id: string) => ['chat', id, 'messages'] as const,
  history: (id: string, version: string | undefined) => ['chat', id, 'history', version] as const,
  providerTemplates: (id: string) => ['chat', id, 'provider-templates'] as const,
  rating: (chat: ChatDto) => ['chat', chat.id, 'rating', chat.updatedAt] as const,
};
