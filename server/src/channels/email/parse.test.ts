import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMail } from './parse.ts';
import { align } from './poll.ts';
import { replySubject } from './send.ts';

const mail = (headers: string[], body = 'Hello') => Buffer.from(`${headers.join('\r\n')}\r\n\r\n${body}\r\n`);

test('machines’ mail opens nothing: Auto-Submitted, X-Autoreply, Precedence, out-of-office subjects, delay reports', async () => {
  const base = ['From: a@b.test', 'Message-ID: <x@b.test>'];
  for (const h of [
    'Auto-Submitted: auto-generated',
    'X-Autoreply: yes',
    'Precedence: auto_reply',
    'Subject: Автоответ: Re: заказ',
  ])
    assert.equal((await parseMail(mail([...base, h]))).kind, 'auto', h);
  assert.equal((await parseMail(mail([...base, 'Auto-Submitted: no', 'Subject: Hi']))).kind, 'mail');
  const delayed = mail(
    [...base, 'Content-Type: multipart/report; report-type=delivery-status; boundary="b"'],
    '--b\r\nContent-Type: text/plain\r\n\r\nDelayed\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx\r\n\r\nFinal-Recipient: rfc822; c@d.test\r\nAction: delayed\r\nStatus: 4.4.1\r\n\r\n--b--',
  );
  assert.equal((await parseMail(delayed)).kind, 'auto');
});

test('a mail without a Message-ID gets a stable id of its content; Reply-To is where the customer is answered', async () => {
  const raw = mail(['From: Ann <ann@b.test>', 'Reply-To: ann.private@c.test', 'Subject: Hi']);
  const a = await parseMail(raw);
  const b = await parseMail(raw);
  assert.equal(a.kind, 'mail');
  assert.equal(a.rfcId, b.rfcId);
  assert.match(a.rfcId, /^[0-9a-f]{64}@no-message-id$/);
  assert.equal(a.kind === 'mail' && a.from.address, 'ann.private@c.test');
  assert.equal(a.kind === 'mail' && a.from.name, 'Ann');
});

test('replies are "Re: <subject>" once, whatever prefixes clients stacked', () => {
  assert.equal(replySubject('RE: Re[2]: Fwd: Заказ'), 'Re: Заказ');
  assert.equal(replySubject('Ответ: Доставка'), 'Re: Доставка');
  assert.equal(replySubject('Order 5'), 'Re: Order 5');
});

test('the cursor: kept while UIDVALIDITY holds; a new channel starts at its check; a renumbered mailbox is re-read', () => {
  const box = { uidValidity: 7n, uidNext: 20 };
  const kept = { mailbox: 'm', uidValidity: '7', lastUid: 15 };
  assert.equal(align(kept, box, 'm'), kept);
  assert.deepEqual(align({}, box, 'm', { mailbox: 'm', uidValidity: '7', uidNext: 12 }), {
    mailbox: 'm',
    uidValidity: '7',
    lastUid: 11,
  });
  assert.deepEqual(align({}, box, 'm'), { mailbox: 'm', uidValidity: '7', lastUid: 19 });
  const renumbered = align({ ...kept, uidValidity: '6', lastDate: '2026-11-23T10:00:00.000Z' }, box, 'm');
  assert.deepEqual(renumbered, {
    mailbox: 'm',
    uidValidity: '7',
    lastUid: 0,
    lastDate: '2026-11-23T10:00:00.000Z',
    rescanSince: '2026-11-22T10:00:00.000Z',
  });
  // Another mailbox (the channel now reads another login or server) starts afresh.
  assert.deepEqual(align(kept, box, 'other'), { mailbox: 'other', uidValidity: '7', lastUid: 19 });
});
