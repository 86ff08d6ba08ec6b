import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { EventBus, Signal, StoredEvent } from './bus.ts';

type Envelope = { o: string; e?: StoredEvent[]; d?: string[]; s?: Signal };

/** The Redis pub/sub channel of a database identity. */
export const busChannel = (namespace: string) =>
  `smartconnect:events:${createHash('sha256').update(namespace).digest('hex').slice(0, 16)}`;

/**
 * The bus between instances: each instance delivers its own events at once in-process and publishes
 * them to one Redis channel; messages from itself coming back from Redis are dropped. Pub/sub is
 * at-most-once, so a lost message is found again by the gateway's catch-up from the event log.
 * The channel is named after the database's identity (queries.databaseIdentity, not the text of its URL), so
 * instances of one database share it however their URLs are spelled, and those of different databases never mix.
 */
export async function redisBus(url: string, namespace: string, log: FastifyBaseLogger): Promise<EventBus> {
  const origin = randomUUID();
  const channel = busChannel(namespace);
  const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false };
  const pub = new Redis(url, options);
  const sub = new Redis(url, { ...options, enableOfflineQueue: true });
  for (const c of [pub, sub])
    c.on('error', (err) => log.warn({ err: err.message }, 'redis bus connection error'));
  await pub.connect();
  await sub.connect();
  const handlers = new Set<(e: StoredEvent) => void>();
  const discardHandlers = new Set<(ids: string[]) => void>();
  const signalHandlers = new Set<(s: Signal) => void>();
  const local = (env: Envelope) => {
    if (env.e) for (const e of env.e) for (const h of handlers) h(e);
    if (env.d) for (const h of discardHandlers) h(env.d);
    if (env.s) for (const h of signalHandlers) h(env.s);
  };
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    let env: Envelope;
    try {
      env = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (env.o !== origin) local(env);
  });
  await sub.subscribe(channel);
  const send = (env: Envelope) => {
    local(env);
    // Not awaited: a slow or absent Redis must not hold up the request that committed.
    pub.publish(channel, JSON.stringify(env)).catch((err: Error) => {
      log.warn({ err: err.message }, 'redis bus publish failed; other instances catch up from the log');
    });
  };
  return {
    async publish(events) {
      send({ o: origin, e: events });
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async discard(ids) {
      send({ o: origin, d: ids });
    },
    onDiscard(handler) {
      discardHandlers.add(handler);
      return () => discardHandlers.delete(handler);
    },
    signal(s) {
      send({ o: origin, s });
    },
    onSignal(handler) {
      signalHandlers.add(handler);
      return () => signalHandlers.delete(handler);
    },
    async ping() {
      await pub.ping();
      if (sub.status !== 'ready') throw new Error(`redis subscriber ${sub.status}`);
    },
    async close() {
      handlers.clear();
      discardHandlers.clear();
      signalHandlers.clear();
      sub.disconnect();
      await pub.quit().catch(() => pub.disconnect());
    },
  };
}
