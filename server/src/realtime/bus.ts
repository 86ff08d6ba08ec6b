import type { Audience, LoggedEventType, RealtimeSignalType } from '@smartconnect/contracts';

export type StoredEvent = {
  id: string;
  organisationId: string;
  type: LoggedEventType;
  payload: unknown;
  audience: Audience;
  createdAt: string;
};

/** A passing state for the sockets that see it (typing): not stored, at most once, never replayed. */
export type Signal = {
  organisationId: string;
  type: RealtimeSignalType;
  payload: unknown;
  audience: Audience;
};

/** Carries committed events to every instance's subscribers (in-process by default, Redis with REDIS_URL). */
export type EventBus = {
  publish(events: StoredEvent[]): Promise<void>;
  subscribe(handler: (event: StoredEvent) => void): () => void;
  /**
   * Announces event ids that were taken by a transaction that then rolled back, so readers that deliver
   * in id order stop waiting for them. Optional: without it readers find out by a timeout.
   */
  discard?(ids: string[]): Promise<void>;
  onDiscard?(handler: (ids: string[]) => void): () => void;
  /** Hands a signal to every instance (best effort). */
  signal(s: Signal): void;
  onSignal(handler: (s: Signal) => void): () => void;
  /** Checks the connection to the shared bus (Redis), for readiness; the in-process bus has none. */
  ping?(): Promise<void>;
  close(): Promise<void>;
};

export function localBus(): EventBus {
  const handlers = new Set<(e: StoredEvent) => void>();
  const discardHandlers = new Set<(ids: string[]) => void>();
  const signalHandlers = new Set<(s: Signal) => void>();
  return {
    async publish(events) {
      for (const e of events) for (const h of handlers) h(e);
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async discard(ids) {
      for (const h of discardHandlers) h(ids);
    },
    onDiscard(handler) {
      discardHandlers.add(handler);
      return () => discardHandlers.delete(handler);
    },
    signal(s) {
      for (const h of signalHandlers) h(s);
    },
    onSignal(handler) {
      signalHandlers.add(handler);
      return () => signalHandlers.delete(handler);
    },
    async close() {
      handlers.clear();
      discardHandlers.clear();
      signalHandlers.clear();
    },
  };
}
