import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { PLAN_OPTIONS } from '../options.ts';
import { LANGUAGES } from './users.ts';

export const ORGANISATION_STATUSES = ['active', 'deactivated'] as const;
export type OrganisationStatus = (typeof ORGANISATION_STATUSES)[number];
/** §5 Organisation: login and name not empty, at most 255. */
export const ORGANISATION_LIMITS = { nameMax: 255, licencesMax: 100_000 } as const;

/**
 * §6 'Category, team-template and service-account modification can be denied' (§8 'team, template and category modify
 * denied'): what platform staff lock in an organisation. Its users may still use what is locked.
 */
export const MODIFY_DENIALS = ['TEMPLATE', 'CATEGORY'] as const;
export type ModifyDenial = (typeof MODIFY_DENIALS)[number];

/** What platform staff (RIGHT_OBSERVER) change of a customer organisation: plan options, licences, status. */
export const organisationUpdateSchema = z
  .object({
    name: z
      .string(M.nameIncorrect)
      .trim()
      .min(1, M.nameIncorrect)
      .max(ORGANISATION_LIMITS.nameMax, M.nameIncorrect),
    language: z.enum(LANGUAGES, M.languageIncorrect),
    status: z.enum(ORGANISATION_STATUSES, M.valueIncorrect),
    options: z.array(z.enum(PLAN_OPTIONS, M.valueIncorrect), M.valueIncorrect),
    operatorLicences: z
      .number(M.quantityIncorrect)
      .int(M.quantityIncorrect)
      .min(0, M.quantityIncorrect)
      .max(ORGANISATION_LIMITS.licencesMax, M.quantityIncorrect),
    /**
     * What the organisation's users may not change (MODIFY_DENIALS): `["TEMPLATE"]` locks the team templates,
     * `["CATEGORY"]` the request categories (both stay usable in chats).
     */
    modifyDenied: z.array(z.enum(MODIFY_DENIALS, M.valueIncorrect), M.valueIncorrect),
    /** The IANA zone reports count days in (issue 17; Europe/Moscow by default). */
    timeZone: z
      .string(M.valueIncorrect)
      .max(64, M.valueIncorrect)
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en-GB', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, M.valueIncorrect),
  })
  .partial();

export const organisationDto = z.object({
  id: z.uuid(),
  login: z.string(),
  name: z.string(),
  language: z.enum(LANGUAGES),
  status: z.enum(ORGANISATION_STATUSES),
  tariffName: z.string(),
  options: z.array(z.enum(PLAN_OPTIONS)),
  /** §6 licence limit: how many operators may be online ('In work' or on a break) at once. */
  operatorLicences: z.number().int(),
  onlineOperators: z.number().int(),
  modifyDenied: z.array(z.enum(MODIFY_DENIALS)),
  /** The zone reports count days in. */
  timeZone: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type OrganisationDto = z.infer<typeof organisationDto>;
