import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slashQuery } from './slash.ts';

test("'/' at the start of a one-line message is a template search", () => {
  assert.equal(slashQuery('/'), '');
  assert.equal(slashQuery('/parcel'), 'parcel');
  assert.equal(slashQuery('/order status'), 'order status');
});

test("a '/' elsewhere, a second line or no '/' is plain text", () => {
  for (const text of ['', 'parcel', 'and/or', ' /parcel', '/parcel\nsecond line', 'a\n/parcel'])
    assert.equal(slashQuery(text), null, JSON.stringify(text));
});
