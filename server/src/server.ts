import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { type Db, openPglite, openPostgres } from './db/index.ts';
import { migrate } from './db/migrate.ts';
import { buildHttp, createFastify } from './http/app.ts';
import { type JobRunner, startJobs } from './jobs/runner.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { metricsOf } from './lib/metrics.ts';
import { createOutbound } from './lib/outbound.ts';
import { s3Storage } from './lib/s3-storage.ts';
import { diskStorage } from './lib/storage.ts';
import { startTracing, tracedDb } from './lib/tracing.ts';
import { markDraining, watchJobRunner } from './modules/health/readiness.ts';
import { seedDemo } from './modules/organisations/seed.ts';
import { setupModules } from './modules/setup.ts';
import { ProcessState } from './process-state.ts';
import { type EventBus, localBus } from './realtime/bus.ts';
import { databaseIdentity } from './realtime/queries.ts';
import { redisBus } from './realtime/redis-bus.ts';
import { realtimeGateway } from './realtime/routes.ts';

export type Server = { fastify: FastifyInstance; app: AppContext; jobs: JobRunner; close(): Promise<void> };
export type ServerOptions = {
  db?: Db;
  clock?: Clock;
  mailer?: Mailer;
  bus?: EventBus;
  /** Where the log goes (standard output by default). */
  logStream?: NodeJS.WritableStream;
};

export async function openDatabase(config: Config): Promise<Db> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(join(config.dataDir, 'pglite'));
}

/** Boot order: database -> migrations -> seed -> HTTP. Does not listen; the caller decides where. */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  setupModules();
  // Tracing first, so the HTTP and database instrumentation below see it (nothing is wrapped when it is off).
  const tracing = startTracing(config.env);
  const fastify = createFastify(config.logLevel, config.trustProxy, options.logStream);
  const db = tracedDb(options.db ?? (await openDatabase(config)));
  await migrate(db);
  const app: AppContext = {
    config,
    db,
    clock: options.clock ?? systemClock,
    mailer: options.mailer ?? createMailer(config.smtpUrl, config.mailFrom, fastify.log),
    storage: config.s3 ? await s3Storage(config.s3) : diskStorage(join(config.dataDir, 'files')),
    outbound: createOutbound(config.outboundAllowedNetworks),
    log: fastify.log,
    bus:
      options.bus ??
      (config.redisUrl
        ? await redisBus(config.redisUrl, await databaseIdentity(db), fastify.log)
        : localBus()),
    state: new ProcessState(),
  };
  if (config.seedDemo) await seedDemo(app);
  await buildHttp(app, fastify);
  await fastify.ready();
  const jobs = startJobs(app);
  watchJobRunner(app, jobs.status);
  metricsOf(app).websocketConnections = () => realtimeGateway(app)?.connections ?? 0;
  return {
    fastify,
    app,
    /** The job runner (tests stop it to fold report rollups by hand without a second folder racing them). */
    jobs,
    /**
     * Graceful shutdown: /api/ready answers 'draining'; the listener closes (requests arriving now get 503) and
     * every socket is told to reconnect elsewhere (1012); requests in flight finish; the job runner finishes its
     * poll and hands back the leases it holds (pull channels' sessions, outbox kicks); then state, bus, database.
     */
    async close() {
      markDraining(app);
      await fastify.close();
      await jobs.stop();
      await app.state.close((err, name) => app.log.error({ err, state: name }, 'process state not released'));
      await app.bus.close();
      await app.outbound.close();
      await app.storage.close?.();
      await db.close();
      await tracing.stop();
    },
  };
}
