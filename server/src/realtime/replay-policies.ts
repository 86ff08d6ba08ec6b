import type { AppContext } from '../context.ts';
import type { StoredEvent } from './bus.ts';

/** Who is reading, as a replay policy sees them. */
export type Reader = {
  userId: string;
  organisationId: string;
  rights: ReadonlySet<string>;
  teams: ReadonlySet<string>;
};

/**
 * A domain's check of what a reader may read now (through REST), over events about to be replayed after a
 * reconnect: answers the ids of the events the reader may no longer read. Registered by the domain module
 * (realtime/ imports none); an event withheld turns the replay into a `resync` (reason 'access').
 */
export type ReplayPolicy = (app: AppContext, reader: Reader, events: StoredEvent[]) => Promise<Set<string>>;
const policies = new Map<string, ReplayPolicy>();

/** Registers (or replaces) a domain's replay policy under its name. */
export function registerReplayPolicy(name: string, policy: ReplayPolicy): void {
  policies.set(name, policy);
}

/** Every registered policy (the gateway asks each before a replay). */
export const replayPolicies = () => policies.values();
