import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/**
 * Organisation API keys (issue 34; DECISIONS.md "API keys"): what a key may reach, by area and read/write. A route
 * a key may call names its scope (RouteSpec.scope on the server); every other route refuses keys.
 */
export const API_SCOPES = [
  'chats:read',
  'chats:write',
  'clients:read',
  'clients:write',
  'channels:read',
  'channels:write',
  'reports:read',
  'users:read',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_KEY_LIMITS = {
  nameMax: 100,
  /** Rotation: how long the replaced key keeps working beside the new one. */
  overlapHoursMax: 168,
  overlapHoursDefault: 24,
  /** Keys an organisation may hold at once (active or in overlap). */
  perOrganisationMax: 50,
} as const;

export const apiKeyCreateSchema = z.object({
  name: z.string(M.nameIncorrect).trim().min(1, M.requiredFields).max(API_KEY_LIMITS.nameMax, M.nameTooLong),
  scopes: z
    .array(z.enum(API_SCOPES, M.valueIncorrect), M.valueIncorrect)
    .min(1, M.requiredFields)
    .transform((s) => [...new Set(s)]),
});
export type ApiKeyCreateInput = z.output<typeof apiKeyCreateSchema>;

export const apiKeyRotateSchema = z.object({
  overlapHours: z
    .number(M.quantityIncorrect)
    .int(M.quantityIncorrect)
    .min(0, M.quantityIncorrect)
    .max(API_KEY_LIMITS.overlapHoursMax, M.quantityIncorrect)
    .default(API_KEY_LIMITS.overlapHoursDefault),
});

export const API_KEY_STATUSES = ['active', 'expiring', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const apiKeyDto = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart (the key itself is shown once). */
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  status: z.enum(API_KEY_STATUSES),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  /** Set while a rotated key keeps working beside its replacement, and after. */
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKeyDto = z.output<typeof apiKeyDto>;
/** Answered once, on creation and rotation: the key itself. */
export const apiKeyCreatedDto = apiKeyDto.extend({ key: z.string() });
export type ApiKeyCreatedDto = z.output<typeof apiKeyCreatedDto>;
