import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import { ManualClock } from '../../src/lib/clock.ts';
import { runMissedChatDigests } from '../../src/modules/channels/digest.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { startSmtpSink } from '../smtp-sink.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

const HOUR = 3_600_000;

describe("the daily digest of a channel's missed chats", () => {
  let s: TestServer;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  type Mail = { to: string; subject: string; text: string };
  const received: Mail[] = [];
  // 10:00 in Moscow (the organisation's default time zone) on a fixed day, so the local day is known.
  const start = Date.parse('2026-03-10T07:00:00Z');
  before(async () => {
    sink = await startSmtpSink();
    s = await startTestServer({
      clock: new ManualClock(start),
      realMailer: true,
      env: { SMTP_URL: sink.url },
    });
  });
  after(async () => {
    await s.close();
    await sink.close();
  });
  /** What the SMTP sink received so far, parsed (subject and text decoded). */
  async function readSink(): Promise<Mail[]> {
    for (const m of sink.mails.slice(received.length)) {
      const parsed = await simpleParser(m.raw);
      received.push({ to: m.to.join(','), subject: parsed.subject ?? '', text: parsed.text ?? '' });
    }
    return received;
  }
  // The digests sent to an address (its channel's other mails, such as 'Problem detected!', aside).
  const digests = (to: string) =>
    received.filter((m) => m.to === to && !m.subject.startsWith('Problem detected!'));
  /** Waits until the sink holds `n` digests for the address. */
  async function digestsFor(to: string, n: number) {
    const end = Date.now() + 8000;
    for (;;) {
      await readSink();
      if (digests(to).length >= n) return digests(to);
      if (Date.now() > end) throw new Error(`no digest for ${to}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  test('lists the chats whose last client message got no reply, once, in the organisation language', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId, { name: 'Shop line', notificationEmail: 'ops@example.com' });
    const quiet = await makeChannel(org, teamId);
    // Another organisation's chat of the same day: never in this digest.
    const other = await createOrganisation(s);
    const otherCh = await makeChannel(other, await makeTeam(other), {
      notificationEmail: 'them@example.com',
    });

    const chatOf = async (c: typeof ch, client: string, name: string) =>
      (await inbound(s, c, { client, name })).body.entity.chatId as string;
    const reply = async (chatId: string) => {
      const taken = await op.api.get(`/api/chats/${chatId}`);
      assert.equal(taken.status, 200);
      assert.equal((await op.api.post(`/api/chats/${chatId}/messages`, { text: 'On it' })).status, 200);
    };
    const missedA = await chatOf(ch, 'a', 'Alice Missed');
    const answered = await chatOf(ch, 'b', 'Bob Answered');
    await reply(answered);
    s.clock.advance(HOUR);
    const late = await chatOf(ch, 'c', 'Carol Late');
    await reply(late);
    s.clock.advance(HOUR);
    // Carol writes again after the reply, and nobody answers: missed.
    await inbound(s, ch, { client: 'c', name: 'Carol Late', text: 'Anyone?' });
    await chatOf(quiet, 'q', 'Quinn Quiet');
    await chatOf(otherCh, 'o', 'Olaf Other');

    // Still the same day: nothing yet.
    await runMissedChatDigests(s.app);
    await readSink();
    assert.equal(digests('ops@example.com').length, 0);

    // The next local day: one digest for the channel with an e-mail, none for the channel without.
    s.clock.advance(20 * HOUR);
    await runMissedChatDigests(s.app);
    const mine = await digestsFor('ops@example.com', 1);
    assert.equal(mine.length, 1);
    const [mail] = mine;
    assert.equal(mail.subject, 'SmartConnect: missed chats of Shop line on 2026-03-10: 2');
    assert.match(mail.text, /Alice Missed \((in progress|waiting)\)/);
    assert.match(mail.text, /Carol Late/);
    assert.doesNotMatch(mail.text, /Bob Answered|Quinn Quiet|Olaf Other/);
    assert.match(mail.text, new RegExp(`/admin/chats\\?filter=\\w+&chat=${missedA}`));
    assert.match(mail.text, new RegExp(`chat=${late}`));
    // Alice (10:00 Moscow) before Carol's second message (12:00).
    assert.ok(mail.text.indexOf('Alice') < mail.text.indexOf('Carol'));
    assert.match(mail.text, /- 10:00 Alice Missed/);
    // The other organisation's digest names only its own chat.
    const theirs = await digestsFor('them@example.com', 1);
    assert.equal(theirs.length, 1);
    assert.match(theirs[0].text, /Olaf Other/);
    assert.doesNotMatch(theirs[0].text, /Alice|Carol/);

    // Again (a second instance, a restart): no second mail.
    await runMissedChatDigests(s.app);
    await readSink();
    assert.equal(digests('ops@example.com').length, 1);
  });

  test('a Russian organisation gets its digest in Russian; a day with nothing missed sends nothing', async () => {
    const org = await createOrganisation(s);
    await s.app.db.query(`update organisations set language = 'rus' where id = $1`, [org.id]);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId, { name: 'Магазин', notificationEmail: 'ru@example.com' });
    const calm = await makeChannel(org, teamId, { name: 'Calm', notificationEmail: 'calm@example.com' });
    await inbound(s, ch, { client: 'r', name: 'Ольга' });
    const answered = (await inbound(s, calm, { client: 'k', name: 'Kim' })).body.entity.chatId;
    assert.equal((await op.api.post(`/api/chats/${answered}/messages`, { text: 'Hi' })).status, 200);
    s.clock.advance(24 * HOUR);
    await runMissedChatDigests(s.app);
    const [mail] = await digestsFor('ru@example.com', 1);
    assert.match(mail.subject, /^SmartConnect: пропущенные чаты канала «Магазин» за \d{4}-\d{2}-\d{2}: 1$/);
    assert.match(mail.text, /Ольга/);
    await readSink();
    assert.equal(digests('calm@example.com').length, 0);
  });
});
