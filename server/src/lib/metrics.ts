import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/index.ts';
import type { Clock } from './clock.ts';

/**
 * The Prometheus metrics of one server (one registry per app: several servers share a test process). Labels are
 * never tenant data: route patterns (not paths), methods, status codes, channel types, queue names.
 */
export type Metrics = {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  ingested: Counter<'result'>;
  providerErrors: Counter<'channel_type' | 'retryable'>;
  /** Set by the realtime gateway at each scrape. */
  websocketConnections: () => number;
  /** From an event's transaction start to its hand-off to this instance's sockets (commit, bus, ordering). */
  realtimeLag: Histogram;
  /** Set by the realtime gateway: frames it handed to sockets so far (read at each scrape). */
  realtimeFrames: () => number;
};

type Sources = { db: Db; clock: Clock };

const byDb = new WeakMap<object, Metrics>();

/**
 * Queue depth and the age of the oldest item, per queue, read at scrape time (one cheap query each); ages against
 * the database's clock, which stamped created_at.
 */
const QUEUES = {
  pipeline: `select count(*)::int as depth,
                    greatest(coalesce(extract(epoch from (now() - min(created_at))), 0), 0)::float8 as age
               from pipeline_jobs`,
  outbox: `select count(*)::int as depth,
                  greatest(coalesce(extract(epoch from (now() - min(created_at))), 0), 0)::float8 as age
             from outbox where status = 'pending'`,
} as const;

export function createMetrics(src: Sources): Metrics {
  const registry = new Registry();
  const prefix = 'smartconnect_';
  const metrics: Metrics = {
    registry,
    httpDuration: new Histogram({
      name: `${prefix}http_request_duration_seconds`,
      help: 'HTTP request latency by route pattern, method and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    ingested: new Counter({
      name: `${prefix}ingest_messages_total`,
      help: 'Inbound customer messages ingested (result: stored or duplicate)',
      labelNames: ['result'],
      registers: [registry],
    }),
    providerErrors: new Counter({
      name: `${prefix}provider_errors_total`,
      help: 'Failed deliveries to providers by channel type',
      labelNames: ['channel_type', 'retryable'],
      registers: [registry],
    }),
    websocketConnections: () => 0,
    realtimeLag: new Histogram({
      name: `${prefix}realtime_delivery_lag_seconds`,
      help: "From a realtime event's transaction start to its hand-off to this instance's sockets",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    realtimeFrames: () => 0,
  };
  new Counter({
    name: `${prefix}realtime_frames_total`,
    help: 'Realtime frames handed to the websockets of this instance',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(metrics.realtimeFrames());
    },
  });
  new Gauge({
    name: `${prefix}websocket_connections`,
    help: 'Open realtime websocket connections on this instance',
    registers: [registry],
    collect() {
      this.set(metrics.websocketConnections());
    },
  });
  // The depth gauge reads both queues' depth and age; registered first, so the age gauge is current when read.
  const ages = new Map<string, number>();
  new Gauge({
    name: `${prefix}queue_depth`,
    help: 'Items waiting in a durable queue (pipeline jobs, pending outbox deliveries)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      // A database that does not answer leaves the last values: /metrics still answers (readiness says why).
      try {
        for (const [queue, sql] of Object.entries(QUEUES)) {
          const [r] = await src.db.query<{ depth: number; age: number }>(sql);
          this.set({ queue }, r?.depth ?? 0);
          ages.set(queue, r?.age ?? 0);
        }
      } catch {}
    },
  });
  new Gauge({
    name: `${prefix}queue_oldest_age_seconds`,
    help: 'Age of the oldest item waiting in a durable queue',
    labelNames: ['queue'],
    registers: [registry],
    collect() {
      for (const [queue, seconds] of ages) this.set({ queue }, seconds);
    },
  });
  new Gauge({
    name: `${prefix}timers_due`,
    help: 'Durable timers due now and not yet fired',
    registers: [registry],
    async collect() {
      try {
        const [row] = await src.db.query<{ n: number }>(
          'select count(*)::int as n from timers where due_at <= $1::timestamptz',
          [src.clock.now()],
        );
        this.set(row?.n ?? 0);
      } catch {}
    },
  });
  return metrics;
}

/** The metrics of the server owning this database (created with it; a no-op registry for a bare context). */
export function metricsOf(app: Sources): Metrics {
  let m = byDb.get(app.db);
  if (!m) {
    m = createMetrics(app);
    byDb.set(app.db, m);
  }
  return m;
}
