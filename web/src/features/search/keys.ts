import type { SearchFilters } from '../chats/list/list-api.ts';

/** Query keys of the search page: messages and clients by text and filters. */
export const searchKeys = {
  messages: (q: string, filters: SearchFilters) => ['search', 'messages', q, filters] as const,
  clients: (q: string, filters: SearchFilters) => ['search', 'clients', q, filters] as const,
};
