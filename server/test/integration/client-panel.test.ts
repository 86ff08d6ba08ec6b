import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

describe('client side panel: history on every channel, files, profile', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('the operator of the current chat reads the client’s earlier dialogs and files; others do not', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const opA = await org.user({ teams: [teamId], name: 'Anna' });
    const opB = await org.user({ teams: [teamId], name: 'Boris' });
    const chA = await makeChannel(org, teamId);
    const chB = await makeChannel(org, teamId);
    await goOnline(opA);
    await goOnline(opB);
    // An earlier dialog on channel A, with a file, handled and closed by Anna.
    const first = await s.api.as(chA.inboundKey).post(`/api/channels/${chA.id}/inbound`, {
      externalMessageId: 'f-1',
      client: { externalId: 'kate', name: 'Kate' },
      text: 'Here is the invoice',
      attachments: [
        { url: 'https://files.example/invoice.pdf', name: 'invoice.pdf', contentType: 'application/pdf' },
      ],
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const oldChat = first.body.entity.chatId;
    await opA.api.post(`/api/chats/${oldChat}/take`);
    await opA.api.post(`/api/chats/${oldChat}/messages`, { text: 'Thanks, paid' });
    await opA.api.post(`/api/chats/${oldChat}/messages`, { text: 'secret note', internal: true });
    const sup = await org.user({ role: 'SUPERVISOR' });
    const cat = (await sup.api.post('/api/categories', { name: 'Billing' })).body.entity.id;
    assert.equal((await opA.api.post(`/api/chats/${oldChat}/close`, { categoryId: cat })).status, 200);
    // Now the same person writes on channel B (one client: their contacts merged), and Boris takes it.
    s.clock.advance(60_000);
    const now = (await inbound(s, chB, { client: 'kate-b', name: 'Kate B', text: 'Me again' })).body.entity
      .chatId;
    const clientId = (await opB.api.get(`/api/chats/${now}`)).body.entity.client.id;
    const oldClient = (await opA.api.get(`/api/chats/${oldChat}`)).body.entity.client.id;
    await s.db.query('update contacts set client_id = $1 where client_id = $2', [clientId, oldClient]);
    await s.db.query('update chats set client_id = $1 where client_id = $2', [clientId, oldClient]);
    await opB.api.post(`/api/chats/${now}/take`);

    const history = await opB.api.get(`/api/clients/${clientId}/chats`);
    assert.equal(history.status, 200);
    assert.deepEqual(
      history.body.entity.items.map((c: { id: string; status: string }) => [c.id, c.status]),
      [
        [now, 'in_progress'],
        [oldChat, 'closed'],
      ],
    );
    assert.equal(history.body.entity.items[1].category.name, 'Billing');
    assert.equal(history.body.entity.items[1].operator.name, 'Anna');
    // Boris opens Anna's closed dialog in place (the chat itself stays hers: 404 through /api/chats).
    assert.equal((await opB.api.get(`/api/chats/${oldChat}`)).status, 404);
    const earlier = await opB.api.get(`/api/clients/${clientId}/chats/${oldChat}/messages`);
    assert.equal(earlier.status, 200);
    assert.deepEqual(
      earlier.body.entity.items.map((m: { text: string }) => m.text),
      ['Here is the invoice', 'Thanks, paid', 'secret note'],
    );
    const files = await opB.api.get(`/api/clients/${clientId}/files`);
    assert.equal(files.status, 200);
    assert.deepEqual(
      files.body.entity.items.map((f: { name: string; chatId: string }) => [f.name, f.chatId]),
      [['invoice.pdf', oldChat]],
    );
    // Someone who sees none of the client's chats sees nothing of them; nor does another organisation.
    const outsider = await org.user({ teams: [await makeTeam(org)] });
    for (const path of ['chats', `chats/${oldChat}/messages`, 'files']) {
      const res = await outsider.api.get(`/api/clients/${clientId}/${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 'profileNotFoundException');
      assert.equal(
        (await (await createOrganisation(s)).admin.api.get(`/api/clients/${clientId}/${path}`)).status,
        404,
      );
    }
    // A chat of another client is not reachable through this client.
    const stranger = (await inbound(s, chA, { client: 'stranger' })).body.entity.chatId;
    assert.equal(
      (await org.admin.api.get(`/api/clients/${clientId}/chats/${stranger}/messages`)).status,
      404,
    );
    // History needs the plan option.
    const plain = await createOrganisation(s, { options: ['OPTION_EXPIRING'] });
    assert.equal((await plain.admin.api.get(`/api/clients/${clientId}/chats`)).status, 403);
  });

  test('profile edit: AUTHORITY_PROFILE_UPDATE, name at most 32', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'n', name: 'Nina' })).body.entity.chatId;
    const clientId = (await org.admin.api.get(`/api/chats/${chatId}`)).body.entity.client.id;
    const long = await org.admin.api.patch(`/api/clients/${clientId}`, { name: 'x'.repeat(33) });
    assert.equal(long.status, 400);
    assert.equal(long.body.error.fields.name, 'Name specified incorrectly');
    const ok = await org.admin.api.patch(`/api/clients/${clientId}`, { name: 'x'.repeat(32) });
    assert.equal(ok.status, 200);
    const role = await org.admin.api.post('/api/roles', {
      name: 'Reader',
      description: 'Reads chats',
      rights: ['AUTHORITY_ALL_CHATS'],
    });
    const reader = await org.user({ role: role.body.entity.id });
    assert.equal((await reader.api.get(`/api/clients/${clientId}`)).status, 200);
    assert.equal((await reader.api.patch(`/api/clients/${clientId}`, { name: 'Nope' })).status, 403);
  });
});
