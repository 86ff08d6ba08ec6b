import { LIMITS, FIELD_MESSAGES as M } from '@smartconnect/contracts/constants';
import { regexes } from 'zod/v4/core';

/**
 * The login form's check without the validation library (its ~25 KB gzipped would be a sixth of the login page):
 * the same rules and §5 messages as the contracts' `loginSchema` (the server still parses with that schema;
 * login-check.test.ts holds the two in agreement). Only the email pattern is taken from the library (a constant).
 */
export function checkLogin(values: { email: string; password: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const email = values.email.trim();
  if (email.length > LIMITS.emailMax || !regexes.email.test(email)) errors.email = M.invalidEmailFormat;
  if (values.password.length < 1 || values.password.length > LIMITS.passwordMax)
    errors.password = M.invalidPasswordFormat;
  return errors;
}
