import {
  type Attributes,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Db, type Queryable, sqlText } from '../db/index.ts';

/** Spec §9 trace limits: attributes, events and links per span. */
export const TRACE_LIMITS = { attributes: 128, events: 128, links: 128 } as const;
/**
 * Spec §9 propagation limits. They are the W3C propagators' own (OpenTelemetry's core: baggage 180 entries, 4096
 * bytes per entry, 8192 in all; tracestate 32 entries, 512 characters): the SDK's propagators enforce them.
 */
export const PROPAGATION_LIMITS = {
  baggageEntries: 180,
  baggageEntryBytes: 4096,
  baggageTotalBytes: 8192,
  tracestateEntries: 32,
  tracestateChars: 512,
} as const;

export const SERVICE = { name: 'smartconnect', version: '1.0.0' } as const;

type Tracing = { provider: NodeTracerProvider; users: number };
let active: Tracing | null = null;

/** Whether spans are recorded (an OTLP endpoint is set); everything here is a plain call when not. */
export const tracingOn = () => active !== null;

const tracer = () => trace.getTracer(SERVICE.name, SERVICE.version);

/**
 * Starts the process's tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: spans (with the spec's limits) are
 * batched and sent by OTLP/HTTP (JSON) to `<endpoint>/v1/traces`. One provider per process, shared by the servers
 * of the process; `stop` flushes and, for the last user, unregisters it.
 */
export function startTracing(env: Readonly<Record<string, string | undefined>>): {
  stop(): Promise<void>;
} {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return { stop: async () => undefined };
  if (!active) {
    const exporter = new OTLPTraceExporter({
      url: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${endpoint.replace(/\/$/, '')}/v1/traces`,
    });
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({
        'service.name': SERVICE.name,
        'service.version': SERVICE.version,
        'deployment.environment.name': env.NODE_ENV || 'production',
      }),
      spanLimits: {
        attributeCountLimit: TRACE_LIMITS.attributes,
        eventCountLimit: TRACE_LIMITS.events,
        linkCountLimit: TRACE_LIMITS.links,
        attributePerEventCountLimit: TRACE_LIMITS.attributes,
        attributePerLinkCountLimit: TRACE_LIMITS.attributes,
      },
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
    });
    provider.register();
    active = { provider, users: 0 };
  }
  const t = active;
  t.users++;
  let stopped = false;
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      await t.provider.forceFlush().catch(() => undefined);
      if (--t.users > 0) return;
      await t.provider.shutdown().catch(() => undefined);
      trace.disable();
      context.disable();
      propagation.disable();
      if (active === t) active = null;
    },
  };
}

/** Runs fn in a span (an internal span, child of the active one); just runs it when tracing is off. */
export async function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span?: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!active) return fn();
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The active trace's ids, for a log line (none when tracing is off). */
export function traceIds(): { traceId: string; spanId: string } | undefined {
  const span = active ? trace.getActiveSpan() : undefined;
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

/**
 * The database with a client span per statement run inside a traced operation (a request, a job, a delivery):
 * the pollers' idle queries make no root spans. The statement's text is recorded, never its parameters.
 */
export function tracedDb(db: Db): Db {
  if (!active) return db;
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) =>
      trace.getActiveSpan()
        ? withSpan('db.query', dbAttributes(db, sqlText(sql)), () => q.query(sql, params), SpanKind.CLIENT)
        : q.query(sql, params),
    exec: (sql) => q.exec(sql),
  });
  const top = wrap(db);
  return {
    ...db,
    kind: db.kind,
    query: top.query,
    exec: top.exec,
    tx: (fn, options) =>
      trace.getActiveSpan()
        ? withSpan('db.transaction', { 'db.system.name': 'postgresql' }, () =>
            db.tx((q) => fn(wrap(q)), options),
          )
        : db.tx((q) => fn(wrap(q)), options),
    close: () => db.close(),
  };
}

function dbAttributes(db: Db, sql: string): Attributes {
  const text = sql.replace(/\s+/g, ' ').trim();
  return {
    'db.system.name': 'postgresql',
    'db.query.text': text.length > 2000 ? `${text.slice(0, 2000)}…` : text,
    'db.operation.name': text.split(' ', 1)[0]?.toUpperCase() ?? '',
    'db.client': db.kind,
  };
}

const spans = new WeakMap<FastifyRequest, { span: Span; ctx: ReturnType<typeof context.active> }>();

/**
 * A server span per HTTP request, child of the caller's `traceparent`, named by the route pattern (never the raw
 * path, which may carry tokens); the handler runs in its context, and the request's log lines carry its ids.
 */
export function traceHttp(fastify: FastifyInstance): void {
  if (!active) return;
  fastify.addHook('onRequest', (req, reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const route = req.routeOptions.url ?? 'unknown';
    const span = tracer().startSpan(
      `${req.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'http.route': route, 'request.id': req.id },
      },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    spans.set(req, { span, ctx });
    const { traceId, spanId } = span.spanContext();
    req.log = req.log.child({ traceId, spanId });
    reply.log = req.log;
    context.with(ctx, done);
  });
  // Body parsing runs outside the request's context: the handler is put back into it.
  fastify.addHook('preHandler', (req, _reply, done) => {
    const s = spans.get(req);
    if (s) context.with(s.ctx, done);
    else done();
  });
  const end = (req: FastifyRequest, status?: number) => {
    const s = spans.get(req);
    if (!s) return;
    spans.delete(req);
    if (status !== undefined) s.span.setAttribute('http.response.status_code', status);
    if (status === undefined || status >= 500) s.span.setStatus({ code: SpanStatusCode.ERROR });
    s.span.end();
  };
  fastify.addHook('onResponse', (req, reply, done) => {
    end(req, reply.statusCode);
    done();
  });
  fastify.addHook('onRequestAbort', (req, done) => {
    end(req);
    done();
  });
}
