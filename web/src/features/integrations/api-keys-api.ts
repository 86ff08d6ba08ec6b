import type { ApiKeyCreatedDto, ApiKeyCreateInput, ApiKeyDto, Page } from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, get, post } from '../../shared/api/client.ts';
import { apiKeyKeys } from './keys.ts';

export function useApiKeys() {
  return useQuery({
    queryKey: apiKeyKeys.all,
    queryFn: () => get<Page<ApiKeyDto>>('/api/integrations/api-keys'),
  });
}

export const createApiKey = (body: ApiKeyCreateInput) =>
  post<ApiKeyCreatedDto>('/api/integrations/api-keys', body);
export const rotateApiKey = (id: string, overlapHours: number) =>
  post<ApiKeyCreatedDto>(`/api/integrations/api-keys/${id}/rotate`, { overlapHours });
export const revokeApiKey = (id: string) => api<ApiKeyDto>('DELETE', `/api/integrations/api-keys/${id}`);
