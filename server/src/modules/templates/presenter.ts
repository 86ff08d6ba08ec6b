import type { TemplateCategoryDto, TemplateDto } from '@smartconnect/contracts';
import type { TemplateCategoryRow, TemplateRow } from './queries.ts';

export const presentTemplateCategory = (c: TemplateCategoryRow): TemplateCategoryDto => ({
  id: c.id,
  name: c.name,
  teams: c.teams,
  templateCount: c.template_count,
  createdAt: new Date(c.created_at).toISOString(),
});

export const presentTemplate = (t: TemplateRow): TemplateDto => ({
  id: t.id,
  text: t.text,
  category: { id: t.category_id, name: t.category_name },
  createdAt: new Date(t.created_at).toISOString(),
  updatedAt: new Date(t.updated_at).toISOString(),
});
