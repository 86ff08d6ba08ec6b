import { randomBytes } from 'node:crypto';
import {
  type kbArticleCreateSchema,
  type kbArticleUpdateSchema,
  type kbCategoryCreateSchema,
  type kbCategoryUpdateSchema,
  FIELD_MESSAGES as M,
} from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { checkedTeamIds } from '../teams/readers.ts';
import { assertTemplatesModifiable } from '../templates/policy.ts';
import * as Q from './queries.ts';

/** A category of the caller's organisation chosen for an article; anything else is §5 'a category must be chosen'. */
async function checkCategory(q: Queryable, orgId: string, id: string) {
  if (!(await Q.findCategory(q, orgId, id))) {
    throw new AppError('validationException', { categoryId: M.categoryMustBeChosen });
  }
}

/** The public page's slug: the title's Latin words (readable), then random letters (not guessable). */
export function articleSlug(title: string): string {
  const words = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  const tail = randomBytes(6).toString('hex');
  return words ? `${words}-${tail}` : tail;
}

/** Categories with their teams and articles, written as they are (the Demo organisation's seed). */
export async function addKbArticles(
  q: Queryable,
  orgId: string,
  categories: {
    name: string;
    teamIds: string[];
    articles: { title: string; body: string; public: boolean }[];
  }[],
) {
  for (const c of categories) {
    const categoryId = await Q.insertCategory(q, orgId, c.name);
    await Q.setTeams(q, 'kb_category_teams', orgId, categoryId, c.teamIds);
    for (const a of c.articles)
      await Q.insertArticle(q, orgId, { ...a, categoryId, slug: articleSlug(a.title), userId: null });
  }
}

export async function getKbCategory(q: Queryable, orgId: string, id: string) {
  const row = await Q.findCategory(q, orgId, id);
  if (!row) throw new AppError('categoryNotFoundException');
  return row;
}

export async function getKbArticle(q: Queryable, orgId: string, id: string) {
  const row = await Q.findArticle(q, orgId, id);
  if (!row) throw new AppError('articleNotFoundException');
  return row;
}

/** An article the reader's teams may read (`userId` null: any of the organisation); else articleNotFoundException. */
export async function readKbArticle(q: Queryable, orgId: string, id: string, userId: string | null) {
  const row = await Q.findReadableArticle(q, orgId, id, userId);
  if (!row) throw new AppError('articleNotFoundException');
  return row;
}

/** Creates a knowledge-base category with a name unique in the organisation, available to its teams. */
export function createKbCategory(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof kbCategoryCreateSchema>,
) {
  return app.db.tx(async (q) => {
    await assertTemplatesModifiable(q, auth);
    if (await Q.categoryNameTaken(q, auth.organisationId, input.name))
      throw new AppError('categoryNameAlreadyExistsException');
    const teamIds = await checkedTeamIds(q, auth.organisationId, input.teamIds);
    const id = await Q.insertCategory(q, auth.organisationId, input.name);
    await Q.setTeams(q, 'kb_category_teams', auth.organisationId, id, teamIds);
    return getKbCategory(q, auth.organisationId, id);
  });
}

export function updateKbCategory(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof kbCategoryUpdateSchema>,
) {
  return app.db.tx(async (q) => {
    await getKbCategory(q, auth.organisationId, id);
    await assertTemplatesModifiable(q, auth);
    if (input.name !== undefined) {
      if (await Q.categoryNameTaken(q, auth.organisationId, input.name, id))
        throw new AppError('categoryNameAlreadyExistsException');
      await Q.renameCategory(q, auth.organisationId, id, input.name);
    }
    if (input.teamIds) {
      const teamIds = await checkedTeamIds(q, auth.organisationId, input.teamIds);
      await Q.setTeams(q, 'kb_category_teams', auth.organisationId, id, teamIds);
    }
    return getKbCategory(q, auth.organisationId, id);
  });
}

/** Deletes a category and its articles (their public pages go with them). */
export function deleteKbCategory(app: AppContext, auth: AuthContext, id: string) {
  return app.db.tx(async (q) => {
    await getKbCategory(q, auth.organisationId, id);
    await assertTemplatesModifiable(q, auth);
    await Q.deleteCategory(q, auth.organisationId, id);
  });
}

/** Creates an article in a category of the organisation, with its own teams (or none: the category's). */
export function createKbArticle(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof kbArticleCreateSchema>,
) {
  return app.db.tx(async (q) => {
    await assertTemplatesModifiable(q, auth);
    await checkCategory(q, auth.organisationId, input.categoryId);
    const teamIds = await checkedTeamIds(q, auth.organisationId, input.teamIds);
    const id = await Q.insertArticle(q, auth.organisationId, {
      ...input,
      slug: articleSlug(input.title),
      userId: auth.userId,
    });
    await Q.setTeams(q, 'kb_article_teams', auth.organisationId, id, teamIds);
    return getKbArticle(q, auth.organisationId, id);
  });
}

export function updateKbArticle(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof kbArticleUpdateSchema>,
) {
  return app.db.tx(async (q) => {
    await getKbArticle(q, auth.organisationId, id);
    await assertTemplatesModifiable(q, auth);
    if (input.categoryId) await checkCategory(q, auth.organisationId, input.categoryId);
    if (input.teamIds) {
      const teamIds = await checkedTeamIds(q, auth.organisationId, input.teamIds);
      await Q.setTeams(q, 'kb_article_teams', auth.organisationId, id, teamIds);
    }
    await Q.updateArticle(q, auth.organisationId, id, { ...input, userId: auth.userId });
    return getKbArticle(q, auth.organisationId, id);
  });
}

export function deleteKbArticle(app: AppContext, auth: AuthContext, id: string) {
  return app.db.tx(async (q) => {
    await getKbArticle(q, auth.organisationId, id);
    await assertTemplatesModifiable(q, auth);
    await Q.deleteArticle(q, auth.organisationId, id);
  });
}
