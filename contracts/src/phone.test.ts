import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPhoneInput, toE164 } from './phone.ts';

test('one number however it is written: E.164', () => {
  for (const written of [
    '+79161234567',
    '79161234567',
    '89161234567',
    '8 (916) 123-45-67',
    ' +7 (916) 123-45-67 ',
    '7-916-123-45-67',
    '+7.916.123.45.67',
  ])
    assert.equal(toE164(written), '+79161234567', written);
  // Other countries keep their code; a '+8…' is an international number, not the Russian trunk prefix.
  assert.equal(toE164('+44 20 7946 0958'), '+442079460958');
  assert.equal(toE164('442079460958'), '+442079460958');
  assert.equal(toE164('+86 139 1234 5678'), '+8613912345678');
  assert.equal(toE164('+8 916 123 45 67'), '+89161234567');
  // Only the 11-digit form from 8 is the trunk prefix.
  assert.equal(toE164('8916123456'), '+8916123456');
});

test('what a phone field takes', () => {
  for (const ok of ['+79161234567', '8 (916) 123-45-67', '12345']) assert.ok(isPhoneInput(ok), ok);
  for (const bad of ['', '12', 'call me', '+7 900 abc', '1'.repeat(21), '++79161234567', '7916+1234567'])
    assert.ok(!isPhoneInput(bad), bad);
  assert.ok(!isPhoneInput('+7916123456789012', 10, 15));
});
