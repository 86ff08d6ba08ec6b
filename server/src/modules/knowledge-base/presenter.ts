import type { KbArticleDto, KbCategoryDto } from '@smartconnect/contracts';
import type { KbArticleRow, KbCategoryRow } from './queries.ts';

export const publicArticlePath = (a: Pick<KbArticleRow, 'organisation_id' | 'public_slug'>) =>
  `/kb/${a.organisation_id}/${a.public_slug}`;

export const presentKbCategory = (c: KbCategoryRow): KbCategoryDto => ({
  id: c.id,
  name: c.name,
  teams: c.teams,
  articleCount: c.article_count,
  createdAt: new Date(c.created_at).toISOString(),
});

export const presentKbArticle = (a: KbArticleRow): KbArticleDto => ({
  id: a.id,
  title: a.title,
  body: a.body,
  category: { id: a.category_id, name: a.category_name },
  teams: a.teams,
  public: a.public,
  publicPath: a.public ? publicArticlePath(a) : null,
  createdBy: a.created_by,
  updatedBy: a.updated_by,
  createdAt: new Date(a.created_at).toISOString(),
  updatedAt: new Date(a.updated_at).toISOString(),
});
