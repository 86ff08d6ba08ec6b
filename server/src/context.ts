import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { Clock } from './lib/clock.ts';
import type { Mailer } from './lib/mailer.ts';
import type { Outbound } from './lib/outbound.ts';
import type { Storage } from './lib/storage.ts';
import { type ProcessState, slotFor } from './process-state.ts';
import type { EventBus } from './realtime/bus.ts';

/** What every module reaches through: configuration, the database and the shared services. */
export type AppContext = {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  storage: Storage;
  /** The one way to request a URL a tenant chose (lib/outbound.ts). */
  outbound: Outbound;
  log: FastifyBaseLogger;
  /** Committed events to every instance (see realtime/). */
  bus: EventBus;
  /** The process state of this app (batchers, caches, socket hubs), released by the server's close(). */
  state: ProcessState<AppContext>;
};

/** Declares a kind of process state of the app (process-state.ts): `app.state.of(app, SLOT)` makes or finds it. */
export const stateSlot = slotFor<AppContext>();
