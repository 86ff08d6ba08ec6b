import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.ts';
import { runMissedChatDigests } from '../../src/modules/channels/digest.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

const HOUR = 3_600_000;

async function waitFor(check: () => boolean, ms = 8000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the daily digest of a channel's missed chats", () => {
  let s: TestServer;
  // 10:00 in Moscow (the organisation's default time zone) on a fixed day, so the local day is known.
  const start = Date.parse('2026-03-10T07:00:00Z');
  before(async () => {
    s = await startTestServer({ clock: new ManualClock(start) });
  });
  after(async () => {
    await s.close();
  });
  // The digests sent to an address (its channel's other mails, such as 'Problem detected!', aside).
  const digests = (to: string) =>
    s.mails.filter((m) => m.to === to && !m.subject.startsWith('Problem detected!'));

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
    assert.equal(digests('ops@example.com').length, 0);

    // The next local day: one digest for the channel with an e-mail, none for the channel without.
    s.clock.advance(20 * HOUR);
    await runMissedChatDigests(s.app);
    await waitFor(() => digests('ops@example.com').length > 0);
    const mine = digests('ops@example.com');
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
    const theirs = digests('them@example.com');
    assert.equal(theirs.length, 1);
    assert.match(theirs[0].text, /Olaf Other/);
    assert.doesNotMatch(theirs[0].text, /Alice|Carol/);

    // Again (a second instance, a restart): no second mail.
    await runMissedChatDigests(s.app);
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
    await waitFor(() => digests('ru@example.com').length > 0);
    const [mail] = digests('ru@example.com');
    assert.match(mail.subject, /^SmartConnect: пропущенные чаты канала «Магазин» за \d{4}-\d{2}-\d{2}: 1$/);
    assert.match(mail.text, /Ольга/);
    assert.equal(digests('calm@example.com').length, 0);
  });
});
