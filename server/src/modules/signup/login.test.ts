import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstFree, loginFromCompany } from './login.ts';

test('a login from a company name: latin, digits and dashes, Cyrillic transliterated, at most 40', () => {
  assert.equal(loginFromCompany('ООО «Ромашка»'), 'ooo-romashka');
  assert.equal(loginFromCompany('Horns & Hooves Ltd.'), 'horns-hooves-ltd');
  assert.equal(loginFromCompany('Café Société'), 'cafe-societe');
  assert.equal(loginFromCompany('«»!!'), 'company');
  assert.ok(loginFromCompany('x'.repeat(300)).length <= 40);
  assert.ok(!loginFromCompany(`${'a'.repeat(39)} b`).endsWith('-'));
});

test('the first free login: base, then base-2, base-3', () => {
  assert.equal(firstFree('shop', new Set()), 'shop');
  assert.equal(firstFree('shop', new Set(['shop', 'shop-2'])), 'shop-3');
});
