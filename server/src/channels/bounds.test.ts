import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MESSAGE_TEXT_MAX } from '@smartconnect/contracts';
import { boundEvent, boundId, boundMessage, cut, INBOUND_BOUNDS } from './bounds.ts';
import type { InboundMessage } from './types.ts';

const long = (n: number, letter = 'a') => letter.repeat(n);
const message = (over: Partial<InboundMessage> = {}): InboundMessage => ({
  externalMessageId: 'm1',
  client: { externalId: 'c1', name: 'Ivan Petrov' },
  text: 'hello',
  attachments: [],
  ...over,
});

test('cut keeps short texts and marks a cut with an ellipsis, never splitting a surrogate pair', () => {
  assert.equal(cut('abc', 3), 'abc');
  assert.equal(cut('abcd', 3), 'ab…');
  assert.equal(cut('ab😀cd', 4), 'ab…');
  assert.equal(cut('a😀', 3), 'a😀');
});

test('a long provider id keeps its beginning and stays unique through a hash of the whole', () => {
  assert.equal(boundId('short', 255), 'short');
  const a = boundId(`${long(300)}1`, 255);
  const b = boundId(`${long(300)}2`, 255);
  assert.equal(a.length, 255);
  assert.notEqual(a, b);
  assert.equal(a, boundId(`${long(300)}1`, 255), 'the same id maps to the same bound id (retries dedupe)');
});

test('a 200,000-letter name is cut to its bound and the rest kept in the text, within the text bound', () => {
  const name = long(200_000, 'я');
  const m = boundMessage('viber_bot', message({ client: { externalId: 'c', name } }));
  assert.equal(m.client.name.length, INBOUND_BOUNDS.name);
  assert.ok(m.client.name.endsWith('…'));
  assert.ok(m.text.startsWith('hello\n[Name: яяя'));
  assert.equal(m.text.length, MESSAGE_TEXT_MAX);
  // Bounding twice changes nothing (receive.ts bounds the event, then the message after its files are fetched).
  assert.deepEqual(boundMessage('viber_bot', m), m);
});

test('each field has its own bound; Telegram documents tighter names and usernames', () => {
  const m = boundMessage(
    'telegram',
    message({
      client: { externalId: 'c', name: long(500), username: long(500) },
      text: long(50_000),
      attachments: [{ url: `https://x.test/${long(5000)}`, name: long(1000), contentType: long(1000) }],
      media: [{ ref: 'r', name: long(1000), contentType: long(1000) }],
      payload: long(10_000),
    }),
  );
  assert.equal(m.client.name.length, 129);
  assert.equal(m.client.username?.length, 32);
  assert.equal(m.text.length, MESSAGE_TEXT_MAX);
  assert.equal(m.attachments[0].url.length, INBOUND_BOUNDS.url);
  assert.equal(m.attachments[0].name?.length, INBOUND_BOUNDS.fileName);
  assert.equal(m.attachments[0].contentType?.length, INBOUND_BOUNDS.contentType);
  assert.equal(m.media?.[0].name?.length, INBOUND_BOUNDS.fileName);
  assert.equal(m.payload?.length, INBOUND_BOUNDS.payload);
  // An e-mail's name keeps the general bound.
  assert.equal(
    boundMessage('email', message({ client: { externalId: 'c', name: long(500) } })).client.name.length,
    255,
  );
});

test('events other than messages are bounded too, and NUL and lone surrogates are made storable', () => {
  const status = boundEvent('whatsapp', {
    kind: 'status',
    externalId: `wamid.\u0000${long(1000)}`,
    status: 'undelivered',
    reason: long(10_000),
  });
  assert.ok(status.kind === 'status');
  assert.equal(status.externalId?.length, INBOUND_BOUNDS.externalId);
  assert.ok(!status.externalId?.includes('\u0000'));
  assert.equal(status.reason?.length, INBOUND_BOUNDS.reason);
  const press = boundEvent('viber_bot', {
    kind: 'postback',
    message: message(),
    data: `x\ud800${long(5000)}`,
  });
  assert.ok(press.kind === 'postback');
  assert.equal(press.data.length, INBOUND_BOUNDS.payload);
  assert.ok(!/[\ud800-\udfff]/.test(press.data));
  const out = boundEvent('vk_bot', { kind: 'opt_out', client: { externalId: long(1000) } });
  assert.ok(out.kind === 'opt_out');
  assert.equal(out.client.externalId.length, INBOUND_BOUNDS.externalId);
});
