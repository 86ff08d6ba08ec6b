import { z } from 'zod';
import { LIMITS, PASSWORD_PATTERN, TOTP_PATTERN } from '../limits.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';

const loginEmail = z
  .string(M.invalidEmailFormat)
  .trim()
  .max(LIMITS.emailMax, M.invalidEmailFormat)
  .pipe(z.email(M.invalidEmailFormat));
/** Login only checks the shape loosely so an old password still works; the strict rule applies when setting one. */
const loginPassword = z
  .string(M.invalidPasswordFormat)
  .min(1, M.invalidPasswordFormat)
  .max(LIMITS.passwordMax, M.invalidPasswordFormat);
/**
 * The repeat-password rule. It runs whenever a password string was sent, even when other fields fail, so a form
 * shows 'Passwords do not match' together with the other messages instead of only after fixing them.
 */
export const repeatPasswordRule = {
  path: ['repeatPassword'],
  message: M.passwordsDoNotMatch,
  when: (payload: { value: unknown }) =>
    typeof (payload.value as { password?: unknown } | null)?.password === 'string',
};
export const passwordsMatch = (v: { password?: string; repeatPassword?: string }) =>
  v.password === undefined || v.password === v.repeatPassword;

export const strongPassword = (message: string) => z.string(message).regex(PASSWORD_PATTERN, message);
export const totpCode = z.string().trim().regex(TOTP_PATTERN, M.codeIncorrect);
/** A code the server checks itself, so a missing or malformed one gets its own §8 error (mandatory, bad format). */
const submittedCode = z.string(M.codeIncorrect).trim().optional();

/** The base64 JSON ALTCHA payload {algorithm, challenge, number, salt, signature} of a solved challenge. */
const captchaProof = z.string(M.captchaRequired).max(4000, M.captchaRequired);
const proofText =
  'A solved captcha: the base64 JSON {algorithm, challenge, number, salt, signature} of GET /api/signup/challenge';
/** `captcha`: only needed once the account has had many failed sign-ins (400 invalidCaptchaException says so). */
export const loginSchema = z.object({
  email: loginEmail,
  password: loginPassword,
  captcha: captchaProof
    .optional()
    .describe(
      `${proofText}; needed once the account has had many failed sign-ins (400 invalidCaptchaException)`,
    ),
});
export const twoFactorLoginSchema = z.object({
  ticket: z.string(M.requiredFields).min(1, M.requiredFields),
  code: submittedCode,
});
export const toggleTwoFactorSchema = z.object({
  enabled: z.boolean(M.valueIncorrect),
  totpCode: submittedCode,
});
/** `captcha`: a solved challenge of GET /api/signup/challenge, required (issue 29). */
export const recoveryRequestSchema = z.object({
  email: loginEmail,
  captcha: captchaProof.min(1, M.captchaRequired).describe(proofText),
});
export const recoveryCheckSchema = z.object({ token: z.string(M.requiredFields).min(1, M.requiredFields) });
export const recoveryResetSchema = z
  .object({
    token: z.string(M.requiredFields).min(1, M.requiredFields),
    password: strongPassword(M.invalidPasswordFormat),
    repeatPassword: z.string(M.passwordsDoNotMatch),
  })
  .refine(passwordsMatch, repeatPasswordRule);
export const passwordChangeSchema = z
  .object({
    oldPassword: z.string(M.invalidPasswordFormat).min(1, M.invalidPasswordFormat),
    password: strongPassword(M.passwordIncorrect),
    repeatPassword: z.string(M.passwordsDoNotMatch),
  })
  .refine(passwordsMatch, repeatPasswordRule);
export const logoutSchema = z.object({ token: z.string(M.valueIncorrect).optional() });

export type LoginInput = z.infer<typeof loginSchema>;
export type LoginResult = { token: string } | { twoFactorRequired: true; ticket: string };
