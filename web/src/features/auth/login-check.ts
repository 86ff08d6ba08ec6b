import { LIMITS, FIELD_MESSAGES as M } from '@smartconnect/contracts/constants';

/**
 * The validation library's email pattern (zod's `regexes.email`, which `loginSchema` uses), copied: importing it
 * brings the library's whole table of patterns (1.2 KB gzipped). login-check.test.ts checks the copy is the same.
 */
export const EMAIL =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * The login form's check without the validation library (its ~25 KB gzipped would be a sixth of the login page):
 * the same rules and §5 messages as the contracts' `loginSchema` (the server still parses with that schema;
 * login-check.test.ts holds the two in agreement).
 */
export function checkLogin(values: { email: string; password: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const email = values.email.trim();
  if (email.length > LIMITS.emailMax || !EMAIL.test(email)) errors.email = M.invalidEmailFormat;
  if (values.password.length < 1 || values.password.length > LIMITS.passwordMax)
    errors.password = M.invalidPasswordFormat;
  return errors;
}
