import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { queryFlag } from './common.ts';
import { TEMPLATE_LIMITS } from './templates.ts';

/**
 * Knowledge base (issue 36, §2.6 profile side panel): articles in categories, available to teams, written by holders
 * of AUTHORITY_TEAM_TEMPLATE, searched from the chat's side panel and the composer, public ones with a page of their own.
 */
export const KB_LIMITS = {
  categoryNameMax: TEMPLATE_LIMITS.categoryNameMax,
  titleMax: 255,
  bodyMax: 20_000,
  searchMax: 255,
  searchResults: 20,
} as const;

const at = z.iso.datetime({ offset: true });
const ref = z.object({ id: z.uuid(), name: z.string() });

export const kbCategoryFields = {
  name: z
    .string(M.nameIncorrect)
    .trim()
    .min(1, M.nameIncorrect)
    .max(KB_LIMITS.categoryNameMax, M.nameIncorrect),
  /** The teams whose members read the category's articles (those that name no teams of their own): at least one. */
  teamIds: z.array(z.uuid(M.teamIncorrect), M.teamIncorrect).min(1, M.teamIncorrect),
};
export const kbCategoryCreateSchema = z.object(kbCategoryFields);
export const kbCategoryUpdateSchema = z.object(kbCategoryFields).partial();

export const kbArticleFields = {
  categoryId: z.uuid(M.categoryMustBeChosen),
  title: z.string(M.requiredFields).trim().min(1, M.requiredFields).max(KB_LIMITS.titleMax, M.valueIncorrect),
  /** Plain text with a markdown subset (paragraphs, lists, **bold**); shown as text, never as markup. */
  body: z.string(M.valueIncorrect).trim().max(KB_LIMITS.bodyMax, M.valueIncorrect),
  /** The article's own teams; none: its category's teams read it. */
  teamIds: z.array(z.uuid(M.teamIncorrect), M.teamIncorrect),
  /** Public articles have a page anyone with its address may read (/kb/{organisationId}/{publicSlug}). */
  public: z.boolean(M.valueIncorrect),
};
export const kbArticleCreateSchema = z.object({
  ...kbArticleFields,
  body: kbArticleFields.body.default(''),
  teamIds: kbArticleFields.teamIds.default([]),
  public: kbArticleFields.public.default(false),
});
export const kbArticleUpdateSchema = z.object(kbArticleFields).partial();

export const kbCategoryListQuerySchema = z.object({ all: queryFlag });
export const kbArticleListQuerySchema = z.object({
  categoryId: z.uuid(M.incorrectValue).optional(),
  /** Every article of the organisation, not only the caller's teams' (needs AUTHORITY_TEAM_TEMPLATE). */
  all: queryFlag,
});
export const kbSearchQuerySchema = z.object({
  q: z.string(M.incorrectValue).trim().min(1, M.incorrectValue).max(KB_LIMITS.searchMax, M.incorrectValue),
});

export const kbCategoryDto = z.object({
  id: z.uuid(),
  name: z.string(),
  teams: z.array(ref),
  articleCount: z.number().int(),
  createdAt: at,
});
export type KbCategoryDto = z.infer<typeof kbCategoryDto>;

export const kbArticleDto = z.object({
  id: z.uuid(),
  title: z.string(),
  body: z.string(),
  category: ref,
  teams: z.array(ref),
  public: z.boolean(),
  /** The public page's path (/kb/{organisationId}/{slug}) while the article is public, else null. */
  publicPath: z.string().nullable(),
  createdBy: ref.nullable(),
  updatedBy: ref.nullable(),
  createdAt: at,
  updatedAt: at,
});
export type KbArticleDto = z.infer<typeof kbArticleDto>;
