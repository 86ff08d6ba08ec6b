import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { PLAN_OPTIONS } from '../options.ts';
import { LANGUAGES } from './users.ts';

export const BILLING_MODES = ['prepaid', 'postpaid'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];
/** A calendar day, YYYY-MM-DD. */
export const isoDay = z.iso.date(M.valueIncorrect);
/** An amount of money in roubles with at most two decimals. */
export const money = z
  .number(M.quantityIncorrect)
  .min(-1e9, M.quantityIncorrect)
  .max(1e9, M.quantityIncorrect)
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, M.quantityIncorrect);
const orgLogin = z
  .string(M.loginIncorrect)
  .trim()
  .toLowerCase()
  .min(1, M.loginIncorrect)
  .max(LIMITS.organisationLoginMax, M.loginIncorrect);
const adminEmail = z
  .string(M.emailIncorrect)
  .trim()
  .toLowerCase()
  .max(LIMITS.emailMax, M.emailIncorrect)
  .pipe(z.email(M.emailIncorrect));

export const ORGANISATION_STATUSES = ['active', 'deactivated'] as const;
export type OrganisationStatus = (typeof ORGANISATION_STATUSES)[number];
/** §5 Organisation: login and name not empty, at most 255. */
export const ORGANISATION_LIMITS = { nameMax: 255, licencesMax: 100_000 } as const;

/**
 * §6 'Category, team-template and service-account modification can be denied' (§8 'team, template and category modify
 * denied'): what platform staff lock in an organisation. Its users may still use what is locked.
 */
export const MODIFY_DENIALS = ['TEMPLATE', 'CATEGORY', 'TEAM'] as const;
export type ModifyDenial = (typeof MODIFY_DENIALS)[number];

/** An IANA time zone name the runtime knows (Europe/Moscow, America/New_York, UTC). */
export const ianaTimeZone = z
  .string(M.valueIncorrect)
  .max(64, M.valueIncorrect)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, M.valueIncorrect);

/** What the organisation's administrator (RIGHT_ACCOUNT_CONTROL) changes of their own organisation (issue 17). */
export const organisationSettingsSchema = z.object({
  /** The IANA zone reports count days in. */
  timeZone: ianaTimeZone,
});

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
    timeZone: ianaTimeZone,
    // Billing and identity (issue 19): §4/§5 Organisation's fields that staff edit.
    login: orgLogin,
    adminEmail: adminEmail,
    instance: z
      .string(M.valueIncorrect)
      .trim()
      .max(255, M.valueIncorrect)
      .nullable()
      .transform((v) => (v ? v : null)),
    /** The tariff: changing it checks the balance (§8 'not enough balance to change tariff') and applies its licences and options. */
    planId: z.uuid(M.tariffRequired),
    firstTariffDay: isoDay,
    /** Paid (or trial) up to and including this day; null: no end. */
    paidUntil: isoDay.nullable(),
    balance: money,
    /** §8's postpaid/prepaid switch: a postpaid account cannot be topped up until switched to prepaid. */
    billingMode: z.enum(BILLING_MODES, M.valueIncorrect),
  })
  .partial();

/** `POST /api/organisations` (§5 Organisation): the organisation and its administrator, who gets an invitation link. */
export const organisationCreateSchema = z.object({
  login: orgLogin,
  name: z
    .string(M.organisationNameIncorrect)
    .trim()
    .min(1, M.organisationNameIncorrect)
    .max(ORGANISATION_LIMITS.nameMax, M.organisationNameIncorrect),
  adminEmail,
  language: z.enum(LANGUAGES, M.languageIncorrect).default('eng'),
  planId: z.uuid(M.tariffRequired),
  instance: z.string(M.valueIncorrect).trim().max(255, M.valueIncorrect).optional(),
});

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
  adminEmail: z.string(),
  instance: z.string().nullable(),
  planId: z.uuid().nullable(),
  firstTariffDay: z.string(),
  paidUntil: z.string().nullable(),
  balance: z.number(),
  billingMode: z.enum(BILLING_MODES),
  /** Suspended for non-payment: paid days ran out and the day's charge could not be taken (issue 19). */
  suspended: z.boolean(),
  /** §3 'last change date'. */
  updatedAt: z.iso.datetime({ offset: true }),
  createdAt: z.iso.datetime({ offset: true }),
});
export type OrganisationDto = z.infer<typeof organisationDto>;

/**
 * The first-run checklist of an organisation (issue 36): shown on the empty chat center until it has chats. Each
 * item is done when: a channel is connected, more than one account exists, a website chat (widget) had a chat.
 */
export const firstRunDto = z.object({
  hasChats: z.boolean(),
  channelConnected: z.boolean(),
  colleagueInvited: z.boolean(),
  widgetTried: z.boolean(),
  /** The organisation's website chat to try as a visitor (/widget-preview/{id}), if it has one. */
  widgetChannelId: z.string().nullable(),
});
export type FirstRunDto = z.infer<typeof firstRunDto>;
