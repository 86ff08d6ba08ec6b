import type { CategoryLevel } from '@smartconnect/contracts';
import { maybe, one, type Queryable } from '../../db/index.ts';

export type CategoryRow = {
  id: string;
  name: string;
  parent_id: string | null;
  level: CategoryLevel;
  team_ids: string[];
  created_at: Date;
  updated_at: Date;
};

const columns = 'id, name, parent_id, level, team_ids, created_at, updated_at';

/** Every node of the organisation (a few hundred at most): the tree is built from them in one read. */
export const listCategories = (q: Queryable, orgId: string) =>
  q.query<CategoryRow>(
    `select ${columns} from request_categories where organisation_id = $1 order by lower(name), name, id`,
    [orgId],
  );

export const findCategory = (q: Queryable, orgId: string, id: string) =>
  maybe<CategoryRow>(q, `select ${columns} from request_categories where id = $1 and organisation_id = $2`, [
    id,
    orgId,
  ]);

/** Whether a sibling (same parent; null: the top level) already has this name, case-insensitive. */
export const nameTaken = async (
  q: Queryable,
  orgId: string,
  parentId: string | null,
  name: string,
  exceptId?: string,
) =>
  !!(await maybe(
    q,
    `select 1 from request_categories
      where organisation_id = $1 and parent_id is not distinct from $2 and lower(name) = lower($3)
        and id is distinct from $4`,
    [orgId, parentId, name, exceptId ?? null],
  ));

export const insertCategory = (
  q: Queryable,
  orgId: string,
  c: { name: string; parentId: string | null; level: CategoryLevel; teamIds: string[] },
) =>
  one<CategoryRow>(
    q,
    `insert into request_categories (organisation_id, name, parent_id, level, team_ids)
     values ($1, $2, $3, $4, $5::uuid[]) returning ${columns}`,
    [orgId, c.name, c.parentId, c.level, c.teamIds],
  );

export const updateCategory = (
  q: Queryable,
  orgId: string,
  id: string,
  c: { name?: string; teamIds?: string[] },
) =>
  q.query(
    `update request_categories set name = coalesce($3, name), team_ids = coalesce($4::uuid[], team_ids),
            updated_at = now()
      where id = $1 and organisation_id = $2`,
    [id, orgId, c.name ?? null, c.teamIds ?? null],
  );

export const deleteCategory = (q: Queryable, orgId: string, id: string) =>
  q.query('delete from request_categories where id = $1 and organisation_id = $2', [id, orgId]);

/** The organisation's teams that exist (a deleted team no longer counts in a category's list). */
export const liveTeamIds = async (q: Queryable, orgId: string) =>
  (
    await q.query<{ id: string }>('select id from teams where organisation_id = $1 and deleted_at is null', [
      orgId,
    ])
  ).map((r) => r.id);

/** §6: platform staff locked the organisation's request categories (modifyDenied CATEGORY). */
export const categoriesLocked = async (q: Queryable, orgId: string) =>
  (
    await maybe<{ denied: boolean }>(
      q,
      `select 'CATEGORY' = any(modify_denied) as denied from organisations where id = $1`,
      [orgId],
    )
  )?.denied ?? false;
