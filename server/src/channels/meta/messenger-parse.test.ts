import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AdapterChannel, RawRequest } from '../types.ts';
import { type MessengerKind, parse } from './messenger-parse.ts';

const facebook: MessengerKind = { type: 'facebook', object: 'page', label: 'Facebook', scope: '' };
const channel: AdapterChannel = {
  id: 'c1',
  organisationId: 'o1',
  inboundKeyHash: null,
  settings: { pageId: 'PAGE', accountId: 'PAGE' },
  secrets: {},
};
const req = (messaging: unknown[]): RawRequest => {
  const body = { object: 'page', entry: [{ id: 'PAGE', time: 1, messaging }] };
  return { headers: {}, query: {}, rawBody: Buffer.from(JSON.stringify(body)), body };
};
const who = { sender: { id: 'PSID' }, recipient: { id: 'PAGE' } };

test('Messenger marks as the documents show them: delivery mids and watermark, read watermark, seen mid', () => {
  assert.deepEqual(
    parse(facebook, channel, req([{ ...who, delivery: { mids: ['m_1', 'm_2'], watermark: 1458668856253 } }])),
    [
      { kind: 'status', externalId: 'm_1', status: 'delivered' },
      { kind: 'status', externalId: 'm_2', status: 'delivered' },
      { kind: 'status', status: 'delivered', watermark: { clientExternalId: 'PSID', at: 1458668856253 } },
    ],
  );
  assert.deepEqual(
    parse(facebook, channel, req([{ ...who, timestamp: 2, read: { watermark: 1458668856253 } }])),
    [{ kind: 'status', status: 'read', watermark: { clientExternalId: 'PSID', at: 1458668856253 } }],
  );
  assert.deepEqual(parse(facebook, channel, req([{ ...who, timestamp: 2, read: { mid: 'm_9' } }])), [
    { kind: 'status', externalId: 'm_9', status: 'read', upTo: true },
  ]);
});

test("Messenger's other events are ignored by name; echoes and deleted messages give nothing", () => {
  assert.deepEqual(
    parse(
      facebook,
      channel,
      req([{ ...who, timestamp: 3, reaction: { mid: 'm_1', action: 'react', emoji: '❤' } }]),
    ),
    [{ kind: 'ignored', what: 'reaction' }],
  );
  assert.deepEqual(
    parse(facebook, channel, req([{ ...who, timestamp: 3, message: { mid: 'm_3', is_deleted: true } }])),
    [],
  );
});
