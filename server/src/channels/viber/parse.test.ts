import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RawRequest } from '../types.ts';
import { parseBigIdJson } from './api.ts';
import { devinoStatusEvent, parseDevinoReplies } from './parse.ts';
import { viberNamesOf } from './smsby.ts';

// Payloads as docs/providers/viber-regional.md writes them from the providers' documents (§1a Devino, §3 SMS.by).
const raw = (text: string): RawRequest => ({
  headers: { 'content-type': 'application/json' },
  query: {},
  rawBody: Buffer.from(text),
  body: undefined,
});
const REPLY = `[ { "id": 2, "parentId": 3158611117333282816, "receivedAt": "2024-05-01 10:05:00",
    "subject": "MyShop", "address": "79990001122", "contentType": "text", "content": "thanks" } ]`;

describe('Devino and SMS.by parsing', () => {
  test('64-bit ids are read exactly, as strings', () => {
    const answer = parseBigIdJson(
      '{ "status": "ok", "messages": [ { "code": "ok", "providerId": 3158611117333282816 } ] }',
    ) as { messages: { providerId: unknown }[] };
    assert.equal(answer.messages[0]?.providerId, '3158611117333282816');
    // Only the id fields: other long numbers stay numbers.
    assert.deepEqual(parseBigIdJson('{"id": 2, "price": 1234567890123456}'), {
      id: 2,
      price: 1234567890123456,
    });
  });

  test('a Devino reply is the client’s message, by phone', () => {
    assert.deepEqual(parseDevinoReplies(raw(REPLY)), [
      {
        kind: 'message',
        message: {
          externalMessageId: 'in-2',
          client: { externalId: '79990001122', name: '' },
          text: 'thanks',
          attachments: [],
        },
      },
    ]);
  });

  test('unreadable replies: a notice when the phone is known, else an unreadable part; never thrown', () => {
    const [notice, part, broken] = [
      ...parseDevinoReplies(raw('[{"id": 3, "address": "+7 999 000-11-22", "content": 5}]')),
      ...parseDevinoReplies(raw('[{"content": "no phone"}]')),
      ...parseDevinoReplies(raw('not json')),
    ];
    assert.equal(notice?.kind, 'message');
    assert.match(
      notice?.kind === 'message' ? notice.message.text : '',
      /^\[Unreadable Viber update: .*content/,
    );
    assert.equal(notice?.kind === 'message' ? notice.message.client.externalId : '', '79990001122');
    assert.equal(part?.kind, 'unreadable');
    assert.equal(broken?.kind, 'unreadable');
  });

  test('Devino statuses: delivered, read, failures with their reason, still on the way', () => {
    const id = '3158611117333282816';
    const item = (fields: Record<string, unknown>) => ({ providerId: id, code: 'ok', ...fields });
    assert.deepEqual(devinoStatusEvent(item({ status: 'delivered', statusAt: '2024-05-01 10:00:00' })), {
      kind: 'status',
      externalId: id,
      status: 'delivered',
    });
    assert.equal(devinoStatusEvent(item({ status: 'read' }))?.kind, 'status');
    assert.deepEqual(devinoStatusEvent(item({ status: 'undelivered', error: 'not-viber-user' })), {
      kind: 'status',
      externalId: id,
      status: 'undelivered',
      reason: 'undelivered: not-viber-user',
    });
    assert.equal(devinoStatusEvent(item({ status: 'vp_expired' }))?.status, 'undelivered');
    assert.equal(devinoStatusEvent(item({ status: 'enqueued' })), null);
    assert.equal(devinoStatusEvent(item({ status: 'sent' })), null);
    assert.deepEqual(
      devinoStatusEvent({ providerId: id, code: 'error-instant-message-provider-id-unknown' }),
      {
        kind: 'status',
        externalId: id,
        status: 'undelivered',
        reason: 'error-instant-message-provider-id-unknown',
      },
    );
  });

  test('after the SMS fallback the SMS segments decide', () => {
    const failed = { providerId: '5', code: 'ok', status: 'undelivered', error: 'user-blocked' };
    const sms = (...states: string[]) => ({
      ...failed,
      smsStates: states.map((state, i) => ({ id: i, state })),
    });
    assert.equal(devinoStatusEvent(sms('delivered', 'delivered'))?.status, 'delivered');
    assert.equal(devinoStatusEvent(sms('delivered', 'sent')), null);
    assert.deepEqual(devinoStatusEvent(sms('undelivered')), {
      kind: 'status',
      externalId: '5',
      status: 'undelivered',
      reason: 'undelivered: user-blocked; SMS undelivered',
    });
  });

  test('SMS.by Viber sender names in the shapes its answer may take', () => {
    const want = [{ id: '444', name: 'MyShop' }];
    assert.deepEqual(viberNamesOf({ result: [{ id: 444, name: 'MyShop' }] }), want);
    assert.deepEqual(viberNamesOf({ result: [{ vibername_id: '444', vibername: 'MyShop' }] }), want);
    assert.deepEqual(viberNamesOf({ 444: 'MyShop' }), want);
    assert.deepEqual(viberNamesOf({ error: 'Token not found' }), []);
  });
});
