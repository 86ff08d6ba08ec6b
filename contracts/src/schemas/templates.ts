import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { MESSAGE_TEXT_MAX } from './channels.ts';
import { queryFlag } from './common.ts';

/** Quick-reply templates (§3 "Template category and template", §5 Templates). */
export const TEMPLATE_LIMITS = { categoryNameMax: 64, textMax: MESSAGE_TEXT_MAX, searchMax: 255 } as const;

const at = z.iso.datetime({ offset: true });
const ref = z.object({ id: z.uuid(), name: z.string() });

export const templateCategoryFields = {
  name: z
    .string(M.nameIncorrect)
    .trim()
    .min(1, M.nameIncorrect)
    .max(TEMPLATE_LIMITS.categoryNameMax, M.nameIncorrect),
  /** The teams whose members may use the category's templates: at least one. */
  teamIds: z.array(z.uuid(M.teamIncorrect), M.teamIncorrect).min(1, M.teamIncorrect),
};
export const templateCategoryCreateSchema = z.object(templateCategoryFields);
export const templateCategoryUpdateSchema = z.object(templateCategoryFields).partial();

/** §5 Templates: a category must be chosen. The text keeps `{variable}` placeholders (TEMPLATE_VARIABLES). */
export const templateFields = {
  text: z
    .string(M.requiredFields)
    .trim()
    .min(1, M.requiredFields)
    .max(TEMPLATE_LIMITS.textMax, M.valueIncorrect),
  categoryId: z.uuid(M.categoryMustBeChosen),
};
export const templateCreateSchema = z.object(templateFields);
export const templateUpdateSchema = z.object(templateFields).partial();

export const templateListQuerySchema = z.object({
  search: z.string().trim().max(TEMPLATE_LIMITS.searchMax, M.incorrectValue).optional(),
  categoryId: z.uuid(M.incorrectValue).optional(),
  /** Every template of the organisation, not only the caller's teams' (needs AUTHORITY_TEAM_TEMPLATE). */
  all: queryFlag,
});
export const templateCategoryListQuerySchema = z.object({ all: queryFlag });

export const templateCategoryDto = z.object({
  id: z.uuid(),
  name: z.string(),
  teams: z.array(ref),
  templateCount: z.number().int(),
  createdAt: at,
});
export type TemplateCategoryDto = z.infer<typeof templateCategoryDto>;

export const templateDto = z.object({
  id: z.uuid(),
  text: z.string(),
  category: ref,
  createdAt: at,
  updatedAt: at,
});
export type TemplateDto = z.infer<typeof templateDto>;

/** §3 WhatsApp template (read-only; registered at the provider, listed by the WhatsApp channel when it exists). */
export const whatsAppTemplateDto = z.object({
  id: z.string(),
  channelId: z.uuid(),
  /** The provider's name and language code of the template (what a send names). */
  name: z.string(),
  languageCode: z.string(),
  type: z.string(),
  registeredAt: at.nullable(),
  header: z.string().nullable(),
  text: z.string(),
  footer: z.string().nullable(),
  buttons: z.array(z.object({ type: z.string(), action: z.string(), link: z.string().nullable() })),
  language: z.enum(['rus', 'eng']),
});
export type WhatsAppTemplateDto = z.infer<typeof whatsAppTemplateDto>;

export const PROVIDER_TEMPLATE_LIMITS = { variablesMax: 20, variableMax: 1024 } as const;

/**
 * `POST /api/chats/{id}/template-messages`: one of the chat channel's registered templates (its `id` from the
 * list) with a value for each of its body's variables {{1}}, {{2}}..., in order.
 */
export const templateMessageSchema = z.object({
  templateId: z.string(M.requiredFields).trim().min(1, M.requiredFields).max(255, M.valueIncorrect),
  variables: z
    .array(
      z
        .string(M.requiredFields)
        .trim()
        .min(1, M.requiredFields)
        .max(PROVIDER_TEMPLATE_LIMITS.variableMax, M.valueIncorrect),
      M.valueIncorrect,
    )
    .max(PROVIDER_TEMPLATE_LIMITS.variablesMax, M.valueIncorrect)
    .default([]),
});
export type TemplateMessageInput = z.output<typeof templateMessageSchema>;

/** The numbers of a template body's variables ({{1}}, {{2}}...), sorted, each once. */
export function providerTemplateVariables(body: string): number[] {
  return [...new Set([...body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1])))].sort(
    (a, b) => a - b,
  );
}

/** A template body with its variables filled in ({{n}} -> values[n - 1]; a missing value leaves the placeholder). */
export function fillProviderTemplate(body: string, values: readonly string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (all, n: string) => values[Number(n) - 1] ?? all);
}
