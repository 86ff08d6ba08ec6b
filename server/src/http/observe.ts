import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { metricsOf } from '../lib/metrics.ts';
import { traceHttp } from '../lib/tracing.ts';

/** A caller's X-Request-ID is kept when it is a plain token; otherwise the server makes one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Per request: the X-Request-ID answer header (the id every log line of the request carries as reqId), the
 * latency histogram by route pattern (an unknown path counts as 'unmatched': no path ever becomes a label), and
 * the request's trace span when tracing is on.
 */
export function observeHttp(fastify: FastifyInstance, app: AppContext): void {
  const { httpDuration } = metricsOf(app);
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpDuration.observe(
      { method: req.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  traceHttp(fastify);
}
