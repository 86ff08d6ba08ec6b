import { presenceDto, presenceUpdateSchema } from '@smartconnect/contracts';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { changePresence } from './service.ts';

export const presenceRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/presence',
      access: 'user',
      response: presenceDto,
      summary: "Set the current user's presence: online ('In work'), break or offline",
      tags: ['presence'],
      body: presenceUpdateSchema,
    },
    async ({ auth, body }) => changePresence(app, auth, body.status, 'manual'),
  );
};
