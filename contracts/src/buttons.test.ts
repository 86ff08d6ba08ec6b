import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUTTON_LIMITS, buttonRowsSchema, buttonSchema, isPostback, utf8Length } from './index.ts';
import { FIELD_MESSAGES as M } from './messages.ts';

const ok = (v: unknown) => buttonSchema.safeParse(v).success;

test('a button is a postback {text, payload} or a link {text, url}, never both nor neither', () => {
  assert.ok(ok({ text: 'Yes', payload: 'answer:yes' }));
  assert.ok(ok({ text: 'Site', url: 'https://example.com/a?b=1' }));
  assert.ok(ok({ text: 'Plain', url: 'http://example.com' }));
  assert.ok(!ok({ text: 'Both', payload: 'x', url: 'https://example.com' }));
  assert.ok(!ok({ text: 'Neither' }));
  assert.ok(!ok({ payload: 'x' }));
  assert.ok(!ok({ text: 'Extra', payload: 'x', color: 'red' }));
  assert.ok(isPostback({ text: 'Yes', payload: 'y' }));
  assert.ok(!isPostback({ text: 'Site', url: 'https://example.com' }));
});

test('text is 1-64 characters (code points, so emoji count once) and not blank', () => {
  assert.ok(ok({ text: 'a'.repeat(64), payload: 'p' }));
  assert.ok(!ok({ text: 'a'.repeat(65), payload: 'p' }));
  assert.ok(ok({ text: '👍'.repeat(64), payload: 'p' }), '64 emoji are 64 characters');
  assert.ok(!ok({ text: '', payload: 'p' }));
  assert.ok(!ok({ text: '   ', payload: 'p' }));
});

test('payload is 1-64 bytes of UTF-8 (Telegram callback_data)', () => {
  assert.equal(BUTTON_LIMITS.payloadMaxBytes, 64);
  assert.ok(ok({ text: 'p', payload: 'x'.repeat(64) }));
  assert.ok(!ok({ text: 'p', payload: 'x'.repeat(65) }));
  assert.equal(utf8Length('é'.repeat(32)), 64);
  assert.ok(ok({ text: 'p', payload: 'é'.repeat(32) }));
  assert.ok(!ok({ text: 'p', payload: 'é'.repeat(33) }), '33 characters but 66 bytes');
  assert.ok(!ok({ text: 'p', payload: '' }));
});

test('url is an absolute http(s) URL only', () => {
  for (const url of [
    'javascript:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    'tg://resolve?domain=x',
    '/relative',
    'example.com',
  ])
    assert.ok(!ok({ text: 'l', url }), url);
  assert.ok(!ok({ text: 'l', url: `https://example.com/${'a'.repeat(2048)}` }));
});

test('rows: at most 10 rows of 8, no empty row; wrong input names a spec message', () => {
  const b = { text: 'b', payload: 'p' };
  assert.ok(buttonRowsSchema.safeParse([]).success);
  assert.ok(buttonRowsSchema.safeParse(Array.from({ length: 10 }, () => Array(8).fill(b))).success);
  assert.ok(!buttonRowsSchema.safeParse(Array.from({ length: 11 }, () => [b])).success);
  assert.ok(!buttonRowsSchema.safeParse([Array(9).fill(b)]).success);
  assert.ok(!buttonRowsSchema.safeParse([[]]).success);
  assert.ok(!buttonRowsSchema.safeParse([b]).success, 'buttons are laid out in rows');
  const known = new Set<string>(Object.values(M));
  for (const wrong of [
    null,
    'x',
    [[null]],
    [[{ text: 1, payload: 2 }]],
    [[{ text: 'x', payload: 'y'.repeat(65) }]],
  ]) {
    const res = buttonRowsSchema.safeParse(wrong);
    assert.ok(!res.success);
    for (const issue of res.error.issues) assert.ok(known.has(issue.message), issue.message);
  }
});
