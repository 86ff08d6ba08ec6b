import {
  ASSIGNABLE_RIGHTS,
  idEntity,
  idParams,
  PLAN_OPTIONS,
  page,
  rightsDto,
  roleCreateSchema,
  roleDto,
  roleUpdateSchema,
} from '@smartconnect/contracts';
import { readScope } from '../../http/auth.ts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { listRoles } from './queries.ts';
import { createRole, deleteRole, getRole, presentRole, updateRole } from './service.ts';

const tags = ['roles'];
const modify = { right: 'AUTHORITY_ROLE_MODIFY' } as const;

export const roleRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/rights',
      access: 'user',
      response: rightsDto,
      summary: 'The rights a role can hold, and the plan options',
      tags,
    },
    async () => ({ rights: ASSIGNABLE_RIGHTS, options: PLAN_OPTIONS }),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/roles',
      access: 'user',
      response: page(roleDto),
      summary: 'List roles (built-in first)',
      tags,
    },
    async ({ auth }) => {
      const items = (await listRoles(app.db, readScope(auth))).map(presentRole);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/roles/:id',
      access: 'user',
      response: roleDto,
      summary: 'One role',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => presentRole(await getRole(app, readScope(auth), params.id)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/roles',
      access: modify,
      response: roleDto,
      summary: 'Create a custom role',
      tags,
      body: roleCreateSchema,
    },
    async ({ auth, body }) => presentRole(await createRole(app, auth, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/roles/:id',
      access: modify,
      response: roleDto,
      summary: 'Update a custom role (built-in roles are immutable)',
      tags,
      params: idParams,
      body: roleUpdateSchema,
    },
    async ({ auth, params, body }) => presentRole(await updateRole(app, auth, params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/roles/:id',
      access: modify,
      response: idEntity,
      summary: 'Delete a custom role (irreversible)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await deleteRole(app, auth, params.id);
      return { id: params.id };
    },
  );
};
