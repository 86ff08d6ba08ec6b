import { maybe, one, type Queryable } from '../../db/index.ts';

export type CategoryRow = { id: string; name: string; created_at: Date };

export const listCategories = (q: Queryable, orgId: string) =>
  q.query<CategoryRow>(
    'select id, name, created_at from request_categories where organisation_id = $1 order by name, id',
    [orgId],
  );

export const findCategory = (q: Queryable, orgId: string, id: string) =>
  maybe<CategoryRow>(
    q,
    'select id, name, created_at from request_categories where id = $1 and organisation_id = $2',
    [id, orgId],
  );

export const nameTaken = async (q: Queryable, orgId: string, name: string, exceptId?: string) =>
  !!(await maybe(
    q,
    'select 1 from request_categories where organisation_id = $1 and lower(name) = lower($2) and id is distinct from $3',
    [orgId, name, exceptId ?? null],
  ));

export const insertCategory = (q: Queryable, orgId: string, name: string) =>
  one<CategoryRow>(
    q,
    'insert into request_categories (organisation_id, name) values ($1, $2) returning id, name, created_at',
    [orgId, name],
  );

export const renameCategory = (q: Queryable, orgId: string, id: string, name: string) =>
  q.query(
    'update request_categories set name = $3, updated_at = now() where id = $1 and organisation_id = $2',
    [id, orgId, name],
  );

export const deleteCategory = (q: Queryable, orgId: string, id: string) =>
  q.query('delete from request_categories where id = $1 and organisation_id = $2', [id, orgId]);
