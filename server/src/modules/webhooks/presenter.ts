import type { WebhookDeliveryDto, WebhookEndpointDto, WebhookEventType } from '@smartconnect/contracts';
import type { DeliveryRow, EndpointRow } from './queries.ts';
import { publicEventId } from './send.ts';

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function presentEndpoint(e: EndpointRow): WebhookEndpointDto {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.event_types as WebhookEventType[],
    enabled: e.enabled,
    disabledReason: e.disabled_reason,
    disabledAt: iso(e.disabled_at),
    failingSince: iso(e.failing_since),
    createdAt: new Date(e.created_at).toISOString(),
  };
}

export function presentDelivery(d: DeliveryRow): WebhookDeliveryDto {
  return {
    id: d.id,
    endpointId: d.endpoint_id,
    eventId: publicEventId(d),
    eventType: d.event_type,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? iso(d.next_attempt_at) : null,
    lastAttemptAt: iso(d.last_attempt_at),
    lastStatusCode: d.last_status_code,
    lastDurationMs: d.last_duration_ms,
    lastError: d.last_error,
    deliveredAt: iso(d.delivered_at),
    createdAt: new Date(d.created_at).toISOString(),
    body: d.body,
  };
}
