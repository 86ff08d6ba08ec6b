import type {
  ClientListPage,
  ClientProfileDto,
  ClientProfileUpdate,
  ClientStatusColor,
  ClientStatusDto,
  CompanyDto,
  MergePreviewDto,
  MergeSuggestionDto,
  Page,
  UserDto,
} from '@smartconnect/contracts';
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, patch, post, qs } from '../../shared/api/client.ts';
import { chatKeys } from '../chats/keys.ts';
import { userKeys } from '../users/keys.ts';
import { type ClientFilters, clientKeys } from './keys.ts';

/** The client profile (issue 14): shares the side panel's ['client', id] cache entry (a superset of its shape). */
export const useProfile = (id: string | undefined) =>
  useQuery({
    queryKey: clientKeys.one(id),
    queryFn: () => get<ClientProfileDto>(`/api/clients/${id}`),
    enabled: !!id,
    retry: false,
  });

export type { ClientFilters };
export const useClientList = (f: ClientFilters, enabled = true) =>
  useInfiniteQuery({
    queryKey: clientKeys.list(f),
    queryFn: ({ pageParam }) =>
      get<ClientListPage>(
        `/api/clients${qs({
          search: f.search || undefined,
          statusId: f.statusId,
          companyId: f.companyId,
          managerId: f.managerId,
          blocked: f.blocked === undefined ? undefined : String(f.blocked),
          cursor: pageParam,
          limit: 50,
        })}`,
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });

export const useStatuses = (enabled = true) =>
  useQuery({
    queryKey: clientKeys.statuses,
    queryFn: async () => (await get<{ items: ClientStatusDto[] }>('/api/client-statuses')).items,
    enabled,
  });
export const useCompanies = (search = '', enabled = true) =>
  useQuery({
    queryKey: clientKeys.companies(search),
    queryFn: async () =>
      (await get<{ items: CompanyDto[] }>(`/api/companies${qs({ search: search || undefined })}`)).items,
    enabled,
    placeholderData: keepPreviousData,
  });
export const useUsers = () =>
  useQuery({ queryKey: userKeys.first500, queryFn: () => get<Page<UserDto>>('/api/users?limit=500') });
export const useMergeSuggestions = (enabled = true) =>
  useQuery({
    queryKey: clientKeys.mergeSuggestions,
    queryFn: async () => (await get<{ items: MergeSuggestionDto[] }>('/api/clients/merge/suggestions')).items,
    enabled,
  });

export const updateProfile = (id: string, body: Partial<ClientProfileUpdate>) =>
  patch<ClientProfileDto>(`/api/clients/${id}`, body);
export const addComment = (id: string, text: string) =>
  post<ClientProfileDto>(`/api/clients/${id}/comments`, { text });
export const blockClient = (clientId: string) => post<ClientProfileDto>('/api/blacklist', { clientId });
export const unblockClient = (clientId: string) => del<ClientProfileDto>(`/api/blacklist/${clientId}`);
export const previewMerge = (targetId: string, sourceIds: string[]) =>
  post<MergePreviewDto>('/api/clients/merge/preview', { targetId, sourceIds });
export const mergeClients = (targetId: string, sourceIds: string[]) =>
  post<ClientProfileDto>('/api/clients/merge', { targetId, sourceIds });
export const createStatus = (b: { name: string; color: ClientStatusColor }) =>
  post<ClientStatusDto>('/api/client-statuses', b);
export const updateStatus = (id: string, b: { name: string; color: ClientStatusColor }) =>
  patch<ClientStatusDto>(`/api/client-statuses/${id}`, b);
export const deleteStatus = (id: string) => del<{ id: string }>(`/api/client-statuses/${id}`);
export const createCompany = (name: string) => post<CompanyDto>('/api/companies', { name });
export const renameCompany = (id: string, name: string) =>
  patch<CompanyDto>(`/api/companies/${id}`, { name });
export const deleteCompany = (id: string) => del<{ id: string }>(`/api/companies/${id}`);

/** After a profile change: the profile, lists and the chats that show the client's name. */
export function useRefreshClients() {
  const client = useQueryClient();
  return async (id?: string) => {
    if (id) await client.invalidateQueries({ queryKey: clientKeys.one(id) });
    await Promise.all(
      [
        clientKeys.all,
        chatKeys.all,
        chatKeys.chatAll,
        clientKeys.mergeSuggestions,
        clientKeys.statuses,
        clientKeys.companiesAll,
      ].map((queryKey) => client.invalidateQueries({ queryKey })),
    );
  };
}
