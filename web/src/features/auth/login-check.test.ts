import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LIMITS, loginSchema } from '@smartconnect/contracts';
import { regexes } from 'zod/v4/core';
import { checkLogin, EMAIL } from './login-check.ts';

test("the email pattern is the validation library's own", () => {
  // The same pattern but for `\-` before a class's closing bracket, a plain `-` there (the linter drops the escape).
  assert.equal(EMAIL.source, regexes.email.source.replaceAll('\\-]', '-]'));
  assert.equal(EMAIL.flags, regexes.email.flags);
});

/** What the contracts' schema says for each field (its first message per field), as zodValidate shows it. */
function bySchema(values: { email: string; password: string }): Record<string, string> {
  const result = loginSchema.safeParse(values);
  const errors: Record<string, string> = {};
  if (!result.success)
    for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

test('the login form check agrees with loginSchema on every case', () => {
  const emails = [
    '',
    ' ',
    'a@b.co',
    ' ops@example.com ',
    'ops@example',
    'ops@@example.com',
    '.ops@example.com',
    'o..ps@example.com',
    'ops.@example.com',
    "o'neil+tag@mail.example.org",
    'ops@-example.com',
    'ops@example.c',
    'опер@пример.рф',
    `${'a'.repeat(LIMITS.emailMax)}@example.com`,
    `${'a'.repeat(LIMITS.emailMax - 12)}@example.com`,
  ];
  const passwords = ['', 'x', ' ', 'a'.repeat(LIMITS.passwordMax), 'a'.repeat(LIMITS.passwordMax + 1)];
  let cases = 0;
  for (const email of emails)
    for (const password of passwords) {
      assert.deepEqual(
        checkLogin({ email, password }),
        bySchema({ email, password }),
        `${email} / ${password}`,
      );
      cases++;
    }
  assert.equal(cases, emails.length * passwords.length);
  assert.deepEqual(checkLogin({ email: 'ops@example.com', password: 'secret' }), {});
});
