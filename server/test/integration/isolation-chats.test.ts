import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

describe('conversation data is isolated between organisations and teams', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('a user of organisation B gets 404 for A’s channel, chat, messages and actions', async () => {
    const a = await createOrganisation(s);
    const b = await createOrganisation(s);
    const teamA = await makeTeam(a);
    const teamB = await makeTeam(b);
    const chA = await makeChannel(a, teamA);
    const chatId = (await inbound(s, chA, { client: 'secret' })).body.entity.chatId;
    const sent = await a.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'private', internal: true });
    const cat = await a.admin.api.post('/api/categories', { name: 'A only' });
    const intruder = b.admin; // an Administrator of B holds every right, AUTHORITY_ALL_CHATS included
    const reads = [
      `/api/channels/${chA.id}`,
      `/api/chats/${chatId}`,
      `/api/chats/${chatId}/messages`,
      `/api/chats/${chatId}/history`,
    ];
    for (const path of reads) assert.equal((await intruder.api.get(path)).status, 404, path);
    const writes: [string, string, unknown][] = [
      ['PATCH', `/api/channels/${chA.id}`, { name: 'mine now' }],
      ['DELETE', `/api/channels/${chA.id}`, undefined],
      ['POST', `/api/chats/${chatId}/messages`, { text: 'hi' }],
      ['PATCH', `/api/chats/${chatId}/messages/${sent.body.entity.id}`, { text: 'x' }],
      ['POST', `/api/chats/${chatId}/take`, {}],
      ['POST', `/api/chats/${chatId}/transfer`, { teamId: teamB }],
      ['POST', `/api/chats/${chatId}/close`, {}],
      ['PUT', `/api/chats/${chatId}/category`, { categoryId: null }],
      ['PATCH', `/api/categories/${cat.body.entity.id}`, { name: 'taken' }],
      ['DELETE', `/api/categories/${cat.body.entity.id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await intruder.api.call(method, path, body);
      assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
    }
    // B cannot point its channel at A's team, nor A's chat at B's category.
    const bad = await intruder.api.post('/api/channels', {
      type: 'api',
      name: 'x',
      teamId: teamA,
      webhookUrl: 'https://x.test',
    });
    assert.equal(bad.status, 400);
    const catB = await intruder.api.post('/api/categories', { name: 'B only' });
    assert.equal(
      (await a.admin.api.put(`/api/chats/${chatId}/category`, { categoryId: catB.body.entity.id })).status,
      404,
    );
    for (const filter of ['assigned', 'waiting', 'closed'])
      assert.equal((await intruder.api.get(`/api/chats?filter=${filter}`)).body.entity.total, 0);
    assert.equal((await intruder.api.get('/api/channels')).body.entity.total, 0);
    assert.deepEqual((await intruder.api.get('/api/chats/counters')).body.entity, {
      inProgress: 0,
      waiting: 0,
    });
    // A's key opens only A's channel.
    const chB = await makeChannel(b, teamB);
    assert.equal((await inbound(s, chB, { key: chA.inboundKey })).status, 401);
    assert.equal((await a.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.total, 2);
  });

  test('events carry their organisation and reach only the chat’s team, operator and AUTHORITY_ALL_CHATS', async () => {
    const a = await createOrganisation(s);
    const sales = await makeTeam(a);
    const support = await makeTeam(a);
    const seller = await a.user({ teams: [sales] });
    await goOnline(seller);
    const ch = await makeChannel(a, support);
    const rec = recordEvents(s);
    const waiting = (await inbound(s, ch, { client: 'w' })).body.entity.chatId;
    await inbound(s, ch, { client: 'w', text: 'waiting still' });
    const chSales = await makeChannel(a, sales);
    const assigned = (await inbound(s, chSales, { client: 'x' })).body.entity.chatId;
    await inbound(s, chSales, { client: 'x', text: 'second' });
    rec.stop();
    for (const e of rec.events) {
      assert.equal(e.organisationId, a.id);
      assert.deepEqual(e.audience.rights, ['AUTHORITY_ALL_CHATS']);
      const payload = e.payload as { id?: string; chatId?: string };
      const chat = payload.chatId ?? payload.id;
      if (chat === waiting) {
        assert.deepEqual(e.audience.teamIds, [support], e.type);
        assert.equal(e.audience.userIds, undefined);
      }
    }
    const queued = rec.events.filter((e) => (e.payload as { text?: string }).text === 'waiting still');
    assert.equal(queued.length, 1);
    assert.deepEqual(queued[0].audience, { rights: ['AUTHORITY_ALL_CHATS'], teamIds: [support] });
    const later = rec.events.filter(
      (e) => e.type === 'message.created' && (e.payload as { text: string }).text === 'second',
    );
    assert.equal(later.length, 1);
    // An assigned chat's messages go to its operator, not to the whole team.
    assert.deepEqual(later[0].audience, { rights: ['AUTHORITY_ALL_CHATS'], userIds: [seller.id] });
    assert.ok(
      rec.events.some((e) => e.type === 'chat.assigned' && (e.payload as { id: string }).id === assigned),
    );
  });
});
