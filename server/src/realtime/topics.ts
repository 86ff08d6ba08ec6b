import type { RealtimeTopic } from '@smartconnect/contracts';
import type { AppContext } from '../context.ts';
import type { StoredEvent } from './bus.ts';

/** A socket as a topic sees it: who it is now (rights and teams follow access changes) and a way to push to it. */
export type TopicSocket = {
  readonly id: string;
  readonly userId: string;
  readonly organisationId: string;
  readonly rights: ReadonlySet<string>;
  readonly teams: ReadonlySet<string>;
  readonly open: boolean;
  /** Sends a `topic` frame with this data. */
  push(data: unknown): void;
  /** Sends a `topic` frame refusing the subscription with an error code; the topic forgets the socket itself. */
  refuse(code: string): void;
};

/**
 * A subscription topic of the realtime socket, registered by a domain module (realtime/ imports none):
 * `subscribe` checks rights and params (answers an error code to refuse) and starts pushing; `onEvent` sees every
 * committed event this instance delivers, in id order, on every instance (the bus brings the others' events), so a
 * topic can recompute what its subscribers here watch.
 */
export type Topic = {
  subscribe(app: AppContext, socket: TopicSocket, params: unknown): Promise<string | null>;
  unsubscribe(app: AppContext, socket: TopicSocket): void;
  onEvent?(app: AppContext, event: StoredEvent): void;
  /** The gateway stops (server shutting down): drop timers and subscribers. */
  stop?(app: AppContext): void;
};

const topics = new Map<string, Topic>();

/** Registers (or replaces) a topic under its name. */
export function registerTopic(name: RealtimeTopic, topic: Topic): void {
  topics.set(name, topic);
}

export const topicOf = (name: string): Topic | undefined => topics.get(name);
export const allTopics = (): Topic[] => [...topics.values()];
