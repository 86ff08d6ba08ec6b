import { healthDto } from '@smartconnect/contracts';
import { definePublicRoute, type ModuleRoutes } from '../../http/route.ts';

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
};
