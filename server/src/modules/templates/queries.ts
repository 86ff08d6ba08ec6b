import { containsPattern, maybe, one, type Queryable } from '../../db/index.ts';

export type TemplateCategoryRow = {
  id: string;
  name: string;
  teams: { id: string; name: string }[];
  template_count: number;
  created_at: Date;
};
export type TemplateRow = {
  id: string;
  text: string;
  category_id: string;
  category_name: string;
  created_at: Date;
  updated_at: Date;
};

/** `$user` is null for "every category of the organisation", else only those available to one of the user's teams. */
const availableTo = (alias: string, userParam: string) => `
  (${userParam}::uuid is null or exists (
     select 1 from template_category_teams ct
       join team_members m on m.team_id = ct.team_id and m.user_id = ${userParam}
      where ct.category_id = ${alias}.id))`;

const selectCategory = `
  select c.id, c.name, c.created_at,
         coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name)
                     from template_category_teams ct join teams t on t.id = ct.team_id and t.deleted_at is null
                    where ct.category_id = c.id), '[]'::json) as teams,
         (select count(*)::int from templates x where x.category_id = c.id) as template_count
    from template_categories c`;

export const listCategories = (q: Queryable, orgId: string, userId: string | null) =>
  q.query<TemplateCategoryRow>(
    `${selectCategory} where c.organisation_id = $1 and ${availableTo('c', '$2')} order by lower(c.name), c.id`,
    [orgId, userId],
  );

export const findCategory = (q: Queryable, orgId: string, id: string) =>
  maybe<TemplateCategoryRow>(q, `${selectCategory} where c.id = $1 and c.organisation_id = $2`, [id, orgId]);

export const categoryNameTaken = async (q: Queryable, orgId: string, name: string, exceptId?: string) =>
  !!(await maybe(
    q,
    `select 1 from template_categories
      where organisation_id = $1 and lower(name) = lower($2) and id is distinct from $3`,
    [orgId, name, exceptId ?? null],
  ));

export const insertCategory = async (q: Queryable, orgId: string, name: string) =>
  (
    await one<{ id: string }>(
      q,
      'insert into template_categories (organisation_id, name) values ($1, $2) returning id',
      [orgId, name],
    )
  ).id;

export const renameCategory = (q: Queryable, orgId: string, id: string, name: string) =>
  q.query(
    'update template_categories set name = $3, updated_at = now() where id = $1 and organisation_id = $2',
    [id, orgId, name],
  );

export async function setCategoryTeams(q: Queryable, orgId: string, id: string, teamIds: string[]) {
  await q.query('delete from template_category_teams where category_id = $1 and organisation_id = $2', [
    id,
    orgId,
  ]);
  await q.query(
    `insert into template_category_teams (organisation_id, category_id, team_id)
     select $1, $2, t.id from teams t where t.organisation_id = $1 and t.id = any($3::uuid[])`,
    [orgId, id, teamIds],
  );
}

/** Deletes a category with its templates. */
export const deleteCategory = (q: Queryable, orgId: string, id: string) =>
  q.query('delete from template_categories where id = $1 and organisation_id = $2', [id, orgId]);

const selectTemplate = `
  select x.id, x.text, x.category_id, c.name as category_name, x.created_at, x.updated_at
    from templates x join template_categories c on c.id = x.category_id`;

export const listTemplates = (
  q: Queryable,
  orgId: string,
  f: { userId: string | null; search?: string; categoryId?: string },
) =>
  q.query<TemplateRow>(
    `${selectTemplate}
      where x.organisation_id = $1 and ${availableTo('c', '$2')}
        and ($3::text is null or x.text ilike $3 or c.name ilike $3)
        and ($4::uuid is null or x.category_id = $4)
      order by lower(c.name), c.id, x.text, x.id
      limit 500`,
    [orgId, f.userId, f.search ? containsPattern(f.search) : null, f.categoryId ?? null],
  );

export const findTemplate = (q: Queryable, orgId: string, id: string) =>
  maybe<TemplateRow>(q, `${selectTemplate} where x.id = $1 and x.organisation_id = $2`, [id, orgId]);

export const insertTemplate = async (
  q: Queryable,
  orgId: string,
  t: { text: string; categoryId: string; createdBy: string | null },
) =>
  (
    await one<{ id: string }>(
      q,
      `insert into templates (organisation_id, category_id, text, created_by)
       values ($1, $2, $3, $4) returning id`,
      [orgId, t.categoryId, t.text, t.createdBy],
    )
  ).id;

export const updateTemplate = (
  q: Queryable,
  orgId: string,
  id: string,
  t: { text?: string; categoryId?: string },
) =>
  q.query(
    `update templates set text = coalesce($3, text), category_id = coalesce($4, category_id), updated_at = now()
      where id = $1 and organisation_id = $2`,
    [id, orgId, t.text ?? null, t.categoryId ?? null],
  );

export const deleteTemplate = (q: Queryable, orgId: string, id: string) =>
  q.query('delete from templates where id = $1 and organisation_id = $2', [id, orgId]);

/** §6: whether the organisation's team templates may be changed at all. */
export const templateModifyDenied = async (q: Queryable, orgId: string) =>
  (
    await maybe<{ denied: boolean }>(
      q,
      `select 'TEMPLATE' = any(modify_denied) as denied from organisations where id = $1`,
      [orgId],
    )
  )?.denied ?? true;
