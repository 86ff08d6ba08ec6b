import type { LoggedEventType } from '@smartconnect/contracts';
import type { AppContext } from '../context.ts';
import type { StoredEvent } from './bus.ts';

export type EventConsumer = (app: AppContext, event: StoredEvent) => Promise<void> | void;

const consumers = new Map<LoggedEventType, Set<EventConsumer>>();

/**
 * Registers a consumer of one event type; modules register theirs at boot (modules/setup.ts).
 *
 * Consumers are after-commit and best effort: a consumer runs on the instance that committed the event, once
 * for each committed event of its type, after the commit and the bus publish (`publishCommitted`); it never runs
 * for a change that rolled back. An exception is logged and goes no further (it never fails the publish nor the
 * command that emitted). A crash between the commit and the consumer loses the call: work that must happen goes
 * through the conversation pipeline or the outbox (durable rows), never through a consumer alone.
 *
 * Registering the same function twice registers it once. Answers a function that removes it.
 */
export function onEvent(type: LoggedEventType, consumer: EventConsumer): () => void {
  const set = consumers.get(type) ?? new Set();
  consumers.set(type, set);
  set.add(consumer);
  return () => {
    set.delete(consumer);
  };
}

/** Runs the consumers of each event, in order, one after another; never throws. */
export async function runConsumers(app: AppContext, events: readonly StoredEvent[]): Promise<void> {
  for (const event of events) {
    const set = consumers.get(event.type);
    if (!set?.size) continue;
    for (const consumer of [...set]) {
      try {
        await consumer(app, event);
      } catch (err) {
        app.log.error({ err, eventId: event.id, type: event.type }, 'event consumer failed');
      }
    }
  }
}
