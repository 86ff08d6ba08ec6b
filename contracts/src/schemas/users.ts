import { z } from 'zod';
import { LIMITS, PHONE_PATTERN } from '../limits.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { isPhoneInput, toE164 } from '../phone.ts';
import { passwordsMatch, repeatPasswordRule, strongPassword } from './auth.ts';
import { queryInt } from './common.ts';

export const LANGUAGES = ['eng', 'rus'] as const;
export type Language = (typeof LANGUAGES)[number];
export const PRESENCE = ['online', 'break', 'offline'] as const;
export type Presence = (typeof PRESENCE)[number];

const name = z
  .string(M.nameIncorrect)
  .trim()
  .min(1, M.nameIncorrect)
  .max(LIMITS.userNameMax, M.nameIncorrect);
const email = z
  .string(M.emailIncorrect)
  .trim()
  .toLowerCase()
  .max(LIMITS.emailMax, M.emailIncorrect)
  .pipe(z.email(M.emailIncorrect));
/**
 * Empty string and null both mean "no phone". Country code first, 10 to 15 digits (PHONE_PATTERN once cleaned);
 * kept in E.164 by the one normaliser, so '79009009090', '+7 900 900-90-90' and '8 900 900 90 90' are one number.
 */
const phone = z
  .union(
    [
      z.literal(''),
      z.null(),
      z
        .string()
        .trim()
        .refine((v) => isPhoneInput(v, 10, 15) && PHONE_PATTERN.test(toE164(v).slice(1)), M.phoneIncorrect)
        // Stored and answered in §3's form 'like 79009009090': the one normaliser's E.164, without its '+'.
        .transform((v) => toE164(v).slice(1)),
    ],
    M.phoneIncorrect,
  )
  .transform((v) => (v ? v : null));
const breakTimeout = z
  .number(M.timeIncorrect)
  .int(M.timeIncorrect)
  .min(LIMITS.breakTimeoutMin, M.timeIncorrect)
  .max(LIMITS.breakTimeoutMax, M.timeIncorrect)
  .nullable();
const uuid = (message: string) => z.uuid(message);

export const userCreateSchema = z
  .object({
    name,
    email,
    phone: phone.optional().default(null),
    roleId: uuid(M.roleIncorrect),
    teamIds: z.array(uuid(M.teamIncorrect), M.teamIncorrect).default([]),
    breakTimeoutMinutes: breakTimeout.optional().default(null),
    password: strongPassword(M.passwordIncorrect),
    repeatPassword: z.string(M.passwordsDoNotMatch),
    active: z.boolean(M.valueIncorrect).default(true),
    language: z.enum(LANGUAGES, M.languageIncorrect).optional(),
  })
  .refine(passwordsMatch, repeatPasswordRule);

export const userUpdateSchema = z
  .object({
    name: name.optional(),
    email: email.optional(),
    phone: phone.optional(),
    roleId: uuid(M.roleIncorrect).optional(),
    teamIds: z.array(uuid(M.teamIncorrect), M.teamIncorrect).optional(),
    breakTimeoutMinutes: breakTimeout.optional(),
    password: strongPassword(M.passwordIncorrect).optional(),
    repeatPassword: z.string(M.passwordsDoNotMatch).optional(),
    active: z.boolean(M.valueIncorrect).optional(),
    language: z.enum(LANGUAGES, M.languageIncorrect).optional(),
  })
  .refine(passwordsMatch, repeatPasswordRule);

/** PATCH auth/acc/update: what a user may change of their own account. */
export const accountUpdateSchema = z.object({
  name: name.optional(),
  phone: phone.optional(),
  breakTimeoutMinutes: breakTimeout.optional(),
  language: z.enum(LANGUAGES, M.languageIncorrect).optional(),
});

export const userListQuerySchema = z.object({
  search: z.string().trim().max(255).optional(),
  team: z.uuid(M.teamIncorrect).optional(),
  limit: queryInt(1, 500, 100),
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0),
});

export type UserDto = {
  id: string;
  organisationId: string;
  name: string;
  email: string;
  phone: string | null;
  photoUrl: string | null;
  role: { id: string; name: string; builtIn: string | null };
  teams: { id: string; name: string }[];
  breakTimeoutMinutes: number | null;
  language: Language;
  active: boolean;
  presence: Presence;
  twoFactorEnabled: boolean;
  lastActivityAt: string | null;
  createdAt: string;
};

export type UserShortDto = { id: string; name: string; email: string; photoUrl: string | null };

/** The §7 identity answer of GET auth/user. */
export type CurrentUserDto = Omit<UserDto, 'role'> & {
  /** §3 "role with a list of rights": the same list is also at the top level as `rights`. */
  role: UserDto['role'] & { rights: string[] };
  rights: string[];
  options: string[];
  organisation: {
    id: string;
    name: string;
    login: string;
    language: Language;
    /** Where its paid service stands (billingStateDto in billing.ts). */
    billing: { serviceUntil: string | null; suspended: boolean };
  };
  /**
   * The realtime event id this answer was read after (every event up to it is committed), or null when this instance
   * serves no sockets: the tab's first socket resumes from it, so no event between the page's first reads and its
   * socket is missed.
   */
  eventCursor: string | null;
};
