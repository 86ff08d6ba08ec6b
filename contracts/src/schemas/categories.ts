import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/**
 * Request categories (§3): category -> theme (topic) -> subtheme (subtopic). Each node has the teams it is
 * available to; an empty list means the same teams as its parent (at the top: every team of the organisation).
 */
export const CATEGORY_LEVELS = [1, 2, 3] as const;
export type CategoryLevel = (typeof CATEGORY_LEVELS)[number];
export const CATEGORY_NAME_MAX = 255;
/** How a category's path is written: 'Category › Theme › Subtheme'. */
export const CATEGORY_PATH_SEPARATOR = ' › ';

// A name is one line of text: no line breaks, tabs or other control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const name = z
  .string(M.nameIncorrect)
  .trim()
  .min(1, M.nameIncorrect)
  .max(CATEGORY_NAME_MAX, M.nameTooLong)
  .refine((v) => !CONTROL.test(v), M.nameIncorrect)
  .describe(
    `Unique among its siblings (case-insensitive), at most ${CATEGORY_NAME_MAX} characters, one line; ` +
      'empty: 400 sessionCategoryInvalidNameException, too long: 400 sessionCategoryNameTooLongException',
  );
const teamIds = z
  .array(z.uuid(M.teamIncorrect), M.teamIncorrect)
  .max(500, M.teamIncorrect)
  .describe("Teams it is available to; [] = its parent's teams (at the top: every team)");

/** `POST /api/categories`: a category (no parentId), a theme (parent: a category) or a subtheme (parent: a theme). */
export const categoryCreateSchema = z.object({
  name,
  parentId: z
    .uuid(M.valueIncorrect)
    .nullable()
    .optional()
    .describe('The category of a new theme, or the theme of a new subtheme; omitted or null: a category'),
  teamIds: teamIds.default([]),
});
/** Kept for the first callers: a category by its name alone. */
export const categorySchema = categoryCreateSchema;
export type CategoryInput = z.input<typeof categoryCreateSchema>;

/** `PATCH /api/categories/{id}`: rename and/or change the teams; a node does not move to another parent. */
export const categoryUpdateSchema = z.object({ name: name.optional(), teamIds: teamIds.optional() });

/** `GET /api/categories`: the tree, optionally only what one team may use. */
export const categoryListQuerySchema = z.object({
  teamId: z
    .uuid(M.teamIncorrect)
    .optional()
    .describe('Only the nodes available to this team (the chat top bar picker asks with the chat’s team)'),
});

/** The request category of a chat: its own id and name and its path of names from the top ('Category', ...). */
export type ChatCategoryRef = { id: string; name: string; path: string[] };

export type CategoryDto = {
  id: string;
  name: string;
  parentId: string | null;
  level: CategoryLevel;
  /** Names from the top category down to this node, this one included. */
  path: string[];
  /** The teams set on this node ([] = as its parent). */
  teamIds: string[];
  /** The teams that may use it, its parents' lists included; null = every team. */
  availableTeamIds: string[] | null;
  /** Themes of a category, subthemes of a theme (by name); [] for a subtheme. */
  children: CategoryDto[];
  createdAt: string;
  updatedAt: string;
};

const at = z.iso.datetime({ offset: true });
export const categoryDto: z.ZodType<CategoryDto> = z.object({
  id: z.uuid(),
  name: z.string(),
  parentId: z.uuid().nullable(),
  level: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  path: z.array(z.string()),
  teamIds: z.array(z.uuid()),
  availableTeamIds: z.array(z.uuid()).nullable(),
  get children() {
    return z.array(categoryDto);
  },
  createdAt: at,
  updatedAt: at,
});
