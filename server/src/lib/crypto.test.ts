import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decryptSecret, encryptSecret, hashToken, randomToken } from './crypto.ts';

test('secrets round-trip and are sealed with a fresh nonce each time', () => {
  const key = 'k'.repeat(40);
  const a = encryptSecret(key, 'JBSWY3DPEHPK3PXP');
  const b = encryptSecret(key, 'JBSWY3DPEHPK3PXP');
  assert.notEqual(a, b);
  assert.equal(decryptSecret(key, a), 'JBSWY3DPEHPK3PXP');
  assert.throws(() => decryptSecret('other'.repeat(10), a));
  const tampered = `${a.slice(0, -2)}${a.endsWith('A') ? 'B' : 'A'}${a.slice(-1)}`;
  assert.throws(() => decryptSecret(key, tampered));
});

test('tokens are random and stored only as their hash', () => {
  const t = randomToken();
  assert.match(t, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(randomToken(), t);
  assert.equal(hashToken(t), hashToken(t));
  assert.equal(hashToken(t).length, 64);
  assert.ok(!hashToken(t).includes(t));
});
