import {
  idParams,
  FIELD_MESSAGES as M,
  page,
  userCreateSchema,
  userDto,
  userListQuerySchema,
  userUpdateSchema,
} from '@smartconnect/contracts';
import { z } from 'zod';
import { readScope } from '../../http/auth.ts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { readJpegUpload } from '../files/service.ts';
import { assertCanManage } from './policy.ts';
import { presentUser } from './presenter.ts';
import * as Q from './queries.ts';
import { createUser, getUser, replacePhoto, setTeams, updateUser } from './service.ts';

const tags = ['users'];

export const userRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/users',
      scope: 'users:read',
      access: 'user',
      response: page(userDto),
      summary: 'List users (search by name, filter by team)',
      tags,
      query: userListQuerySchema,
    },
    async ({ auth, query }) => {
      const { rows, total } = await Q.listUsers(app.db, {
        scope: readScope(auth),
        search: query.search,
        teamId: query.team,
        limit: query.limit,
        offset: query.offset,
      });
      return { items: rows.map(presentUser), total };
    },
  );

  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/users/:id',
      scope: 'users:read',
      access: 'user',
      response: userDto,
      summary: 'One user',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => presentUser(await getUser(app, readScope(auth), params.id)),
  );

  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/users',
      access: { right: 'RIGHT_ACCOUNT_CONTROL' },
      response: userDto,
      summary: 'Create a user',
      tags,
      body: userCreateSchema,
    },
    async ({ auth, body }) => presentUser(await createUser(app, auth, body)),
  );

  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/users/:id',
      access: { right: 'RIGHT_ACCOUNT_CONTROL' },
      response: userDto,
      summary: 'Update a user (active=false deactivates and revokes their tokens)',
      tags,
      params: idParams,
      body: userUpdateSchema,
    },
    async ({ auth, params, body }) => presentUser(await updateUser(app, auth, params.id, body)),
  );

  for (const [action, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    defineRoute(
      fastify,
      app,
      {
        method: 'POST',
        url: `/api/users/:id/${action}`,
        access: { right: 'RIGHT_ACCOUNT_CONTROL' },
        response: userDto,
        summary: active
          ? 'Activate a user'
          : 'Deactivate a user: they cannot log in and their tokens are revoked',
        tags,
        params: idParams,
      },
      async ({ auth, params }) => presentUser(await updateUser(app, auth, params.id, { active })),
    );
  }

  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/users/:id/teams',
      access: { right: 'AUTHORITY_TEAMS_UPDATE' },
      response: userDto,
      summary: "Set a user's teams",
      tags,
      params: idParams,
      body: z.object({ teamIds: z.array(z.uuid(M.teamIncorrect)) }),
    },
    async ({ auth, params, body }) => presentUser(await setTeams(app, auth, params.id, body.teamIds)),
  );

  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/users/:id/photo',
      access: { right: 'RIGHT_ACCOUNT_CONTROL' },
      response: userDto,
      summary:
        "Upload a user's photo (JPEG, at most 200 KB; multipart field `file` or a raw image/jpeg body)",
      tags,
      params: idParams,
    },
    async ({ auth, params, req }) => {
      const user = await getUser(app, auth.organisationId, params.id);
      assertCanManage(auth, user.role_rights);
      return presentUser(await replacePhoto(app, user, await readJpegUpload(req)));
    },
  );

  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/users/:id/photo',
      access: { right: 'RIGHT_ACCOUNT_CONTROL' },
      response: userDto,
      summary: "Remove a user's photo",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      const user = await getUser(app, auth.organisationId, params.id);
      assertCanManage(auth, user.role_rights);
      return presentUser(await replacePhoto(app, user, null));
    },
  );
};
