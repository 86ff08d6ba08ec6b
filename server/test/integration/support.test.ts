import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedSupportChannel } from '../../src/modules/support/service.ts';
import { createOrganisation, createPlatformStaff, startTestServer, type TestServer } from '../helpers.ts';

/** Platform support: the platform organisation's site chat, where signed-in users write as themselves. */
describe('platform support chat', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('a signed-in user chats with platform staff as themselves, identified by account and organisation', async () => {
    assert.equal((await s.api.get('/api/support/channel')).status, 404, 'no platform support yet');
    const staff = await createPlatformStaff(s);
    await seedSupportChannel(s.app);
    await seedSupportChannel(s.app);
    const { channelId } = (await s.api.get('/api/support/channel')).body.entity;
    assert.ok(channelId);
    const config = (await s.api.get(`/api/widget/${channelId}/config`)).body.entity;
    assert.equal(config.support, true);
    assert.equal(config.title, 'SmartConnect support');

    assert.equal((await s.api.post('/api/support/visitor')).status, 401, 'signed-in users only');
    const org = await createOrganisation(s);
    const me = (await org.admin.api.post('/api/support/visitor')).body.entity;
    assert.equal(me.channelId, channelId);
    assert.equal(
      (await org.admin.api.post('/api/support/visitor')).body.entity.token,
      me.token,
      'one identity a user',
    );
    const other = await org.user({ name: 'Olga Other' });
    const theirs = (await other.api.post('/api/support/visitor')).body.entity;
    assert.notEqual(theirs.token, me.token);

    const q = `token=${encodeURIComponent(me.token)}`;
    const sent = await s.api.post(`/api/widget/${channelId}/messages?${q}`, {
      clientMessageId: 'support-1',
      text: 'Our channel does not connect',
      name: 'Somebody Else',
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    // Platform staff see it in their own workspace, named by the account and organisation, not by the page.
    const waiting = (await staff.get('/api/chats?filter=waiting')).body.entity.items;
    assert.equal(waiting.length, 1);
    assert.match(waiting[0].client.name, /^Admin <admin-\w+@org-[\w-]+\.test> \(Org org-/);
    assert.equal((await staff.post(`/api/chats/${waiting[0].id}/take`)).status, 200);
    assert.equal(
      (await staff.post(`/api/chats/${waiting[0].id}/messages`, { text: 'Looking into it' })).status,
      200,
    );
    const history = (await s.api.get(`/api/widget/${channelId}/messages?${q}`)).body.entity.items;
    assert.deepEqual(
      history.map((m: { text: string }) => m.text),
      ['Our channel does not connect', 'Looking into it'],
    );
    // Another user of the same organisation reads none of it; the customer organisation never sees the chat.
    const theirQ = `token=${encodeURIComponent(theirs.token)}`;
    assert.deepEqual((await s.api.get(`/api/widget/${channelId}/messages?${theirQ}`)).body.entity.items, []);
    assert.equal((await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items.length, 0);
  });
});
