import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

describe('create chat: an outbound dialog with a known client', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('starts a new session assigned to the caller with their message; rules and refusals', async () => {
    const org = await createOrganisation(s, { options: ['OPTION_EXPIRING'] });
    const teamId = await makeTeam(org, { method: 'manual' });
    const op = await org.user({ teams: [teamId] });
    const op2 = await org.user({ teams: [teamId] });
    const ch = await makeChannel(org, teamId);
    const other = await makeChannel(org, teamId);
    await goOnline(op);
    const first = (await inbound(s, ch, { client: 'dan', name: 'Dan' })).body.entity.chatId;
    await op.api.post(`/api/chats/${first}/take`);
    const clientId = (await op.api.get(`/api/chats/${first}`)).body.entity.client.id;
    assert.equal((await op.api.post(`/api/chats/${first}/close`)).status, 200);

    // The create-chat page finds the client and the channels a dialog may start on.
    const found = await op.api.get('/api/clients?q=da');
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.entity.items[0].contacts.map((c: { channelId: string; startDialog: boolean }) => [
        c.channelId,
        c.startDialog,
      ]),
      [[ch.id, true]],
    );
    assert.equal((await op2.api.get('/api/clients?q=da')).body.entity.items.length, 0);

    const res = await op.api.post('/api/chats', {
      clientId,
      channelId: ch.id,
      text: 'Your order has shipped',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const chat = res.body.entity;
    assert.notEqual(chat.id, first);
    assert.equal(chat.status, 'in_progress');
    assert.equal(chat.operator.id, op.id);
    assert.equal(chat.session, 2);
    const msgs = (await op.api.get(`/api/chats/${chat.id}/messages`)).body.entity.items;
    assert.deepEqual(
      msgs.map((m: { text: string; direction: string }) => [m.direction, m.text]),
      [['out', 'Your order has shipped']],
    );
    const kinds = (await op.api.get(`/api/chats/${chat.id}/history`)).body.entity.items.map(
      (h: { kind: string }) => h.kind,
    );
    assert.deepEqual(kinds, ['reopen', 'assign']);
    // Again while it is open: the same chat, one more message; someone else is refused.
    const again = await op.api.post('/api/chats', { clientId, channelId: ch.id, text: 'Tracking: 123' });
    assert.equal(again.body.entity.id, chat.id);
    assert.equal((await op.api.get(`/api/chats/${chat.id}/messages`)).body.entity.items.length, 2);
    await goOnline(op2);
    const taken = await op2.api.post('/api/chats', { clientId, channelId: ch.id, text: 'Hi' });
    assert.equal(taken.status, 404, 'op2 never saw this client');
    const sup = await org.user({ role: 'SUPERVISOR' });
    const supTry = await sup.api.post('/api/chats', { clientId, channelId: ch.id, text: 'Hi' });
    assert.equal(supTry.status, 200, 'AUTHORITY_ALL_CHATS may write in it');
    // A channel the client has no contact on; a missing text; another organisation; an inactive channel.
    const wrong = await op.api.post('/api/chats', { clientId, channelId: other.id, text: 'Hi' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error.fields.channelId, 'Value specified incorrectly');
    const empty = await op.api.post('/api/chats', { clientId, channelId: ch.id, text: '  ' });
    assert.equal(empty.body.error.fields.text, 'Please fill in all required fields');
    const foreign = await createOrganisation(s);
    assert.equal(
      (await foreign.admin.api.post('/api/chats', { clientId, channelId: ch.id, text: 'x' })).status,
      404,
    );
    await op.api.post(`/api/chats/${chat.id}/close`);
    assert.equal((await org.admin.api.patch(`/api/channels/${ch.id}`, { status: 'inactive' })).status, 200);
    const off = await op.api.post('/api/chats', { clientId, channelId: ch.id, text: 'Hi' });
    assert.equal(off.status, 409);
    assert.equal(off.body.code, 'deactivatedChannelException');
    // Only users who receive dialogs or manage chats.
    const role = await org.admin.api.post('/api/roles', {
      name: 'Stats',
      description: 'x',
      rights: ['AUTHORITY_ALL_STAT'],
    });
    const viewer = await org.user({ role: role.body.entity.id, teams: [teamId] });
    assert.equal(
      (await viewer.api.post('/api/chats', { clientId, channelId: ch.id, text: 'x' })).status,
      403,
    );
  });

  test("someone else's open chat with the client: 409 chatAlreadyTakenException", async () => {
    const org = await createOrganisation(s, { options: ['OPTION_EXPIRING'] });
    const teamId = await makeTeam(org, { method: 'manual' });
    const op = await org.user({ teams: [teamId] });
    const ch = await makeChannel(org, teamId);
    await goOnline(op);
    const chatId = (await inbound(s, ch, { client: 'eve' })).body.entity.chatId;
    await op.api.post(`/api/chats/${chatId}/take`);
    const clientId = (await op.api.get(`/api/chats/${chatId}`)).body.entity.client.id;
    const role = await org.admin.api.post('/api/roles', {
      name: 'Agent',
      description: 'x',
      rights: ['AUTHORITY_CHAT_DISTRIBUTION'],
    });
    const agent = await org.user({ role: role.body.entity.id, teams: [teamId] });
    // The agent handled Eve's earlier chat (so they know her); her new chat is someone else's.
    await s.db.query(
      "update chats set operator_id = $1, status = 'closed', closed_at = now() where id = $2",
      [agent.id, chatId],
    );
    const again = (await inbound(s, ch, { client: 'eve', text: 'back' })).body.entity.chatId;
    await op.api.post(`/api/chats/${again}/take`);
    const res = await agent.api.post('/api/chats', { clientId, channelId: ch.id, text: 'Hi' });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'chatAlreadyTakenException');
  });
});
