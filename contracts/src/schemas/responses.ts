import { z } from 'zod';
import { PLAN_OPTIONS } from '../options.ts';
import { RIGHTS } from '../rights.ts';
import type { LoginResult } from './auth.ts';
import type { RoleDto } from './roles.ts';
import { DISTRIBUTION_METHODS, type TeamDto } from './teams.ts';
import { type CurrentUserDto, LANGUAGES, PRESENCE, type UserDto, type UserShortDto } from './users.ts';

/**
 * The `entity` of each answer as zod schemas, for the OpenAPI description. The DTO types stay the source the
 * presenters are typed with; the checks at the bottom fail the type-check when a schema and its type drift apart.
 */
const ref = z.object({ id: z.uuid(), name: z.string() });
const at = z.iso.datetime({ offset: true });

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int().min(0) });
export const idEntity = z.object({ id: z.uuid() });

export const userDto = z.object({
  id: z.uuid(),
  organisationId: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  photoUrl: z.string().nullable(),
  role: z.object({ id: z.uuid(), name: z.string(), builtIn: z.string().nullable() }),
  teams: z.array(ref),
  breakTimeoutMinutes: z.number().int().nullable(),
  language: z.enum(LANGUAGES),
  active: z.boolean(),
  presence: z.enum(PRESENCE),
  twoFactorEnabled: z.boolean(),
  lastActivityAt: at.nullable(),
  createdAt: at,
});

export const currentUserDto = userDto.extend({
  role: userDto.shape.role.extend({ rights: z.array(z.string()) }),
  rights: z.array(z.string()),
  options: z.array(z.string()),
  organisation: z.object({ id: z.uuid(), name: z.string(), login: z.string(), language: z.enum(LANGUAGES) }),
});

export const userShortDto = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  photoUrl: z.string().nullable(),
});

export const teamDto = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  distributionMethod: z.enum(DISTRIBUTION_METHODS),
  dialogLimit: z.number().int(),
  autoRedistributionMinutes: z.number().int().nullable(),
  autoCloseMinutes: z.number().int().nullable(),
  inactivityHours: z.number().int(),
  memberCount: z.number().int(),
  members: z.array(ref),
  createdAt: at,
});

export const roleDto = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  rights: z.array(z.enum(RIGHTS)),
  builtIn: z.string().nullable(),
  userCount: z.number().int(),
});

export const rightsDto = z.object({
  rights: z.array(z.enum(RIGHTS)),
  options: z.array(z.enum(PLAN_OPTIONS)),
});

export const loginResultDto = z.union([
  z.object({ token: z.string() }),
  z.object({ twoFactorRequired: z.literal(true), ticket: z.string() }),
]);
export const tokenDto = z.object({ token: z.string() });
export const twoFactorEnrolmentDto = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qr: z.string().describe('PNG image as a data: URL'),
});
export const healthDto = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) });

// Drift checks: each schema describes exactly its DTO type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;
export type ResponseSchemaChecks = [
  Check<Same<z.infer<typeof userDto>, UserDto>>,
  Check<Same<z.infer<typeof currentUserDto>, CurrentUserDto>>,
  Check<Same<z.infer<typeof userShortDto>, UserShortDto>>,
  Check<Same<z.infer<typeof teamDto>, TeamDto>>,
  Check<Same<z.infer<typeof roleDto>, RoleDto>>,
  Check<Same<z.infer<typeof loginResultDto>, LoginResult>>,
];
