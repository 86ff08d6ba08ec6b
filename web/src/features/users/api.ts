import type { Page, UserDto } from '@smartconnect/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, get, patch, post, qs } from '../../shared/api/client.ts';
import { userKeys } from './keys.ts';

export function useUsers(search: string, team: string | null) {
  return useQuery({
    queryKey: userKeys.list({ search, team }),
    queryFn: () => get<Page<UserDto>>(`/api/users${qs({ search, team, limit: 500 })}`),
    placeholderData: keepPreviousData,
  });
}

export function useUser(id: string | undefined) {
  return useQuery({
    queryKey: userKeys.one(id),
    queryFn: () => get<UserDto>(`/api/users/${id}`),
    enabled: !!id,
  });
}

export const createUser = (body: unknown) => post<UserDto>('/api/users', body);
export const updateUser = (id: string, body: unknown) => patch<UserDto>(`/api/users/${id}`, body);
export const setUserActive = (id: string, active: boolean) =>
  post<UserDto>(`/api/users/${id}/${active ? 'activate' : 'deactivate'}`);

/** Multipart upload of a JPEG (field `file`) to a photo endpoint. */
export function uploadPhoto(path: string, file: File) {
  const data = new FormData();
  data.append('file', file);
  return api<UserDto>('PUT', path, data);
}
export const removePhoto = (path: string) => api<unknown>('DELETE', path);

export function formatDateTime(iso: string | null, locale: string): string | null {
  if (!iso) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
