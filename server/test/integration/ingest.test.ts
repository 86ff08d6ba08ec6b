import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

describe('ingest through the API channel', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('creating a channel answers its id and inbound key once; lists never show secrets', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const created = await org.admin.api.post('/api/channels', {
      type: 'api',
      name: 'Website API',
      teamId,
      webhookUrl: 'https://example.test/hook',
    });
    assert.equal(created.status, 200);
    assert.equal(created.body.code, 'ok');
    assert.equal(created.body.error, null);
    const ch = created.body.entity;
    assert.match(ch.id, /^[0-9a-f-]{36}$/);
    assert.ok(ch.inboundKey.length >= 32);
    assert.equal(ch.status, 'active');
    assert.equal(ch.teamId, teamId);
    const list = await org.admin.api.get('/api/channels');
    assert.equal(list.body.entity.total, 1);
    assert.equal(list.body.entity.items[0].inboundKey, undefined);
    assert.equal(JSON.stringify(list.body).includes(ch.inboundKey), false);
    const dup = await org.admin.api.post('/api/channels', {
      type: 'api',
      name: 'website api',
      teamId,
      webhookUrl: 'https://x.test',
    });
    assert.equal(dup.body.code, 'channelAlreadyExistsException');
    const bad = await org.admin.api.post('/api/channels', {
      type: 'fax',
      name: 'X',
      teamId,
      webhookUrl: 'ftp://x',
    });
    assert.equal(bad.status, 400);
    // An unknown type has no fields to check beyond it; a known type's own fields are checked.
    assert.equal(bad.body.error.fields.type, 'Value specified incorrectly');
    const badUrl = await org.admin.api.post('/api/channels', {
      type: 'api',
      name: 'X',
      teamId,
      webhookUrl: 'ftp://x',
    });
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.body.error.fields.webhookUrl, 'Value specified incorrectly');
    const op = await org.user({ role: 'OPERATOR' });
    assert.equal(
      (await op.api.post('/api/channels', { type: 'api', name: 'Y', teamId, webhookUrl: 'https://x.test' }))
        .status,
      403,
    );
  });

  test('a message with the right key lands in a new Waiting chat of the channel team; a wrong key is 401', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await makeChannel(org, teamId);
    const before = await org.admin.api.get(`/api/channels/${ch.id}`);
    assert.equal(before.body.entity.lastInboundAt, null);
    const wrong = await inbound(s, ch, { key: 'not-the-key' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'unauthorizedException');
    const none = await s.api.post(`/api/channels/${ch.id}/inbound`, {
      externalMessageId: 'x',
      client: { externalId: 'c' },
      text: 'hi',
    });
    assert.equal(none.status, 401);
    const rec = recordEvents(s);
    const res = await inbound(s, ch, { client: 'ext-1', name: 'Ann', text: 'Hello there' });
    rec.stop();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.entity.duplicate, false);
    const chats = await org.admin.api.get('/api/chats?filter=waiting');
    assert.equal(chats.body.entity.total, 1);
    const chat = chats.body.entity.items[0];
    assert.equal(chat.id, res.body.entity.chatId);
    assert.equal(chat.status, 'waiting');
    assert.equal(chat.team.id, teamId);
    assert.equal(chat.client.name, 'Ann');
    assert.equal(chat.client.externalId, 'ext-1');
    assert.equal(chat.session, 1);
    const msgs = await org.admin.api.get(`/api/chats/${chat.id}/messages`);
    assert.equal(msgs.body.entity.total, 1);
    assert.deepEqual(
      {
        text: msgs.body.entity.items[0].text,
        direction: msgs.body.entity.items[0].direction,
        kind: msgs.body.entity.items[0].kind,
      },
      { text: 'Hello there', direction: 'in', kind: 'normal' },
    );
    const types = rec.events.map((e) => e.type);
    assert.ok(types.includes('chat.created') && types.includes('message.created'), types.join());
    const created = rec.events.find((e) => e.type === 'chat.created');
    assert.deepEqual(created?.audience, { rights: ['AUTHORITY_ALL_CHATS'], teamIds: [teamId] });
    // A second message of the same client joins the same chat.
    const second = await inbound(s, ch, { client: 'ext-1', text: 'Anyone?' });
    assert.equal(second.body.entity.chatId, chat.id);
    // The channel list shows when its latest customer message arrived.
    const list = await org.admin.api.get('/api/channels');
    const listed = list.body.entity.items.find((c: { id: string }) => c.id === ch.id);
    assert.ok(Date.parse(listed.lastInboundAt) >= Date.parse(chat.createdAt), listed.lastInboundAt);
  });

  test('the same provider message retried 20 times in parallel is stored once, every retry answered 200', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await makeChannel(org, teamId);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        inbound(s, ch, { client: 'dup-client', externalMessageId: 'provider-42', text: 'once' }),
      ),
    );
    for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(new Set(results.map((r) => r.body.entity.messageId)).size, 1);
    assert.equal(results.filter((r) => !r.body.entity.duplicate).length, 1);
    const counts = await s.app.db.query<{ messages: number; chats: number; clients: number }>(
      `select (select count(*)::int from messages where channel_id = $1) as messages,
              (select count(*)::int from chats where channel_id = $1) as chats,
              (select count(*)::int from contacts where channel_id = $1) as clients`,
      [ch.id],
    );
    assert.deepEqual(counts[0], { messages: 1, chats: 1, clients: 1 });
    // The same in an ongoing chat (the one-statement path), and a retry arriving later.
    const again = await Promise.all(
      Array.from({ length: 20 }, () =>
        inbound(s, ch, { client: 'dup-client', externalMessageId: 'provider-43', text: 'twice?' }),
      ),
    );
    for (const r of again) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(again.filter((r) => !r.body.entity.duplicate).length, 1);
    const before = (await org.admin.api.get(`/api/chats/${results[0].body.entity.chatId}`)).body.entity;
    const timersBefore = await s.app.db.query('select kind, due_at from timers order by kind, due_at');
    s.clock.advance(60_000);
    const late = await inbound(s, ch, {
      client: 'dup-client',
      externalMessageId: 'provider-42',
      text: 'once',
    });
    const afterRetry = (await org.admin.api.get(`/api/chats/${results[0].body.entity.chatId}`)).body.entity;
    assert.deepEqual(afterRetry, before, 'a retry changes nothing');
    assert.deepEqual(
      await s.app.db.query('select kind, due_at from timers order by kind, due_at'),
      timersBefore,
    );
    assert.equal(late.body.entity.duplicate, true);
    assert.equal(late.body.entity.messageId, results[0].body.entity.messageId);
    const [row] = await s.app.db.query<{ n: number }>(
      'select count(*)::int as n from messages where channel_id = $1',
      [ch.id],
    );
    assert.equal(row.n, 2);
  });

  test('parallel first messages of one new client open one chat', async () => {
    const org = await createOrganisation(s);
    const ch = await makeChannel(org, await makeTeam(org));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => inbound(s, ch, { client: 'burst', externalMessageId: `b-${i}` })),
    );
    for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(new Set(results.map((r) => r.body.entity.chatId)).size, 1);
    const [row] = await s.app.db.query<{ n: number; c: number }>(
      'select count(*)::int as n, (select count(*)::int from clients where organisation_id = $2) as c from messages where channel_id = $1',
      [ch.id, org.id],
    );
    assert.deepEqual(row, { n: 10, c: 1 });
  });

  test('a closed chat’s client writing again opens a new session', async () => {
    const org = await createOrganisation(s, { options: [] });
    const ch = await makeChannel(org, await makeTeam(org));
    const first = await inbound(s, ch, { client: 'again' });
    const closed = await org.admin.api.post(`/api/chats/${first.body.entity.chatId}/close`);
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const next = await inbound(s, ch, { client: 'again', text: 'me again' });
    assert.notEqual(next.body.entity.chatId, first.body.entity.chatId);
    const chat = (await org.admin.api.get(`/api/chats/${next.body.entity.chatId}`)).body.entity;
    assert.equal(chat.session, 2);
    assert.equal(
      chat.client.id,
      (await org.admin.api.get(`/api/chats/${first.body.entity.chatId}`)).body.entity.client.id,
    );
    const history = await org.admin.api.get(`/api/chats/${chat.id}/history`);
    assert.equal(history.body.entity.items[0].kind, 'reopen');
  });

  test('malformed inbound payloads are 400 and store nothing', async () => {
    const org = await createOrganisation(s);
    const ch = await makeChannel(org, await makeTeam(org));
    const res = await s.api
      .as(ch.inboundKey)
      .post(`/api/channels/${ch.id}/inbound`, { client: {}, text: '' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validationException');
    // Field messages are the spec's, not the validation library's.
    assert.deepEqual(res.body.error.fields, {
      externalMessageId: 'Please fill in all required fields',
      'client.externalId': 'Please fill in all required fields',
    });
    const noText = await s.api.as(ch.inboundKey).post(`/api/channels/${ch.id}/inbound`, {
      externalMessageId: 'x',
      client: { externalId: 'c' },
      text: ' ',
    });
    assert.deepEqual(noText.body.error.fields, { text: 'Please fill in all required fields' });
    const [row] = await s.app.db.query<{ n: number }>(
      'select count(*)::int as n from messages where channel_id = $1',
      [ch.id],
    );
    assert.equal(row.n, 0);
  });

  test('an inactive channel refuses inbound (not stored) and outbound; a deleted one is gone', async () => {
    const org = await createOrganisation(s);
    const ch = await makeChannel(org, await makeTeam(org));
    const res = await inbound(s, ch, { client: 'late' });
    assert.equal(res.status, 200);
    const chatId = res.body.entity.chatId;
    const off = await org.admin.api.patch(`/api/channels/${ch.id}`, { status: 'inactive' });
    assert.equal(off.body.entity.status, 'inactive');
    const stored = async () =>
      (
        await s.app.db.query<{ n: number }>(
          "select count(*)::int as n from messages where channel_id = $1 and direction = 'in'",
          [ch.id],
        )
      )[0].n;
    const before = await stored();
    const refused = await inbound(s, ch, { client: 'late', externalMessageId: 'while-off' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'deactivatedChannelException');
    assert.equal(await stored(), before, 'nothing stored: the provider keeps its copy');
    const send = await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'reply' });
    assert.equal(send.status, 409);
    assert.equal(send.body.code, 'deactivatedChannelException');
    const note = await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'note', internal: true });
    assert.equal(note.status, 200);
    // Active again: the provider's retry of the refused message is stored.
    await org.admin.api.patch(`/api/channels/${ch.id}`, { status: 'active' });
    assert.equal((await inbound(s, ch, { client: 'late', externalMessageId: 'while-off' })).status, 200);
    assert.equal(await stored(), before + 1);
    assert.equal((await org.admin.api.delete(`/api/channels/${ch.id}`)).status, 200);
    assert.equal((await org.admin.api.get(`/api/channels/${ch.id}`)).status, 404);
    assert.equal((await inbound(s, ch, { client: 'gone' })).status, 404);
    assert.equal((await org.admin.api.get(`/api/chats/${chatId}`)).status, 200);
  });

  test('a client writing under a new name renames the contact and the client (into the open chat and on a new session)', async () => {
    const org = await createOrganisation(s, { options: [] });
    const ch = await makeChannel(org, await makeTeam(org, { method: 'manual' }));
    const first = await inbound(s, ch, { client: 'renamer', name: 'Ann' });
    const chatId: string = first.body.entity.chatId;
    const client = async () => (await org.admin.api.get(`/api/chats/${chatId}`)).body.entity.client;
    const profile = async (id: string) => (await org.admin.api.get(`/api/clients/${id}`)).body.entity;
    const { id: clientId } = await client();
    assert.equal((await profile(clientId)).name, 'Ann');

    // Into the ongoing chat (the batch statement).
    assert.equal((await inbound(s, ch, { client: 'renamer', name: 'Ann Smith' })).status, 200);
    assert.equal((await client()).name, 'Ann Smith');
    const renamed = await profile(clientId);
    assert.equal(renamed.name, 'Ann Smith');
    assert.deepEqual(
      renamed.contacts.map((c: { name: string }) => c.name),
      ['Ann Smith'],
    );
    // No name: nothing changes. The same name again does not undo an operator's rename.
    await s.api.as(ch.inboundKey).post(`/api/channels/${ch.id}/inbound`, {
      externalMessageId: 'no-name',
      client: { externalId: 'renamer' },
      text: 'x',
    });
    assert.equal((await profile(clientId)).name, 'Ann Smith');
    assert.equal((await org.admin.api.patch(`/api/clients/${clientId}`, { name: 'VIP Ann' })).status, 200);
    await inbound(s, ch, { client: 'renamer', name: 'Ann Smith' });
    assert.equal((await profile(clientId)).name, 'VIP Ann');

    // A new session (the transactional path) with yet another name.
    assert.equal((await org.admin.api.post(`/api/chats/${chatId}/close`)).status, 200);
    const next = await inbound(s, ch, { client: 'renamer', name: 'Ann Jones' });
    assert.notEqual(next.body.entity.chatId, chatId);
    const chat = (await org.admin.api.get(`/api/chats/${next.body.entity.chatId}`)).body.entity;
    assert.equal(chat.client.id, clientId);
    assert.equal(chat.client.name, 'Ann Jones');
    assert.equal((await profile(clientId)).contacts[0].name, 'Ann Jones');
  });
});
