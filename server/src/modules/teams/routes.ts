import {
  idEntity,
  idParams,
  page,
  teamCreateSchema,
  teamDto,
  teamListQuerySchema,
  teamUpdateSchema,
} from '@smartconnect/contracts';
import { readScope } from '../../http/auth.ts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { presentTeam } from './presenter.ts';
import { listTeams } from './queries.ts';
import { createTeam, deleteTeam, getTeam, updateTeam } from './service.ts';

const tags = ['teams'];
const manage = { right: 'AUTHORITY_TEAMS_UPDATE' } as const;

export const teamRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/teams',
      scope: 'users:read',
      access: 'user',
      response: page(teamDto),
      summary: 'List teams (search by name)',
      tags,
      query: teamListQuerySchema,
    },
    async ({ auth, query }) => {
      const items = (await listTeams(app.db, readScope(auth), query.search)).map(presentTeam);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/teams/:id',
      scope: 'users:read',
      access: 'user',
      response: teamDto,
      summary: 'One team',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => presentTeam(await getTeam(app, readScope(auth), params.id)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/teams',
      access: manage,
      response: teamDto,
      summary: 'Create a team',
      tags,
      body: teamCreateSchema,
    },
    async ({ auth, body }) => presentTeam(await createTeam(app, auth, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/teams/:id',
      access: manage,
      response: teamDto,
      summary: 'Update a team',
      tags,
      params: idParams,
      body: teamUpdateSchema,
    },
    async ({ auth, params, body }) => presentTeam(await updateTeam(app, auth, params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/teams/:id',
      access: manage,
      response: idEntity,
      summary: 'Delete a team',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await deleteTeam(app, auth, params.id);
      return { id: params.id };
    },
  );
};
