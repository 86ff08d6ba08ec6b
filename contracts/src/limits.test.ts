import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PASSWORD_PATTERN, PHONE_PATTERN } from './limits.ts';
import { BUILT_IN_ROLE_RIGHTS, RIGHTS } from './rights.ts';
import { teamCreateSchema } from './schemas/teams.ts';

test('password rule of §5: 8+ characters with an uppercase letter, a digit and a special character', () => {
  for (const ok of ['Passw0rd!', 'Пароль1!', 'A1!aaaaa', 'Xx9#long password'])
    assert.ok(PASSWORD_PATTERN.test(ok), ok);
  for (const bad of ['Pa0!', 'password1!', 'PASSWORD!!', 'Password11', '        '])
    assert.ok(!PASSWORD_PATTERN.test(bad), bad);
});

test('phone like 79009009090', () => {
  assert.ok(PHONE_PATTERN.test('79009009090'));
  for (const bad of ['+79009009090', '8900', '07900900909', '7900900909a'])
    assert.ok(!PHONE_PATTERN.test(bad), bad);
});

test('built-in roles per DECISIONS.md', () => {
  assert.deepEqual(BUILT_IN_ROLE_RIGHTS.OPERATOR, [
    'AUTHORITY_CHAT_DISTRIBUTION',
    'AUTHORITY_PROFILE_UPDATE',
  ]);
  assert.ok(!BUILT_IN_ROLE_RIGHTS.ADMINISTRATOR.includes('RIGHT_OBSERVER'));
  assert.equal(BUILT_IN_ROLE_RIGHTS.ADMINISTRATOR.length, RIGHTS.length - 1);
  for (const r of BUILT_IN_ROLE_RIGHTS.OPERATOR) assert.ok(BUILT_IN_ROLE_RIGHTS.SUPERVISOR.includes(r));
});

test('team inactivity: 0 or more than 23 hours', () => {
  const base = { name: 'T', description: 'D' };
  for (const ok of [0, 24, 100])
    assert.ok(teamCreateSchema.safeParse({ ...base, inactivityHours: ok }).success, String(ok));
  for (const bad of [1, 23, -1])
    assert.ok(!teamCreateSchema.safeParse({ ...base, inactivityHours: bad }).success, String(bad));
});
