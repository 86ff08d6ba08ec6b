import {
  FIELD_MESSAGES as M,
  type templateCategoryCreateSchema,
  type templateCategoryUpdateSchema,
  type templateCreateSchema,
  type templateUpdateSchema,
} from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { checkedTeamIds } from '../teams/readers.ts';
import { assertTemplatesModifiable } from './policy.ts';
import * as Q from './queries.ts';

/** A category of the caller's organisation chosen for a template; anything else is §5 'a category must be chosen'. */
async function checkCategory(q: Queryable, orgId: string, id: string) {
  if (!(await Q.findCategory(q, orgId, id))) {
    throw new AppError('validationException', { categoryId: M.categoryMustBeChosen });
  }
}

export async function getTemplateCategory(q: Queryable, orgId: string, id: string) {
  const row = await Q.findCategory(q, orgId, id);
  if (!row) throw new AppError('categoryNotFoundException');
  return row;
}

export async function getTemplate(q: Queryable, orgId: string, id: string) {
  const row = await Q.findTemplate(q, orgId, id);
  if (!row) throw new AppError('templateNotFoundException');
  return row;
}

/** Creates a template category with a name unique in the organisation, available to teams of the organisation. */
export function createTemplateCategory(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof templateCategoryCreateSchema>,
) {
  return app.db.tx(async (q) => {
    await assertTemplatesModifiable(q, auth);
    if (await Q.categoryNameTaken(q, auth.organisationId, input.name))
      throw new AppError('categoryNameAlreadyExistsException');
    const teamIds = await checkedTeamIds(q, auth.organisationId, input.teamIds);
    const id = await Q.insertCategory(q, auth.organisationId, input.name);
    await Q.setCategoryTeams(q, auth.organisationId, id, teamIds);
    return getTemplateCategory(q, auth.organisationId, id);
  });
}

export function updateTemplateCategory(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof templateCategoryUpdateSchema>,
) {
  return app.db.tx(async (q) => {
    await getTemplateCategory(q, auth.organisationId, id);
    await assertTemplatesModifiable(q, auth);
    if (input.name !== undefined) {
      if (await Q.categoryNameTaken(q, auth.organisationId, input.name, id))
        throw new AppError('categoryNameAlreadyExistsException');
      await Q.renameCategory(q, auth.organisationId, id, input.name);
    }
    if (input.teamIds) {
      await Q.setCategoryTeams(
        q,
        auth.organisationId,
        id,
        await checkedTeamIds(q, auth.organisationId, input.teamIds),
      );
    }
    return getTemplateCategory(q, auth.organisationId, id);
  });
}

/** Deletes a category and its templates. */
export function deleteTemplateCategory(app: AppContext, auth: AuthContext, id: string) {
  return app.db.tx(async (q) => {
    await getTemplateCategory(q, auth.organisationId, id);
    await assertTemplatesModifiable(q, auth);
    await Q.deleteCategory(q, auth.organisationId, id);
  });
}

export function createTemplate(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof templateCreateSchema>,
) {
  return app.db.tx(async (q) => {
    await assertTemplatesModifiable(q, auth);
    await checkCategory(q, auth.organisationId, input.categoryId);
    const id = await Q.insertTemplate(q, auth.organisationId, { ...input, createdBy: auth.userId });
    return getTemplate(q, auth.organisationId, id);
  });
}

export function updateTemplate(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof templateUpdateSchema>,
) {
  return app.db.tx(async (q) => {
    await getTemplate(q, auth.organisationId, id);
    await assertTemplatesModifiable(q, auth);
    if (input.categoryId) await checkCategory(q, auth.organisationId, input.categoryId);
    await Q.updateTemplate(q, auth.organisationId, id, input);
    return getTemplate(q, auth.organisationId, id);
  });
}

export function deleteTemplate(app: AppContext, auth: AuthContext, id: string) {
  return app.db.tx(async (q) => {
    await getTemplate(q, auth.organisationId, id);
    await assertTemplatesModifiable(q, auth);
    await Q.deleteTemplate(q, auth.organisationId, id);
  });
}

/** Adds categories and their templates without an acting user's checks: for bootstrapping an organisation (seed). */
export async function addTemplates(
  q: Queryable,
  organisationId: string,
  categories: { name: string; teamIds: string[]; templates: string[] }[],
) {
  for (const c of categories) {
    const id = await Q.insertCategory(q, organisationId, c.name);
    await Q.setCategoryTeams(q, organisationId, id, c.teamIds);
    for (const text of c.templates)
      await Q.insertTemplate(q, organisationId, { text, categoryId: id, createdBy: null });
  }
}
