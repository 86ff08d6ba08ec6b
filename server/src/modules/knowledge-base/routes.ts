import {
  idEntity,
  idParams,
  KB_LIMITS,
  kbArticleCreateSchema,
  kbArticleDto,
  kbArticleListQuerySchema,
  kbArticleUpdateSchema,
  kbCategoryCreateSchema,
  kbCategoryDto,
  kbCategoryListQuerySchema,
  kbCategoryUpdateSchema,
  kbSearchQuerySchema,
  page,
} from '@smartconnect/contracts';
import { z } from 'zod';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { listScope } from '../templates/policy.ts';
import { readScope } from './policy.ts';
import { presentKbArticle, presentKbCategory } from './presenter.ts';
import { articlePage, notFoundPage } from './public-page.ts';
import { findPublicArticle, listArticles, listCategories, searchArticles } from './queries.ts';
import * as S from './service.ts';

const tags = ['knowledge-base'];
/** Reading is for any signed-in user, scoped to their teams in the queries; writing needs AUTHORITY_TEAM_TEMPLATE. */
const manage = { right: 'AUTHORITY_TEAM_TEMPLATE' } as const;
const publicParams = z.object({ organisation: z.string(), slug: z.string() });
/** What a public page's address may hold; anything else is not an article (answered before any query). */
const ORGANISATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SLUG = /^[a-z0-9-]{1,128}$/;

export const knowledgeBaseRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/kb/categories',
      access: 'user',
      response: page(kbCategoryDto),
      summary:
        "Knowledge-base categories available to the caller's teams (?all=true: every one, for those with AUTHORITY_TEAM_TEMPLATE)",
      tags,
      query: kbCategoryListQuerySchema,
    },
    async ({ auth, query }) => {
      const rows = await listCategories(app.db, auth.organisationId, listScope(auth, query.all));
      const items = rows.map(presentKbCategory);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/kb/categories',
      access: manage,
      response: kbCategoryDto,
      summary: 'Create a knowledge-base category {name, teamIds}',
      tags,
      body: kbCategoryCreateSchema,
    },
    async ({ auth, body }) => presentKbCategory(await S.createKbCategory(app, auth, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/kb/categories/:id',
      access: manage,
      response: kbCategoryDto,
      summary: 'Rename a knowledge-base category or change its teams',
      tags,
      params: idParams,
      body: kbCategoryUpdateSchema,
    },
    async ({ auth, params, body }) => presentKbCategory(await S.updateKbCategory(app, auth, params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/kb/categories/:id',
      access: manage,
      response: idEntity,
      summary: 'Delete a knowledge-base category with its articles',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await S.deleteKbCategory(app, auth, params.id);
      return { id: params.id };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/kb/articles',
      access: 'user',
      response: page(kbArticleDto),
      summary:
        "Knowledge-base articles available to the caller's teams (?categoryId=); ?all=true: every one, for those with AUTHORITY_TEAM_TEMPLATE",
      tags,
      query: kbArticleListQuerySchema,
    },
    async ({ auth, query }) => {
      const rows = await listArticles(app.db, auth.organisationId, {
        userId: listScope(auth, query.all),
        categoryId: query.categoryId,
      });
      const items = rows.map(presentKbArticle);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/kb/search',
      access: 'user',
      response: page(kbArticleDto),
      summary: `Full-text search of the articles the caller may read (?q=), best match first, at most ${KB_LIMITS.searchResults}`,
      tags,
      query: kbSearchQuerySchema,
    },
    async ({ auth, query }) => {
      const rows = await searchArticles(
        app.db,
        auth.organisationId,
        readScope(auth),
        query.q,
        KB_LIMITS.searchResults,
      );
      const items = rows.map(presentKbArticle);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/kb/articles/:id',
      access: 'user',
      response: kbArticleDto,
      summary: "One knowledge-base article, when the caller's teams may read it",
      tags,
      params: idParams,
    },
    async ({ auth, params }) =>
      presentKbArticle(await S.readKbArticle(app.db, auth.organisationId, params.id, readScope(auth))),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/kb/articles',
      access: manage,
      response: kbArticleDto,
      summary: 'Create a knowledge-base article {categoryId, title, body, teamIds, public}',
      tags,
      body: kbArticleCreateSchema,
    },
    async ({ auth, body }) => presentKbArticle(await S.createKbArticle(app, auth, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/kb/articles/:id',
      access: manage,
      response: kbArticleDto,
      summary: "Change an article's category, title, body, teams or whether it is public",
      tags,
      params: idParams,
      body: kbArticleUpdateSchema,
    },
    async ({ auth, params, body }) => presentKbArticle(await S.updateKbArticle(app, auth, params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/kb/articles/:id',
      access: manage,
      response: idEntity,
      summary: 'Delete a knowledge-base article',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await S.deleteKbArticle(app, auth, params.id);
      return { id: params.id };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/kb/:organisation/:slug',
      access: 'public',
      raw: true,
      rawFile: ['text/html'],
      summary:
        "A public knowledge-base article's page (HTML, every text escaped); 404 for an article that is not public",
      tags,
      params: publicParams,
    },
    async ({ params, reply }) => {
      const row =
        ORGANISATION_ID.test(params.organisation) && SLUG.test(params.slug)
          ? await findPublicArticle(app.db, params.organisation, params.slug)
          : undefined;
      if (!row) return reply.status(404).type('text/html; charset=utf-8').send(notFoundPage());
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(
          articlePage({
            title: row.title,
            body: row.body,
            categoryName: row.category_name,
            updatedAt: new Date(row.updated_at),
          }),
        );
    },
  );
};
