import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { toE164 } from '../phone.ts';
import { clientDto } from './responses.ts';

/**
 * Client profiles (issue 14, spec §3 "Customer profile", "Customer status", §4 contact merge): statuses of the
 * 13-colour palette, outer companies, phones and e-mails, tags, extra fields, comments, blacklist and merge.
 */

/** §3: the 13 colours of a customer status. The hex values all pass WCAG AA (4.5:1) with white text. */
export const CLIENT_STATUS_COLORS = {
  light_blue: '#0369A1',
  green: '#15803D',
  red: '#B91C1C',
  orange: '#C2410C',
  light_green: '#4D7C0F',
  gray: '#4B5563',
  dark_blue: '#1E3A8A',
  pink: '#BE185D',
  brown: '#78350F',
  blue: '#1D4ED8',
  black: '#111827',
  yellow: '#A16207',
  violet: '#6D28D9',
} as const;
export type ClientStatusColor = keyof typeof CLIENT_STATUS_COLORS;
export const CLIENT_STATUS_COLOR_NAMES = Object.keys(CLIENT_STATUS_COLORS) as [
  ClientStatusColor,
  ...ClientStatusColor[],
];

/** §3: the session status on the client card. */
export const SESSION_STATUSES = [
  'NEW',
  'POTENTIAL_CLIENT',
  'CONTACT_LATER',
  'COMPLETED',
  'NOT_OUR_CLIENT',
  'REFUSAL',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const CLIENT_PROFILE_LIMITS = {
  name: 32,
  statusName: 32,
  companyName: 255,
  tag: 50,
  tags: 50,
  fieldName: 64,
  fieldValue: 1000,
  fields: 50,
  contacts: 20,
  comment: 2000,
  mergeSources: 20,
} as const;
const L = CLIENT_PROFILE_LIMITS;

export const CONTACT_KINDS = ['phone', 'email'] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

/** A phone as stored and searched: E.164, by the one normaliser (phone.ts). */
export const normalisePhone = toE164;
export const normaliseEmail = (v: string) => v.trim().toLowerCase();

const contactInput = z
  .object({ kind: z.enum(CONTACT_KINDS, M.valueIncorrect), value: z.string(M.incorrectValue).trim() })
  .transform((c) => ({
    kind: c.kind,
    value: c.kind === 'phone' ? normalisePhone(c.value) : normaliseEmail(c.value),
  }))
  .superRefine((c, ctx) => {
    const ok = c.kind === 'phone' ? /^\+?\d{5,20}$/.test(c.value) : z.email().safeParse(c.value).success;
    if (!ok)
      ctx.addIssue({
        code: 'custom',
        message: c.kind === 'phone' ? M.phoneIncorrect : M.invalidEmailFormat,
        path: ['value'],
      });
  });

const tag = z.string(M.incorrectValue).trim().min(1, M.incorrectValue).max(L.tag, M.incorrectValue);
const field = z.object({
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(L.fieldName, M.nameTooLong),
  value: z.string(M.incorrectValue).trim().max(L.fieldValue, M.incorrectValue),
});

/** `PATCH /api/clients/{id}`: every key optional; a list given replaces the client's list. */
export const clientProfileUpdateSchema = z.object({
  // §5 "Profile name: not empty, at most 32" (DECISIONS.md: the client profile's name).
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(L.name, M.nameIncorrect).optional(),
  personalManagerId: z.uuid(M.valueIncorrect).nullable().optional(),
  managerId: z
    .uuid(M.valueIncorrect)
    .nullable()
    .optional()
    .describe('The personal manager (same as personalManagerId)'),
  tags: z.array(tag, M.incorrectValue).max(L.tags, M.incorrectValue).optional(),
  fields: z.array(field, M.incorrectValue).max(L.fields, M.incorrectValue).optional(),
  statusId: z
    .uuid(M.valueIncorrect)
    .nullable()
    .optional()
    .describe('A customer status (OPTION_PROFILE_STATUS)'),
  companyIds: z.array(z.uuid(M.valueIncorrect), M.valueIncorrect).max(50, M.valueIncorrect).optional(),
  spam: z.boolean(M.valueIncorrect).optional(),
  /** Issue 33: true marks the client opted out of advertising mailings (as their opt-out reply does); false: consents again. */
  advertisingOptOut: z.boolean(M.valueIncorrect).optional(),
  sessionStatus: z.enum(SESSION_STATUSES, M.valueIncorrect).nullable().optional(),
  contacts: z
    .array(contactInput, M.incorrectValue)
    .max(L.contacts, M.incorrectValue)
    .optional()
    .describe("The client's phones and e-mails (each belongs to one client of the organisation)"),
});
export type ClientProfileUpdate = z.output<typeof clientProfileUpdateSchema>;

export const clientCommentSchema = z.object({
  text: z.string(M.requiredFields).trim().min(1, M.requiredFields).max(L.comment, M.incorrectValue),
});

export const clientStatusSchema = z.object({
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(L.statusName, M.nameTooLong),
  color: z.enum(CLIENT_STATUS_COLOR_NAMES, M.valueIncorrect),
});
export const companySchema = z.object({
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(L.companyName, M.nameTooLong),
});
export const companyQuerySchema = z.object({
  search: z.string(M.incorrectValue).trim().max(100, M.incorrectValue).optional(),
});

/** `GET /api/clients`: `q` is the create-chat lookup; otherwise the clients list (OPTION_PROFILE), newest first. */
export const clientListQuerySchema = z.object({
  q: z.string(M.incorrectValue).trim().min(1, M.requiredFields).max(100, M.incorrectValue).optional(),
  search: z
    .string(M.incorrectValue)
    .trim()
    .max(100, M.incorrectValue)
    .optional()
    .describe('A name (its beginning), a phone, an e-mail or a tag'),
  statusId: z.uuid(M.valueIncorrect).optional(),
  companyId: z.uuid(M.valueIncorrect).optional(),
  managerId: z.uuid(M.valueIncorrect).optional(),
  blocked: z.enum(['true', 'false'], M.valueIncorrect).optional().describe('true: only the blacklist'),
  cursor: z.uuid(M.incorrectValue).optional().describe('nextCursor of the previous page'),
  limit: z.coerce
    .number(M.incorrectValue)
    .int(M.incorrectValue)
    .min(1, M.incorrectValue)
    .max(200, M.incorrectValue)
    .default(50),
});

export const blacklistSchema = z.object({ clientId: z.uuid(M.valueIncorrect) });
export const clientIdParams = z.object({ clientId: z.uuid('Not found') });

export const mergeSchema = z
  .object({
    targetId: z.uuid(M.valueIncorrect),
    sourceIds: z
      .array(z.uuid(M.valueIncorrect), M.valueIncorrect)
      .min(1, M.requiredFields)
      .max(L.mergeSources, M.valueIncorrect),
  })
  .refine((b) => !b.sourceIds.includes(b.targetId) && new Set(b.sourceIds).size === b.sourceIds.length, {
    message: M.valueIncorrect,
    path: ['sourceIds'],
  });

// Answers.
const at = z.iso.datetime({ offset: true });
const ref = z.object({ id: z.uuid(), name: z.string() });
export const clientStatusDto = z.object({
  id: z.uuid(),
  name: z.string(),
  color: z.enum(CLIENT_STATUS_COLOR_NAMES),
  hex: z.string(),
  clients: z.number().int().describe('Clients having it'),
});
export type ClientStatusDto = z.infer<typeof clientStatusDto>;
export const companyDto = z.object({ id: z.uuid(), name: z.string(), clients: z.number().int() });
export type CompanyDto = z.infer<typeof companyDto>;
export const clientCommentDto = z.object({
  id: z.uuid(),
  text: z.string(),
  author: ref.nullable(),
  createdAt: at,
});
export type ClientCommentDto = z.infer<typeof clientCommentDto>;
export const clientHistoryDto = z.object({
  id: z.uuid(),
  kind: z.enum(['merged', 'blocked', 'unblocked']),
  actor: ref.nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: at,
});
export type ClientHistoryDto = z.infer<typeof clientHistoryDto>;

export const clientProfileDto = clientDto.extend({
  tags: z.array(z.string()),
  fields: z.array(z.object({ name: z.string(), value: z.string() })),
  status: clientStatusDto.omit({ clients: true }).nullable(),
  companies: z.array(ref),
  manager: ref.nullable(),
  spam: z.boolean(),
  /** When the client opted out of advertising mailings (an opt-out reply, or marked on the card); null: not. */
  advertisingOptedOutAt: at.nullable(),
  sessionStatus: z.enum(SESSION_STATUSES).nullable(),
  details: z
    .array(z.object({ kind: z.enum(CONTACT_KINDS), value: z.string() }))
    .describe('Phones and e-mails'),
  blocked: z.boolean(),
  blockedAt: at.nullable(),
  comments: z.array(clientCommentDto).describe('Newest first (OPTION_COMMENT; empty without it)'),
  history: z.array(clientHistoryDto),
  createdAt: at,
});
export type ClientProfileDto = z.infer<typeof clientProfileDto>;

export const clientListItemDto = z.object({
  id: z.uuid(),
  name: z.string(),
  tags: z.array(z.string()),
  status: clientStatusDto.omit({ clients: true }).nullable(),
  manager: ref.nullable(),
  details: z.array(z.object({ kind: z.enum(CONTACT_KINDS), value: z.string() })),
  spam: z.boolean(),
  blocked: z.boolean(),
  createdAt: at,
});
export type ClientListItemDto = z.infer<typeof clientListItemDto>;
export const clientListPage = z.object({
  items: z.array(clientListItemDto),
  nextCursor: z.uuid().nullable(),
});
export type ClientListPage = z.infer<typeof clientListPage>;

/** A group of clients that look like one person (same phone or e-mail, or the same name), for merge-contacts. */
export const mergeSuggestionDto = z.object({
  reason: z.enum(['phone', 'email', 'name']),
  value: z.string(),
  clients: z.array(ref),
});
export type MergeSuggestionDto = z.infer<typeof mergeSuggestionDto>;
/** What a merge moves to the kept client (the preview shown before the irreversible step). */
export const mergePreviewDto = z.object({
  target: ref,
  sources: z.array(ref),
  contacts: z.number().int(),
  details: z.number().int(),
  chats: z.number().int(),
  messages: z.number().int(),
  comments: z.number().int(),
  tags: z.array(z.string()),
  fields: z.number().int(),
});
export type MergePreviewDto = z.infer<typeof mergePreviewDto>;
