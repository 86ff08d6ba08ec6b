import type { Audience, RealtimeEventType } from '@smartconnect/contracts';

export type StoredEvent = {
  id: string;
  organisationId: string;
  type: RealtimeEventType;
  payload: unknown;
  audience: Audience;
  createdAt: string;
};

/** Carries committed events to every instance's subscribers (in-process by default, Redis with REDIS_URL). */
export type EventBus = {
  publish(events: StoredEvent[]): Promise<void>;
  subscribe(handler: (event: StoredEvent) => void): () => void;
  close(): Promise<void>;
};

export function localBus(): EventBus {
  const handlers = new Set<(e: StoredEvent) => void>();
  return {
    async publish(events) {
      for (const e of events) for (const h of handlers) h(e);
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      handlers.clear();
    },
  };
}
