import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

type Hit = {
  id: string;
  chatId: string;
  snippet: { text: string; match: boolean }[];
  chat: { status: string; client: { name: string } };
};

describe('extended search: messages and clients', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const find = async (u: TestUser, qs: string) => {
    const res = await u.api.get(`/api/search/messages?${qs}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity as { items: Hit[]; nextCursor: string | null };
  };

  test('Russian and English word forms match; the match is marked; filters; only visible chats', async () => {
    const org = await createOrganisation(s);
    const teamA = await makeTeam(org, { method: 'manual' });
    const teamB = await makeTeam(org, { method: 'manual' });
    const opA = await org.user({ teams: [teamA] });
    const opB = await org.user({ teams: [teamB] });
    const chA = await makeChannel(org, teamA);
    const chB = await makeChannel(org, teamB);
    const a = (await inbound(s, chA, { client: 'ru', name: 'Мария', text: 'Где мой заказ? Жду уже неделю' }))
      .body.entity.chatId;
    s.clock.advance(1000);
    const b = (await inbound(s, chB, { client: 'en', name: 'John', text: 'My orders are delivered late' }))
      .body.entity.chatId;
    s.clock.advance(1000);
    await inbound(s, chB, { client: 'other', name: 'Zed', text: 'Nothing relevant here <b>bold</b>' });

    const ru = await find(org.admin, `q=${encodeURIComponent('заказы')}`);
    assert.deepEqual(
      ru.items.map((h) => h.chatId),
      [a],
    );
    assert.deepEqual(
      ru.items[0].snippet.filter((p) => p.match).map((p) => p.text),
      ['заказ'],
    );
    assert.equal(ru.items[0].snippet.map((p) => p.text).join(''), 'Где мой заказ? Жду уже неделю');
    const en = await find(org.admin, 'q=order');
    assert.deepEqual(
      en.items.map((h) => h.chatId),
      [b],
    );
    assert.deepEqual(
      en.items[0].snippet.filter((p) => p.match).map((p) => p.text),
      ['orders'],
    );
    // Text is returned as text: markup in a message stays characters.
    const bold = await find(org.admin, 'q=bold');
    assert.equal(bold.items[0].snippet.map((p) => p.text).join(''), 'Nothing relevant here <b>bold</b>');
    // Filters: channel, team, status, period.
    assert.equal((await find(org.admin, `q=order&channelId=${chA.id}`)).items.length, 0);
    assert.equal((await find(org.admin, `q=order&teamId=${teamB}`)).items.length, 1);
    assert.equal((await find(org.admin, 'q=order&status=closed')).items.length, 0);
    assert.equal((await find(org.admin, 'q=order&status=waiting')).items.length, 1);
    const later = new Date(s.clock.now().getTime() + 60_000).toISOString();
    assert.equal((await find(org.admin, `q=order&from=${encodeURIComponent(later)}`)).items.length, 0);
    assert.equal((await find(org.admin, `q=order&to=${encodeURIComponent(later)}`)).items.length, 1);
    // An operator finds only the chats they may see; taking one makes it theirs (operator filter).
    assert.equal((await find(opA, 'q=order')).items.length, 0);
    assert.equal((await find(opB, 'q=order')).items.length, 1);
    await goOnline(opB);
    assert.equal((await opB.api.post(`/api/chats/${b}/take`)).status, 200);
    assert.equal((await find(org.admin, `q=order&operatorId=${opB.id}`)).items.length, 1);
    assert.equal((await find(org.admin, `q=order&operatorId=${opA.id}`)).items.length, 0);
    assert.equal((await find(opA, 'q=order')).items.length, 0);
    // Another organisation finds nothing of it.
    const other = await createOrganisation(s);
    assert.equal((await find(other.admin, 'q=order')).items.length, 0);
    assert.equal((await find(other.admin, `q=${encodeURIComponent('заказ')}`)).items.length, 0);
  });

  test('cursor pages, clients by name or id, required text, plan option', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await makeChannel(org, teamId);
    for (let i = 0; i < 7; i++) {
      await inbound(s, ch, {
        client: `c${i % 2}`,
        name: i % 2 ? 'Olga Ivanova' : 'Peter Pan',
        text: `refund ${i}`,
      });
      s.clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await find(org.admin, `q=refund&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((h) => h.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.equal(new Set(seen).size, 7);
    const clients = await org.admin.api.get('/api/search/clients?q=ivanov');
    assert.equal(clients.status, 200);
    assert.deepEqual(
      clients.body.entity.items.map((c: { name: string }) => c.name),
      ['Olga Ivanova'],
    );
    assert.equal(clients.body.entity.items[0].contacts[0].externalId, 'c1');
    assert.equal(clients.body.entity.items[0].lastChat.status, 'waiting');
    const byId = await org.admin.api.get('/api/search/clients?q=c0');
    assert.deepEqual(
      byId.body.entity.items.map((c: { name: string }) => c.name),
      ['Peter Pan'],
    );
    const outsider = await org.user({ teams: [await makeTeam(org)] });
    assert.equal((await outsider.api.get('/api/search/clients?q=ivanov')).body.entity.items.length, 0);
    const empty = await org.admin.api.get('/api/search/messages?q=%20');
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error.fields.q, 'Please fill in all required fields');
    const noOption = await createOrganisation(s, { options: ['OPTION_CATEGORY'] });
    assert.equal((await noOption.admin.api.get('/api/search/messages?q=refund')).status, 403);
    assert.equal((await noOption.admin.api.get('/api/search/clients?q=refund')).status, 403);
  });
});
