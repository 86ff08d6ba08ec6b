import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enGB } from './en-gb.ts';
import { PUBLIC_NAMESPACES } from './parts.ts';
import { ruRU } from './ru-ru.ts';

test('every namespace of the public part exists in both locales', () => {
  for (const ns of PUBLIC_NAMESPACES) {
    assert.ok(ns in enGB, `en-GB ${ns}`);
    assert.ok(ns in ruRU, `ru-RU ${ns}`);
  }
});

test('the public part holds what every page needs: field messages, error texts, titles', () => {
  for (const ns of ['common', 'fields', 'errors', 'titles', 'login', 'restore', 'pages'])
    assert.ok(PUBLIC_NAMESPACES.includes(ns), ns);
});
