import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { definePublicRoute, type ModuleRoutes } from '../../http/route.ts';
import { metricsOf } from '../../lib/metrics.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Who may read /metrics: with METRICS_TOKEN, whoever sends it as a bearer token (from anywhere); without it, only
 * this machine, connecting directly (loopback, and no X-Forwarded-For: a reverse proxy on this machine forwards
 * other people). The metrics carry no tenant data either way: route patterns, counts, channel types.
 */
export function mayReadMetrics(app: AppContext, req: FastifyRequest): boolean {
  const token = app.config.metricsToken;
  if (token) {
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  }
  return LOOPBACK.test(req.socket.remoteAddress ?? '') && req.headers['x-forwarded-for'] === undefined;
}

export const metricsRoutes: ModuleRoutes = (fastify, app) => {
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/metrics',
      access: 'custom',
      raw: true,
      rawText: true,
      summary:
        'Prometheus metrics (text exposition format). With METRICS_TOKEN set: bearer token; otherwise loopback only',
      tags: ['system'],
    },
    async ({ req, reply }) => {
      if (!mayReadMetrics(app, req)) {
        throw new AppError(app.config.metricsToken ? 'unauthorizedException' : 'accessDeniedException');
      }
      const { registry } = metricsOf(app);
      reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
      return registry.metrics();
    },
  );
};
