import {
  idEntity,
  idParams,
  page,
  templateCategoryCreateSchema,
  templateCategoryDto,
  templateCategoryListQuerySchema,
  templateCategoryUpdateSchema,
  templateCreateSchema,
  templateDto,
  templateListQuerySchema,
  templateUpdateSchema,
  whatsAppTemplateDto,
} from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { providerTemplates } from '../channels/service.ts';
import { listScope } from './policy.ts';
import { presentTemplate, presentTemplateCategory } from './presenter.ts';
import { listCategories, listTemplates } from './queries.ts';
import * as S from './service.ts';

const tags = ['templates'];
/** Using templates needs the plan option; changing them also AUTHORITY_TEAM_TEMPLATE (§6). */
const use = { option: 'OPTION_TEMPLATE' } as const;
const manage = { right: 'AUTHORITY_TEAM_TEMPLATE', option: 'OPTION_TEMPLATE' } as const;

export const templateRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/template-categories',
      access: use,
      response: page(templateCategoryDto),
      summary:
        "Template categories available to the caller's teams (?all=true: every one, for template managers)",
      tags,
      query: templateCategoryListQuerySchema,
    },
    async ({ auth, query }) => {
      const rows = await listCategories(app.db, auth.organisationId, listScope(auth, query.all));
      const items = rows.map(presentTemplateCategory);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/template-categories',
      access: manage,
      response: templateCategoryDto,
      summary: 'Create a template category {name, teamIds}',
      tags,
      body: templateCategoryCreateSchema,
    },
    async ({ auth, body }) => presentTemplateCategory(await S.createTemplateCategory(app, auth, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/template-categories/:id',
      access: manage,
      response: templateCategoryDto,
      summary: 'Rename a template category or change its teams',
      tags,
      params: idParams,
      body: templateCategoryUpdateSchema,
    },
    async ({ auth, params, body }) =>
      presentTemplateCategory(await S.updateTemplateCategory(app, auth, params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/template-categories/:id',
      access: manage,
      response: idEntity,
      summary: 'Delete a template category with its templates',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await S.deleteTemplateCategory(app, auth, params.id);
      return { id: params.id };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/templates',
      access: use,
      response: page(templateDto),
      summary:
        "Templates whose category is available to one of the caller's teams, by text or category name (?search=); ?all=true: every one, for template managers",
      tags,
      query: templateListQuerySchema,
    },
    async ({ auth, query }) => {
      const rows = await listTemplates(app.db, auth.organisationId, {
        userId: listScope(auth, query.all),
        search: query.search,
        categoryId: query.categoryId,
      });
      const items = rows.map(presentTemplate);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/templates',
      access: manage,
      response: templateDto,
      summary: 'Create a template {text, categoryId}',
      tags,
      body: templateCreateSchema,
    },
    async ({ auth, body }) => presentTemplate(await S.createTemplate(app, auth, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/templates/:id',
      access: manage,
      response: templateDto,
      summary: "Change a template's text or category",
      tags,
      params: idParams,
      body: templateUpdateSchema,
    },
    async ({ auth, params, body }) => presentTemplate(await S.updateTemplate(app, auth, params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/templates/:id',
      access: manage,
      response: idEntity,
      summary: 'Delete a template',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await S.deleteTemplate(app, auth, params.id);
      return { id: params.id };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/whatsapp-templates',
      access: manage,
      response: page(whatsAppTemplateDto),
      summary:
        'WhatsApp templates registered at the provider (read-only; the approved Russian and English templates of the WABA of each active WhatsApp channel, read from the provider)',
      tags,
    },
    // Read from the providers now (the channels' adapters), so the list is what the provider will accept.
    async ({ auth }) => {
      const items = await providerTemplates(app, auth.organisationId);
      return { items, total: items.length };
    },
  );
};
