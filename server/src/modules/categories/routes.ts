import {
  categoryCreateSchema,
  categoryDto,
  categoryListQuerySchema,
  categoryUpdateSchema,
  idEntity,
  idParams,
  FIELD_MESSAGES as M,
  page,
} from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { createCategory, deleteCategory, getCategory, loadTree, updateCategory } from './service.ts';
import { pruneFor } from './tree.ts';

const tags = ['categories'];
const manage = { right: 'AUTHORITY_CHAT_SESSION_CATEGORY', option: 'OPTION_CATEGORY' } as const;
/** §8 session category errors answered for a refused name. */
const fieldCodes = {
  [M.nameIncorrect]: 'sessionCategoryInvalidNameException',
  [M.nameTooLong]: 'sessionCategoryNameTooLongException',
} as const;

export const categoryRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/categories',
      access: { option: 'OPTION_CATEGORY' },
      response: page(categoryDto),
      query: categoryListQuerySchema,
      summary:
        'Request categories as a tree: items are the top categories (total counts them), each with its themes and their subthemes in children',
      tags,
    },
    async ({ auth, query }) => {
      const tree = await loadTree(app.db, auth.organisationId);
      if (query.teamId && !tree.live.includes(query.teamId)) throw new AppError('teamNotFoundException');
      const items = query.teamId ? pruneFor(tree.roots, query.teamId) : tree.roots;
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/categories/:id',
      access: { option: 'OPTION_CATEGORY' },
      response: categoryDto,
      params: idParams,
      summary: 'One request category (any level) with its themes and subthemes',
      tags,
    },
    async ({ auth, params }) => getCategory(app, auth.organisationId, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/categories',
      access: manage,
      response: categoryDto,
      summary:
        'Create a request category, or with parentId a theme of a category or a subtheme of a theme (409 categoryNameAlreadyExistsException / subcategoryAlreadyExistsException for a sibling of that name; 403 categoryModifyDeniedException)',
      tags,
      body: categoryCreateSchema,
      fieldCodes,
    },
    async ({ auth, body }) => createCategory(app, auth, auth.organisationId, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/categories/:id',
      access: manage,
      response: categoryDto,
      summary: 'Rename a request category, theme or subtheme, or change the teams it is available to',
      tags,
      params: idParams,
      body: categoryUpdateSchema,
      fieldCodes,
    },
    async ({ auth, params, body }) => updateCategory(app, auth, auth.organisationId, params.id, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/categories/:id',
      access: manage,
      response: idEntity,
      summary: 'Delete a request category with its themes and subthemes',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await deleteCategory(app, auth, auth.organisationId, params.id);
      return { id: params.id };
    },
  );
};
