import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { derivedId, readPhone, readRow, readStatus, readTime, recognise } from './formats.ts';

const MSK = 'Europe/Moscow';
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('SMS export formats', () => {
  test('recognises the SMS.ru and SMSC.ru headers, and guesses others', () => {
    const ru = recognise([
      'ID сообщения',
      'Номер получателя',
      'Текст сообщения',
      'Дата отправки',
      'Статус доставки',
    ]);
    assert.equal(ru.detected, 'smsru');
    assert.deepEqual(ru.mapping, { messageId: 0, phone: 1, text: 2, sentAt: 3, status: 4 });
    const smsc = recognise(['Дата и время', 'ID', 'Телефон', 'Сообщение', 'Статус', 'Стоимость']);
    assert.equal(smsc.detected, 'smsc');
    assert.deepEqual(smsc.mapping, { sentAt: 0, messageId: 1, phone: 2, text: 3, status: 4 });
    const other = recognise(['Phone', 'Message text', 'Whatever']);
    assert.equal(other.detected, null);
    assert.equal(other.mapping.phone, 0);
    assert.equal(other.mapping.text, 1);
    assert.equal(other.mapping.sentAt, null);
  });

  test('reads times as exports write them, naive ones in the organisation zone', () => {
    assert.equal(iso(readTime('27.11.2026 10:15:00', MSK)), '2026-11-27T07:15:00.000Z');
    assert.equal(iso(readTime('27.11.2026 10:15', MSK)), '2026-11-27T07:15:00.000Z');
    assert.equal(iso(readTime('2026-11-27 10:15:30', MSK)), '2026-11-27T07:15:30.000Z');
    assert.equal(iso(readTime('2026-11-27T10:15:30+05:00', MSK)), '2026-11-27T05:15:30.000Z');
    assert.equal(iso(readTime('2026-11-27T10:15:30Z', MSK)), '2026-11-27T10:15:30.000Z');
    assert.equal(iso(readTime('1795766400', MSK)), '2026-11-27T08:00:00.000Z');
    // Excel's serial 46353.5 is 2026-11-27 12:00 local.
    assert.equal(iso(readTime('46353.5', MSK)), '2026-11-27T09:00:00.000Z');
    assert.equal(readTime('31.02.2026 10:00', MSK), null);
    assert.equal(readTime('yesterday', MSK), null);
    assert.equal(readTime('', MSK), null);
  });

  test('reads statuses by the service code or words in either language', () => {
    assert.deepEqual(readStatus('103', 'smsru'), { status: 'delivered', reason: null });
    assert.deepEqual(readStatus('102', 'smsru'), { status: 'sent', reason: null });
    assert.deepEqual(readStatus('106', 'smsru'), { status: 'undelivered', reason: '106' });
    assert.deepEqual(readStatus('1', 'smsc'), { status: 'delivered', reason: null });
    assert.deepEqual(readStatus('2', 'smsc'), { status: 'read', reason: null });
    assert.deepEqual(readStatus('20', 'smsc'), { status: 'undelivered', reason: '20' });
    assert.equal(readStatus('Доставлено', 'other').status, 'delivered');
    assert.equal(readStatus('Не доставлено', 'other').status, 'undelivered');
    assert.equal(readStatus('Прочитано', 'other').status, 'read');
    assert.equal(readStatus('Delivered', 'other').status, 'delivered');
    assert.equal(readStatus('В очереди', 'other').status, 'sent');
  });

  test('reads phones in any writing, and refuses rows with their reason', () => {
    assert.equal(readPhone('8 (916) 123-45-67'), '+79161234567');
    assert.equal(readPhone("'79161234567"), '+79161234567');
    assert.equal(readPhone('+44 20 7946 0958'), '+442079460958');
    assert.equal(readPhone('12345'), null);
    assert.equal(readPhone('call me'), null);
    const m = { phone: 0, text: 1, sentAt: 2, status: null, messageId: 3 };
    const ctx = { service: 'smsc' as const, timeZone: MSK, now: new Date('2026-11-28T00:00:00Z') };
    assert.deepEqual(readRow(['x', 'hi', '27.11.2026 10:00', '1'], m, ctx), { refused: 'phone' });
    assert.deepEqual(readRow(['79161234567', '  ', '27.11.2026 10:00', '1'], m, ctx), { refused: 'text' });
    assert.deepEqual(readRow(['79161234567', 'x'.repeat(5001), '27.11.2026 10:00', '1'], m, ctx), {
      refused: 'text_too_long',
    });
    assert.deepEqual(readRow(['79161234567', 'hi', '01.01.2030 10:00', '1'], m, ctx), { refused: 'time' });
    const ok = readRow(['79161234567', 'hi\r\nthere', '27.11.2026 10:00', '77'], m, ctx);
    assert.ok(!('refused' in ok));
    // SMSC.ru's id is one send request: the SMS is the id and the phone.
    assert.equal(ok.externalId, '77:79161234567');
    assert.equal(ok.text, 'hi\nthere');
    const noId = readRow(['79161234567', 'hi', '27.11.2026 10:00', ''], m, ctx);
    assert.ok(!('refused' in noId));
    assert.equal(noId.externalId, derivedId('+79161234567', new Date('2026-11-27T07:00:00Z'), 'hi'));
  });
});
