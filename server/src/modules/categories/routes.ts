import { categoryDto, categorySchema, idEntity, idParams, page } from '@smartconnect/contracts';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { listCategories } from './queries.ts';
import { createCategory, deleteCategory, presentCategory, renameCategory } from './service.ts';

const tags = ['categories'];
const manage = { right: 'AUTHORITY_CHAT_SESSION_CATEGORY', option: 'OPTION_CATEGORY' } as const;

export const categoryRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/categories',
      access: { option: 'OPTION_CATEGORY' },
      response: page(categoryDto),
      summary: 'Request categories of the organisation (operators pick one for a chat)',
      tags,
    },
    async ({ auth }) => {
      const items = (await listCategories(app.db, auth.organisationId)).map(presentCategory);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/categories',
      access: manage,
      response: categoryDto,
      summary: 'Create a request category',
      tags,
      body: categorySchema,
    },
    async ({ auth, body }) => presentCategory(await createCategory(app, auth.organisationId, body.name)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/categories/:id',
      access: manage,
      response: categoryDto,
      summary: 'Rename a request category',
      tags,
      params: idParams,
      body: categorySchema,
    },
    async ({ auth, params, body }) =>
      presentCategory(await renameCategory(app, auth.organisationId, params.id, body.name)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/categories/:id',
      access: manage,
      response: idEntity,
      summary: 'Delete a request category',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await deleteCategory(app, auth.organisationId, params.id);
      return { id: params.id };
    },
  );
};
