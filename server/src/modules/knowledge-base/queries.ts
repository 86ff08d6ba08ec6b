import { containsPattern, maybe, one, type Queryable } from '../../db/index.ts';

type Ref = { id: string; name: string };
export type KbCategoryRow = {
  id: string;
  name: string;
  teams: Ref[];
  article_count: number;
  created_at: Date;
};
export type KbArticleRow = {
  id: string;
  organisation_id: string;
  title: string;
  body: string;
  public: boolean;
  public_slug: string;
  category_id: string;
  category_name: string;
  teams: Ref[];
  created_by: Ref | null;
  updated_by: Ref | null;
  created_at: Date;
  updated_at: Date;
};

const teamsOf = (link: string, key: string, id: string) => `
  coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name)
              from ${link} l join teams t on t.id = l.team_id and t.deleted_at is null
             where l.${key} = ${id}), '[]'::json)`;

/** `$user` null: every category of the organisation; else those available to one of the user's teams. */
const categoryFor = (userParam: string) => `
  (${userParam}::uuid is null or exists (
     select 1 from kb_category_teams ct join team_members m on m.team_id = ct.team_id and m.user_id = ${userParam}
      where ct.category_id = c.id))`;

/**
 * `$user` null: every article of the organisation; else those of the user's teams: the article's own teams, or, when
 * it names none, its category's.
 */
const articleFor = (userParam: string) => `
  (${userParam}::uuid is null or exists (
     select 1 from kb_article_teams ak join team_members m on m.team_id = ak.team_id and m.user_id = ${userParam}
      where ak.article_id = a.id)
   or (not exists (select 1 from kb_article_teams ak where ak.article_id = a.id) and ${categoryFor(userParam)}))`;

const selectCategory = `
  select c.id, c.name, c.created_at, ${teamsOf('kb_category_teams', 'category_id', 'c.id')} as teams,
         (select count(*)::int from kb_articles x where x.category_id = c.id) as article_count
    from kb_categories c`;

export const listCategories = (q: Queryable, orgId: string, userId: string | null) =>
  q.query<KbCategoryRow>(
    `${selectCategory} where c.organisation_id = $1 and ${categoryFor('$2')} order by lower(c.name), c.id`,
    [orgId, userId],
  );

export const findCategory = (q: Queryable, orgId: string, id: string) =>
  maybe<KbCategoryRow>(q, `${selectCategory} where c.id = $1 and c.organisation_id = $2`, [id, orgId]);

export const categoryNameTaken = async (q: Queryable, orgId: string, name: string, exceptId?: string) =>
  !!(await maybe(
    q,
    `select 1 from kb_categories where organisation_id = $1 and lower(name) = lower($2) and id is distinct from $3`,
    [orgId, name, exceptId ?? null],
  ));

export const insertCategory = async (q: Queryable, orgId: string, name: string) =>
  (
    await one<{ id: string }>(
      q,
      'insert into kb_categories (organisation_id, name) values ($1, $2) returning id',
      [orgId, name],
    )
  ).id;

export const renameCategory = (q: Queryable, orgId: string, id: string, name: string) =>
  q.query('update kb_categories set name = $3, updated_at = now() where id = $1 and organisation_id = $2', [
    id,
    orgId,
    name,
  ]);

/** Replaces the teams of a category (`kb_category_teams`) or an article (`kb_article_teams`). */
export async function setTeams(
  q: Queryable,
  link: 'kb_category_teams' | 'kb_article_teams',
  orgId: string,
  id: string,
  teamIds: string[],
) {
  const key = link === 'kb_category_teams' ? 'category_id' : 'article_id';
  await q.query(`delete from ${link} where ${key} = $1 and organisation_id = $2`, [id, orgId]);
  await q.query(
    `insert into ${link} (organisation_id, ${key}, team_id)
     select $1, $2, t.id from teams t where t.organisation_id = $1 and t.id = any($3::uuid[])`,
    [orgId, id, teamIds],
  );
}

/** Deletes a category with its articles. */
export const deleteCategory = (q: Queryable, orgId: string, id: string) =>
  q.query('delete from kb_categories where id = $1 and organisation_id = $2', [id, orgId]);

