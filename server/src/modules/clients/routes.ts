import { clientDto, clientUpdateSchema, idParams } from '@smartconnect/contracts';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { getClient, presentClient, updateClient } from './service.ts';

const tags = ['clients'];

export const clientRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/clients/:id',
      access: 'user',
      response: clientDto,
      summary: 'A client (minimal profile: name, contacts, personal manager)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => presentClient(await getClient(app, auth, params.id)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/clients/:id',
      access: { right: 'AUTHORITY_PROFILE_UPDATE' },
      response: clientDto,
      summary: "Rename a client or set their personal manager (transfer target 'personal_manager')",
      tags,
      params: idParams,
      body: clientUpdateSchema,
    },
    async ({ auth, params, body }) => presentClient(await updateClient(app, auth, params.id, body)),
  );
};
