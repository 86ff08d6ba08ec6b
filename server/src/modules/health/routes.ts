import { healthDto, readyDto } from '@smartconnect/contracts';
import { definePublicRoute, type ModuleRoutes } from '../../http/route.ts';
import { readiness } from './readiness.ts';

export const healthRoutes: ModuleRoutes = (fastify, app) => {
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/health',
      access: 'public',
      raw: true,
      response: healthDto,
      summary: 'Liveness and database kind',
      tags: ['system'],
    },
    async () => {
      await app.db.query('select 1');
      return { status: 'ok', database: app.db.kind };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/ready',
      access: 'public',
      raw: true,
      response: readyDto,
      summary: 'Readiness: database, Redis (when configured) and job runner; 503 when one fails',
      tags: ['system'],
    },
    async ({ reply }) => {
      const result = await readiness(app);
      reply.header('cache-control', 'no-store');
      if (result.status !== 'ready') reply.status(503);
      return result;
    },
  );
};
