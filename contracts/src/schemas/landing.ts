import { z } from 'zod';
import { isLandingPhone, LANDING_FORMS, LANDING_LIMITS, landingPhone } from '../landing-rules.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { queryInt } from './common.ts';
import { LANGUAGES } from './users.ts';

/** §3 Landing request (name, phone, company) and the §2.2 landing page's two forms that create one. */
const optionalText = (max: number, message: string) =>
  z
    .string(message)
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => (v ? v : null));

/**
 * `POST /api/landing-requests`: the short form sends the phone only, the long form and the trial modal add the
 * name and organisation name (required there: the page says so with an asterisk). `website` is a honeypot a person
 * never sees: a request that fills it is answered like any other and not stored.
 */
export const landingRequestBodySchema = z
  .object({
    phone: z
      .string(M.phoneIncorrect)
      .refine(isLandingPhone, M.phoneIncorrect)
      .transform(landingPhone)
      .describe(
        'Digits with an optional leading + (5 to 20 digits; spaces, dashes and brackets are dropped)',
      ),
    name: optionalText(LANDING_LIMITS.name, M.nameIncorrect).describe('Who asks (long form and modal)'),
    company: optionalText(LANDING_LIMITS.company, M.organisationNameIncorrect).describe(
      'Organisation name (long form and modal)',
    ),
    form: z.enum(LANDING_FORMS, M.valueIncorrect).default('short').describe('Which form of the page sent it'),
    language: z.enum(LANGUAGES, M.languageIncorrect).default('eng').describe('The page language (sc-lang)'),
    website: z
      .string(M.incorrectValue)
      .max(500, M.incorrectValue)
      .optional()
      .describe('Honeypot: left empty by people'),
  })
  .superRefine((b, ctx) => {
    if (b.form === 'short') return;
    if (!b.name) ctx.addIssue({ code: 'custom', message: M.nameIncorrect, path: ['name'] });
    if (!b.company) ctx.addIssue({ code: 'custom', message: M.organisationNameIncorrect, path: ['company'] });
  });
export type LandingRequestBody = z.input<typeof landingRequestBodySchema>;

export const landingRequestDto = z.object({
  id: z.uuid(),
  phone: z.string(),
  name: z.string().nullable(),
  company: z.string().nullable(),
  form: z.enum(LANDING_FORMS),
  language: z.enum(LANGUAGES),
  createdAt: z.iso.datetime({ offset: true }),
});
export type LandingRequestDto = z.infer<typeof landingRequestDto>;

export const landingRequestPageDto = z.object({
  items: z.array(landingRequestDto),
  total: z.number().int().min(0),
  nextCursor: z.string().nullable().describe('Pass as ?cursor= for the older page; null on the last page'),
});
export type LandingRequestPage = z.infer<typeof landingRequestPageDto>;

export const landingRequestListQuerySchema = z.object({
  limit: queryInt(1, 200, 50),
  cursor: z
    .string(M.incorrectValue)
    .max(200, M.incorrectValue)
    .optional()
    .describe('nextCursor of the previous page (keyset by creation time, newest first)'),
});
