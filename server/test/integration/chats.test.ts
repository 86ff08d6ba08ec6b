import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

describe('chat operations', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  /** An organisation with a round-robin team, one online operator and a chat assigned to them. */
  async function assignedChat(options?: Parameters<typeof createOrganisation>[1]) {
    const org = await createOrganisation(s, options);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId], name: 'Olga' });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const res = await inbound(s, ch, { client: `c-${Math.random()}` });
    const chatId: string = res.body.entity.chatId;
    assert.equal((await chatOf(op, chatId)).operator.id, op.id);
    return { org, teamId, op, ch, chatId };
  }

  test('closing needs a category when the organisation has OPTION_CATEGORY; category changes are history', async () => {
    const { org, op, chatId } = await assignedChat();
    const refused = await op.api.post(`/api/chats/${chatId}/close`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'closeWithoutCategoryException');
    assert.equal((await op.api.post('/api/categories', { name: 'Billing' })).status, 403);
    const sup = await org.user({ role: 'SUPERVISOR' });
    const cat = await sup.api.post('/api/categories', { name: 'Billing' });
    assert.equal(cat.status, 200);
    assert.equal(
      (await sup.api.post('/api/categories', { name: 'billing' })).body.code,
      'categoryNameAlreadyExistsException',
    );
    assert.equal((await op.api.get('/api/categories')).body.entity.total, 1);
    const set = await op.api.put(`/api/chats/${chatId}/category`, { categoryId: cat.body.entity.id });
    assert.equal(set.status, 200);
    assert.equal(set.body.entity.category.name, 'Billing');
    assert.equal(
      (await op.api.put(`/api/chats/${chatId}/category`, { categoryId: null })).body.entity.category,
      null,
    );
    await op.api.put(`/api/chats/${chatId}/category`, { categoryId: cat.body.entity.id });
    const closed = await op.api.post(`/api/chats/${chatId}/close`);
    assert.equal(closed.status, 200);
    assert.equal(closed.body.entity.status, 'closed');
    const kinds = (await op.api.get(`/api/chats/${chatId}/history`)).body.entity.items.map(
      (h: { kind: string }) => h.kind,
    );
    assert.deepEqual(kinds, [
      'created',
      'assign',
      'category_set',
      'category_removed',
      'category_set',
      'close',
    ]);
    assert.equal((await op.api.post(`/api/chats/${chatId}/close`)).body.code, 'chatClosedException');
    assert.equal(
      (await op.api.post(`/api/chats/${chatId}/messages`, { text: 'late' })).body.code,
      'chatClosedException',
    );
    assert.equal((await op.api.get('/api/chats?filter=closed')).body.entity.total, 1);
    assert.equal((await op.api.get('/api/chats?filter=assigned')).body.entity.total, 0);
  });

  test('close takes the request category in the same step: history “category set” then “close”', async () => {
    const { org, op, chatId } = await assignedChat();
    const sup = await org.user({ role: 'SUPERVISOR' });
    const cat = (await sup.api.post('/api/categories', { name: 'Delivery' })).body.entity.id;
    const foreign = await createOrganisation(s);
    const foreignCat = (await foreign.admin.api.post('/api/categories', { name: 'Other' })).body.entity.id;
    for (const categoryId of [foreignCat, '01890000-0000-7000-8000-000000000000']) {
      const res = await op.api.post(`/api/chats/${chatId}/close`, { categoryId });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'categoryNotFoundException');
    }
    assert.equal((await op.api.post(`/api/chats/${chatId}/close`, { categoryId: 'nope' })).status, 400);
    assert.equal(
      (await op.api.post(`/api/chats/${chatId}/close`)).body.code,
      'closeWithoutCategoryException',
    );
    assert.equal((await chatOf(op, chatId)).status, 'in_progress');
    const rec = recordEvents(s);
    const closed = await op.api.post(`/api/chats/${chatId}/close`, { categoryId: cat });
    rec.stop();
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.equal(closed.body.entity.status, 'closed');
    assert.equal(closed.body.entity.category.name, 'Delivery');
    const history = (await op.api.get(`/api/chats/${chatId}/history`)).body.entity.items;
    assert.deepEqual(
      history.map((h: { kind: string }) => h.kind),
      ['created', 'assign', 'category_set', 'close'],
    );
    assert.equal(history[2].categoryId, cat);
    const closedEvent = rec.events.find((e) => e.type === 'chat.closed');
    assert.equal((closedEvent?.payload as { category: { id: string } }).category.id, cat);
    // The body is described in the API reference.
    const doc = (await s.api.get('/api/openapi.json')).body;
    const body = doc.paths['/api/chats/{id}/close'].post.requestBody.content['application/json'].schema;
    assert.ok(body.properties.categoryId);
    assert.equal(body.required, undefined);
  });

  test('without OPTION_CATEGORY close refuses a category and closes without one', async () => {
    const { op, chatId } = await assignedChat({ options: [] });
    const res = await op.api.post(`/api/chats/${chatId}/close`, {
      categoryId: '01890000-0000-7000-8000-000000000000',
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'optionUnavailableException');
    assert.equal((await op.api.post(`/api/chats/${chatId}/close`)).status, 200);
  });

  test('without OPTION_CATEGORY a chat closes without one, and the category endpoints are refused', async () => {
    const { op, chatId } = await assignedChat({ options: [] });
    assert.equal(
      (await op.api.put(`/api/chats/${chatId}/category`, { categoryId: null })).body.code,
      'optionUnavailableException',
    );
    assert.equal((await op.api.post(`/api/chats/${chatId}/close`)).status, 200);
  });

  test('messages: normal replies are pending until delivered, internal notes stay inside, edits mark the message', async () => {
    const { org, op, chatId } = await assignedChat();
    const rec = recordEvents(s);
    const sent = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'Hello, how can I help?' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.entity.kind, 'normal');
    assert.equal(sent.body.entity.direction, 'out');
    assert.equal(sent.body.entity.author.id, op.id);
    assert.ok(['pending', 'undelivered'].includes(sent.body.entity.status));
    const note = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'VIP client', internal: true });
    assert.equal(note.body.entity.kind, 'internal');
    assert.equal(note.body.entity.status, null);
    rec.stop();
    const created = rec.events.filter((e) => e.type === 'message.created');
    assert.equal(created.length, 2);
    for (const e of created)
      assert.deepEqual(e.audience, { rights: ['AUTHORITY_ALL_CHATS'], userIds: [op.id] });
    const edited = await op.api.patch(`/api/chats/${chatId}/messages/${sent.body.entity.id}`, {
      text: 'Hello! How can I help?',
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.entity.kind, 'edited');
    assert.ok(edited.body.entity.editedAt);
    const sup = await org.user({ role: 'SUPERVISOR' });
    const notMine = await sup.api.patch(`/api/chats/${chatId}/messages/${sent.body.entity.id}`, {
      text: 'x',
    });
    assert.equal(notMine.status, 403);
    assert.equal(notMine.body.code, 'messageEditDeniedException');
    const list = await sup.api.get(`/api/chats/${chatId}/messages`);
    assert.deepEqual(
      list.body.entity.items.map((m: { kind: string; text: string }) => [m.kind, m.text]),
      [
        ['normal', 'Hello'],
        ['edited', 'Hello! How can I help?'],
        ['internal', 'VIP client'],
      ],
    );
    assert.equal((await op.api.post(`/api/chats/${chatId}/messages`, { text: '' })).status, 400);
  });

  test('an operator sees only their own chats; another operator gets 404 for them', async () => {
    const { org, teamId, chatId } = await assignedChat();
    const colleague = await org.user({ teams: [teamId] });
    for (const path of [
      `/api/chats/${chatId}`,
      `/api/chats/${chatId}/messages`,
      `/api/chats/${chatId}/history`,
    ]) {
      const res = await colleague.api.get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 'chatNotFoundException');
    }
    for (const [path, body] of [
      [`/api/chats/${chatId}/messages`, { text: 'hi' }],
      [`/api/chats/${chatId}/close`, {}],
      [`/api/chats/${chatId}/transfer`, { teamId }],
      [`/api/chats/${chatId}/take`, {}],
    ] as const) {
      const res = await colleague.api.post(path, body);
      assert.ok([404, 409].includes(res.status), `${path}: ${res.status}`);
    }
    assert.equal((await colleague.api.get('/api/chats?filter=assigned')).body.entity.total, 0);
    const sup = await org.user({ role: 'SUPERVISOR' });
    assert.equal((await sup.api.get('/api/chats?filter=assigned')).body.entity.total, 1);
    assert.equal((await sup.api.get(`/api/chats/${chatId}`)).status, 200);
  });

  test('transfer to an online operator, to a team, to the last operator and to the personal manager', async () => {
    const { org, teamId, op, chatId } = await assignedChat({ options: [] });
    const other = await org.user({ teams: [teamId], name: 'Boris' });
    const offline = await org.user({ teams: [teamId] });
    const foreign = await createOrganisation(s);
    const cannot = async (body: unknown) => {
      const res = await op.api.post(`/api/chats/${chatId}/transfer`, body);
      assert.equal(res.status, 409, JSON.stringify(body));
      assert.equal(res.body.code, 'cannotTransferException');
    };
    await cannot({ operatorId: offline.id });
    await cannot({ operatorId: foreign.admin.id });
    await cannot({ operatorId: op.id });
    await cannot({ target: 'last_operator' });
    await cannot({ target: 'personal_manager' });
    assert.equal(
      (await op.api.post(`/api/chats/${chatId}/transfer`, { operatorId: other.id, teamId })).status,
      400,
    );

    await goOnline(other);
    const rec = recordEvents(s);
    const moved = await op.api.post(`/api/chats/${chatId}/transfer`, { operatorId: other.id });
    rec.stop();
    assert.equal(moved.status, 200);
    assert.equal(moved.body.entity.operator.id, other.id);
    const ev = rec.events.find((e) => e.type === 'chat.transferred');
    assert.deepEqual(new Set(ev?.audience.userIds), new Set([op.id, other.id]));
    assert.equal((await op.api.get(`/api/chats/${chatId}`)).status, 404);

    // Back to the previous (last) operator.
    const back = await other.api.post(`/api/chats/${chatId}/transfer`, { target: 'last_operator' });
    assert.equal(back.body.entity.operator.id, op.id);

    // The client's personal manager.
    const clientId = back.body.entity.client.id;
    const foreignPm = await op.api.patch(`/api/clients/${clientId}`, { personalManagerId: foreign.admin.id });
    assert.equal(foreignPm.status, 400);
    const setPm = await op.api.patch(`/api/clients/${clientId}`, { personalManagerId: other.id });
    assert.equal(setPm.status, 200);
    assert.equal(setPm.body.entity.personalManagerId, other.id);
    assert.equal(setPm.body.entity.contacts.length, 1);
    assert.equal((await foreign.admin.api.get(`/api/clients/${clientId}`)).status, 404);
    const pm = await op.api.post(`/api/chats/${chatId}/transfer`, { target: 'personal_manager' });
    assert.equal(pm.body.entity.operator.id, other.id);

    // Another team: the chat waits in its queue and is routed to its online operator.
    const sales = await makeTeam(org, { method: 'round_robin' });
    const seller = await org.user({ teams: [sales] });
    await goOnline(seller);
    const toTeam = await other.api.post(`/api/chats/${chatId}/transfer`, { teamId: sales });
    assert.equal(toTeam.status, 200);
    assert.equal(toTeam.body.entity.team.id, sales);
    assert.equal(toTeam.body.entity.operator.id, seller.id);
    const kinds = (await seller.api.get(`/api/chats/${chatId}/history`)).body.entity.items.map(
      (h: { kind: string }) => h.kind,
    );
    assert.deepEqual(kinds, ['created', 'assign', 'transfer', 'transfer', 'transfer', 'transfer', 'assign']);
  });

  test('what a conversation is about (a marketplace listing or order) is kept on the chat and follows the latest message', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await makeChannel(org, teamId);
    const push = (topic: unknown, text: string) =>
      s.api.as(ch.inboundKey).post(`/api/channels/${ch.id}/inbound`, {
        externalMessageId: `t-${text}`,
        client: { externalId: 'buyer-1', name: 'Buyer' },
        text,
        ...(topic === undefined ? {} : { topic }),
      });
    const first = await push(
      { kind: 'listing', id: '2345', title: 'Bicycle <b>', url: 'https://www.avito.ru/items/2345' },
      'is it available?',
    );
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const chatId = first.body.entity.chatId;
    const chat = (await org.admin.api.get(`/api/chats/${chatId}`)).body.entity;
    assert.deepEqual(chat.topic, {
      kind: 'listing',
      id: '2345',
      title: 'Bicycle <b>',
      url: 'https://www.avito.ru/items/2345',
    });
    // A message without one leaves it; the next topic replaces it; a script URL is refused.
    await push(undefined, 'hello?');
    assert.equal((await org.admin.api.get(`/api/chats/${chatId}`)).body.entity.topic.id, '2345');
    await push({ kind: 'order', id: 'A-77' }, 'and my order?');
    assert.deepEqual((await org.admin.api.get(`/api/chats/${chatId}`)).body.entity.topic, {
      kind: 'order',
      id: 'A-77',
      title: '',
      url: null,
    });
    const bad = await push({ kind: 'order', id: '1', url: 'javascript:alert(1)' }, 'x');
    assert.equal(bad.status, 400);
    // Lists carry it too.
    const list = (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items;
    assert.equal(list.find((c: { id: string }) => c.id === chatId)?.topic?.id, 'A-77');
  });

  test('counters follow the caller’s lists', async () => {
    const { org, teamId, op } = await assignedChat({ options: [] });
    await goOnline(op, 'break');
    const ch = await makeChannel(org, teamId);
    await inbound(s, ch, { client: 'w1' });
    await inbound(s, ch, { client: 'w2' });
    assert.deepEqual((await op.api.get('/api/chats/counters')).body.entity, { inProgress: 1, waiting: 2 });
    const outsider = await org.user({ teams: [] });
    assert.deepEqual((await outsider.api.get('/api/chats/counters')).body.entity, {
      inProgress: 0,
      waiting: 0,
    });
    assert.deepEqual((await org.admin.api.get('/api/chats/counters')).body.entity, {
      inProgress: 1,
      waiting: 2,
    });
  });
});
