import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attachmentSchema, inboundMessageSchema } from './schemas/channels.ts';
import { isStorableText, sanitizeStrings, sanitizeText, unstorableStrings } from './text.ts';

test('storable text: no NUL, no lone surrogate; real pairs are fine', () => {
  for (const s of ['', 'plain', 'Привет', '\uD83D\uDE00 emoji', '\u0001 other controls'])
    assert.ok(isStorableText(s), s);
  for (const s of [
    'a\u0000b',
    '\u0000',
    'x\uD800',
    '\uD800x',
    '\uDC00',
    'a\uDC00\uD800b',
    '\uD83D\uD83D\uDE00\uDE00',
  ])
    assert.ok(!isStorableText(s), JSON.stringify(s));
  // The regex is global: a second call must not start where the first stopped.
  assert.ok(!isStorableText('x\uD800'));
  assert.ok(!isStorableText('x\uD800'));
});

test('sanitizeText drops NUL and replaces each lone surrogate with U+FFFD, like String#toWellFormed', () => {
  assert.equal(sanitizeText('He\u0000llo'), 'Hello');
  assert.equal(sanitizeText('\u0000\u0000'), '');
  assert.equal(sanitizeText('a\uD800b\uDC00c'), 'a\uFFFDb\uFFFDc');
  assert.equal(sanitizeText('\uDC00\uD800'), '\uFFFD\uFFFD');
  assert.equal(sanitizeText('\uD83D\uDE00\uD83D'), '\uD83D\uDE00\uFFFD');
  // NUL between the halves of a pair: dropping it joins them, which is a character again.
  assert.equal(sanitizeText('\uD83D\u0000\uDE00'), '\uD83D\uDE00');
  const wellFormed = (s: string) => (s as string & { toWellFormed(): string }).toWellFormed();
  for (const s of ['\uD800', 'a\uDBFFb', '\uDFFF\uD800\uDC00']) assert.equal(sanitizeText(s), wellFormed(s));
});

test('sanitizeStrings cleans every string and key, and returns the same value when nothing needs it', () => {
  const clean = { a: 'x', b: [1, 'y', { c: null }] };
  assert.equal(sanitizeStrings(clean), clean);
  assert.deepEqual(sanitizeStrings({ 'k\u0000': ['\uD800', { t: 'a\u0000' }], n: 1, z: true }), {
    k: ['\uFFFD', { t: 'a' }],
    n: 1,
    z: true,
  });
  let deep: unknown = 'a\u0000';
  for (let i = 0; i < 10_000; i++) deep = [deep];
  assert.doesNotThrow(() => sanitizeStrings(deep));
});

test('unstorableStrings names the paths of bad values and keys, without recursion', () => {
  assert.deepEqual(unstorableStrings({ a: 'ok', b: 'x\u0000', c: [{ d: '\uD800' }], 'e\u0000': 1 }), [
    ['b'],
    ['e\u0000'],
    ['c', '0', 'd'],
  ]);
  assert.deepEqual(unstorableStrings('\u0000'), [[]]);
  assert.deepEqual(unstorableStrings({ a: 'fine', b: [1, 2] }), []);
  assert.equal(unstorableStrings({ list: Array.from({ length: 100 }, () => '\u0000') }, 5).length, 5);
  let deep: unknown = '\u0000';
  for (let i = 0; i < 100_000; i++) deep = { a: deep };
  assert.equal(unstorableStrings(deep)[0].length, 100_000);
});

test('attachment URLs are http or https only', () => {
  for (const url of ['https://example.com/a.png', 'http://127.0.0.1:8080/x?y=1'])
    assert.ok(attachmentSchema.safeParse({ url }).success, url);
  for (const url of [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    'ftp://x',
    '/relative',
    'not a url',
  ]) {
    const res = attachmentSchema.safeParse({ url });
    assert.ok(!res.success, url);
    assert.equal(res.error.issues[0].message, 'Value specified incorrectly', url);
  }
  const inbound = inboundMessageSchema.safeParse({
    externalMessageId: 'm',
    client: { externalId: 'c' },
    attachments: [{ url: 'javascript:alert(1)' }],
  });
  assert.ok(!inbound.success);
  assert.deepEqual(inbound.error.issues[0].path, ['attachments', 0, 'url']);
});
