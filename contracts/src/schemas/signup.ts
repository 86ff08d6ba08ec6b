import { z } from 'zod';
import { isLandingPhone, landingPhone } from '../landing-rules.ts';
import { LIMITS } from '../limits.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { LANGUAGES } from './users.ts';

/** §2.5 Sign-up: the stages a registration goes through (the e-mail code, then the SMS code, then done). */
export const SIGNUP_STAGES = ['email', 'phone', 'done'] as const;
export type SignupStage = (typeof SIGNUP_STAGES)[number];
/** A confirmation code: 6 digits, like the second factor (§9). */
export const SIGNUP_CODE_PATTERN = /^\d{6}$/;

/** `GET /api/signup/challenge`: a proof-of-work challenge of the captcha provider (ALTCHA protocol). */
export const captchaChallengeDto = z.object({
  provider: z.literal('altcha').describe('Which captcha widget solves it'),
  algorithm: z.literal('SHA-256'),
  challenge: z.string().describe('hex SHA-256 of salt + the secret number'),
  maxnumber: z.number().int().positive().describe('The secret number is at most this'),
  salt: z.string().describe('Carries the expiry as ?expires= (unix seconds)'),
  signature: z.string().describe('HMAC-SHA-256 of the challenge by the server'),
});
export type CaptchaChallenge = z.infer<typeof captchaChallengeDto>;

/** `POST /api/signup`: the first step. `captcha`: the base64 JSON ALTCHA payload {algorithm, challenge, number, salt, signature}. */
export const signupStartSchema = z.object({
  company: z
    .string(M.organisationNameIncorrect)
    .trim()
    .min(1, M.organisationNameIncorrect)
    .max(LIMITS.organisationNameMax, M.organisationNameIncorrect)
    .describe('Company name: the new organisation is named so, its login derived from it'),
  email: z
    .string(M.emailIncorrect)
    .trim()
    .max(LIMITS.emailMax, M.emailIncorrect)
    .pipe(z.email(M.emailIncorrect))
    .transform((v) => v.toLowerCase())
    .describe("The administrator's e-mail: the e-mail code goes there"),
  phone: z
    .string(M.phoneIncorrect)
    .refine(isLandingPhone, M.phoneIncorrect)
    .transform(landingPhone)
    .describe(
      'The SMS code goes there: 5 to 20 digits with an optional leading +; kept in E.164 (8XXXXXXXXXX is +7XXXXXXXXXX)',
    ),
  consent: z.literal(true, M.consentRequired).describe('Consent to personal data processing (§5: required)'),
  captcha: z.string(M.captchaRequired).min(1, M.captchaRequired).max(4000, M.captchaRequired),
  language: z.enum(LANGUAGES, M.languageIncorrect).default('eng').describe('The page language (sc-lang)'),
});
export type SignupStartBody = z.input<typeof signupStartSchema>;

export const signupCodeSchema = z.object({
  code: z.string(M.codeIncorrect).trim().regex(SIGNUP_CODE_PATTERN, M.codeIncorrect),
});

export const signupTokenParams = z.object({ token: z.string().min(16).max(200) });

/** Where a registration stands; `token` (the session's, once done) signs the new administrator in. */
export const signupStateDto = z.object({
  token: z.string().describe('The registration token: resumes it (/registration/phone-confirmation/{token})'),
  stage: z.enum(SIGNUP_STAGES),
  email: z.string().describe('Where the e-mail code went'),
  phone: z.string().describe('Where the SMS code goes, masked but for the last digits'),
  codeExpiresAt: z.iso.datetime({ offset: true }).nullable(),
  resendAt: z.iso.datetime({ offset: true }).nullable().describe('A new code may be asked for from then'),
  session: z.string().nullable().describe("Once done: the new administrator's bearer token (as login gives)"),
  organisationLogin: z.string().nullable(),
});
export type SignupState = z.infer<typeof signupStateDto>;
