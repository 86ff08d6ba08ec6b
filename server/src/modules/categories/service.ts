import type { CategoryDto } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import * as Q from './queries.ts';

export const presentCategory = (c: Q.CategoryRow): CategoryDto => ({
  id: c.id,
  name: c.name,
  createdAt: new Date(c.created_at).toISOString(),
});

export async function getCategory(app: AppContext, orgId: string, id: string) {
  const row = await Q.findCategory(app.db, orgId, id);
  if (!row) throw new AppError('categoryNotFoundException');
  return row;
}

/** Creates a request category with a name unique in the organisation (case-insensitive). */
export async function createCategory(app: AppContext, orgId: string, name: string) {
  return app.db.tx(async (q) => {
    if (await Q.nameTaken(q, orgId, name)) throw new AppError('categoryNameAlreadyExistsException');
    return Q.insertCategory(q, orgId, name);
  });
}

export async function renameCategory(app: AppContext, orgId: string, id: string, name: string) {
  await getCategory(app, orgId, id);
  await app.db.tx(async (q) => {
    if (await Q.nameTaken(q, orgId, name, id)) throw new AppError('categoryNameAlreadyExistsException');
    await Q.renameCategory(q, orgId, id, name);
  });
  return getCategory(app, orgId, id);
}

/** Deletes a category; chats that carried it keep their history and lose the category. */
export async function deleteCategory(app: AppContext, orgId: string, id: string) {
  await getCategory(app, orgId, id);
  await Q.deleteCategory(app.db, orgId, id);
}
