import type {
  Page,
  WebhookDeliveryDto,
  WebhookEndpointCreate,
  WebhookEndpointDto,
  WebhookEndpointSecretDto,
  WebhookEndpointUpdate,
} from '@smartconnect/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { del, get, patch, post, qs } from '../../../shared/api/client.ts';
import { webhookKeys } from './keys.ts';

const base = '/api/integrations/webhooks';
/** Deliveries shown per page of the log. */
export const LOG_PAGE = 20;

export function useWebhookEndpoints() {
  return useQuery({
    queryKey: webhookKeys.endpoints,
    queryFn: () => get<Page<WebhookEndpointDto>>(base),
  });
}

/** One page of an endpoint's delivery log, newest first; refreshed while a delivery waits for its next attempt. */
export function useWebhookDeliveries(endpointId: string, offset: number) {
  return useQuery({
    queryKey: webhookKeys.deliveryPage(endpointId, offset),
    queryFn: () =>
      get<Page<WebhookDeliveryDto>>(`${base}/${endpointId}/deliveries${qs({ limit: LOG_PAGE, offset })}`),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === 'pending') ? 5_000 : false),
  });
}

export const createEndpoint = (body: WebhookEndpointCreate) => post<WebhookEndpointSecretDto>(base, body);
export const updateEndpoint = (id: string, body: WebhookEndpointUpdate) =>
  patch<WebhookEndpointDto>(`${base}/${id}`, body);
export const deleteEndpoint = (id: string) => del<{ id: string }>(`${base}/${id}`);
export const rotateSecret = (id: string) => post<WebhookEndpointSecretDto>(`${base}/${id}/rotate-secret`);
export const sendTestEvent = (id: string) => post<WebhookDeliveryDto>(`${base}/${id}/test`);
export const redeliver = (id: string, deliveryId: string) =>
  post<WebhookDeliveryDto>(`${base}/${id}/deliveries/${deliveryId}/redeliver`);