const userRef = (col: string) => `
  (select json_build_object('id', u.id, 'name', u.name) from users u where u.id = ${col})`;

const selectArticle = `
  select a.id, a.organisation_id, a.title, a.body, a.public, a.public_slug, a.category_id, c.name as category_name,
         ${teamsOf('kb_article_teams', 'article_id', 'a.id')} as teams,
         ${userRef('a.created_by')} as created_by, ${userRef('a.updated_by')} as updated_by,
         a.created_at, a.updated_at
    from kb_articles a join kb_categories c on c.id = a.category_id`;

export const listArticles = (
  q: Queryable,
  orgId: string,
  f: { userId: string | null; categoryId?: string },
) =>
  q.query<KbArticleRow>(
    `${selectArticle}
      where a.organisation_id = $1 and ${articleFor('$2')} and ($3::uuid is null or a.category_id = $3)
      order by lower(c.name), c.id, lower(a.title), a.id
      limit 1000`,
    [orgId, f.userId, f.categoryId ?? null],
  );

/**
 * Full-text matches first, by rank (title words weigh more than body words), then articles whose title or body only
 * contains the typed text (a word still being typed), newest first.
 */
export const searchArticles = (
  q: Queryable,
  orgId: string,
  userId: string | null,
  text: string,
  limit: number,
) =>
  q.query<KbArticleRow & { rank: number }>(
    `with query as (select websearch_to_tsquery('russian', $3) as tsq)
     ${selectArticle.replace('from kb_articles a', 'from query, kb_articles a')}
      where a.organisation_id = $1 and ${articleFor('$2')}
        and (a.search @@ query.tsq or a.title ilike $4 or a.body ilike $4)
      order by (a.search @@ query.tsq) desc, ts_rank(a.search, query.tsq) desc, (a.title ilike $4) desc,
               a.updated_at desc, a.id
      limit $5`,
    [orgId, userId, text, containsPattern(text), limit],
  );

export const findArticle = (q: Queryable, orgId: string, id: string) =>
  maybe<KbArticleRow>(q, `${selectArticle} where a.id = $1 and a.organisation_id = $2`, [id, orgId]);

/** An article as a user reads it: null when it is not available to their teams (`userId` null: any). */
export const findReadableArticle = (q: Queryable, orgId: string, id: string, userId: string | null) =>
  maybe<KbArticleRow>(
    q,
    `${selectArticle} where a.id = $1 and a.organisation_id = $2 and ${articleFor('$3')}`,
    [id, orgId, userId],
  );

/** A public article by its page's address; `orgId` is not trusted to be a uuid (it comes from a public URL). */
export const findPublicArticle = (q: Queryable, orgId: string, slug: string) =>
  maybe<KbArticleRow>(
    q,
    `${selectArticle} where a.organisation_id::text = $1 and a.public_slug = $2 and a.public`,
    [orgId, slug],
  );

export type ArticleInput = { categoryId: string; title: string; body: string; public: boolean };

export const insertArticle = async (
  q: Queryable,
  orgId: string,
  a: ArticleInput & { slug: string; userId: string | null },
) =>
  (
    await one<{ id: string }>(
      q,
      `insert into kb_articles (organisation_id, category_id, title, body, public, public_slug, created_by, updated_by)
       values ($1, $2, $3, $4, $5, $6, $7, $7) returning id`,
      [orgId, a.categoryId, a.title, a.body, a.public, a.slug, a.userId],
    )
  ).id;

export const updateArticle = (
  q: Queryable,
  orgId: string,
  id: string,
  a: Partial<ArticleInput> & { userId: string },
) =>
  q.query(
    `update kb_articles set category_id = coalesce($3, category_id), title = coalesce($4, title),
            body = coalesce($5, body), public = coalesce($6, public), updated_by = $7, updated_at = now()
      where id = $1 and organisation_id = $2`,
    [id, orgId, a.categoryId ?? null, a.title ?? null, a.body ?? null, a.public ?? null, a.userId],
  );

export const deleteArticle = (q: Queryable, orgId: string, id: string) =>
  q.query('delete from kb_articles where id = $1 and organisation_id = $2', [id, orgId]);
