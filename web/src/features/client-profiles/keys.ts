/** The filters of the client list. */
export type ClientFilters = {
  search?: string;
  statusId?: string;
  companyId?: string;
  managerId?: string;
  blocked?: boolean;
};

/** Query keys of client profiles: one client and its parts, lists, statuses, companies and merges. */
export const clientKeys = {
  all: ['clients'] as const,
  list: (f: ClientFilters) => ['clients', f] as const,
  lookup: (search: string) => ['clients', 'lookup', search] as const,
  one: (id: string | undefined) => ['client', id] as const,
  chats: (id: string) => ['client', id, 'chats'] as const,
  files: (id: string) => ['client', id, 'files'] as const,
  chat: (clientId: string, chatId: string | null) => ['client', clientId, 'chat', chatId] as const,
  statuses: ['client-statuses'] as const,
  companiesAll: ['companies'] as const,
  companies: (search: string) => ['companies', search] as const,
  mergeSuggestions: ['merge-suggestions'] as const,
  mergePreview: (targetId: string, ids: string[]) => ['merge-preview', targetId, ids] as const,
};
