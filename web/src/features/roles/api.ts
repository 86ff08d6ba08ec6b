import type { Right, RoleDto } from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { del, get, patch, post } from '../../shared/api/client.ts';
import { roleKeys } from './keys.ts';

export type RoleInput = { name: string; description: string; rights: Right[] };

export function useRoles() {
  return useQuery({
    queryKey: roleKeys.all,
    queryFn: async () => {
      const e = await get<RoleDto[] | { items: RoleDto[] }>('/api/roles');
      return Array.isArray(e) ? e : e.items;
    },
  });
}

export function useAssignableRights() {
  return useQuery({
    queryKey: roleKeys.rights,
    queryFn: () => get<{ rights: Right[]; options: string[] }>('/api/rights'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export const createRole = (body: RoleInput) => post<RoleDto>('/api/roles', body);
export const updateRole = (id: string, body: RoleInput) => patch<RoleDto>(`/api/roles/${id}`, body);
export const deleteRole = (id: string) => del<unknown>(`/api/roles/${id}`);
