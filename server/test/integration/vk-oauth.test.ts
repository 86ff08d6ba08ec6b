import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeVk, startFakeVk } from '../fakes/vk.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { makeTeam } from './chats-fixtures.ts';

/** The VK guide (log in with VK, choose a community, save) against a fake of VK's OAuth and API. */
describe('VK community bot: logging in with VK', () => {
  let s: TestServer;
  let vk: FakeVk;
  before(async () => {
    vk = await startFakeVk();
    vk.perSecond = 1_000;
    s = await startTestServer({
      env: {
        VK_API_BASE_URL: vk.baseUrl,
        VK_OAUTH_BASE_URL: vk.baseUrl,
        VK_APP_ID: vk.appId,
        VK_APP_SECRET: vk.appSecret,
      },
    });
  });
  after(async () => {
    await s.close();
    await vk.close();
  });

  const CALLBACK = 'http://localhost:3000/api/channels/oauth/vk_bot/callback';

  /** The admin's browser: start, VK's dialog, back to our callback; answers where it lands. */
  async function login(org: TestOrg, accountId?: string): Promise<URLSearchParams> {
    const start = await org.admin.api.get(
      `/api/channels/oauth/start?type=vk_bot${accountId ? `&accountId=${accountId}` : ''}`,
    );
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const dialog = new URL(start.body.entity.url);
    assert.equal(`${dialog.origin}${dialog.pathname}`, `${vk.baseUrl}/authorize`);
    const q = dialog.searchParams;
    assert.equal(q.get('client_id'), vk.appId);
    assert.equal(q.get('redirect_uri'), CALLBACK);
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('v'), '5.199');
    assert.equal(q.get('scope'), accountId ? 'messages,photos,docs,manage' : 'groups');
    assert.equal(q.get('group_ids'), accountId ?? null);
    assert.ok(q.get('state'));
    const atVk = await fetch(dialog, { redirect: 'manual' });
    assert.equal(atVk.status, 302);
    const back = new URL(atVk.headers.get('location') as string);
    const ours = await fetch(`${s.url}${back.pathname}${back.search}`, { redirect: 'manual' });
    assert.equal(ours.status, 302);
    const page = new URL(ours.headers.get('location') as string, 'http://localhost:3000');
    assert.equal(page.pathname, '/admin/preferences/channels');
    assert.equal(page.searchParams.get('connect'), 'vk_bot');
    return page.searchParams;
  }

  test('the whole guide: authorise, choose a community, its token, the Callback API set up, saved', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const first = await login(org);
    const userGrant = first.get('grant') as string;
    assert.ok(userGrant && !first.get('error'));
    assert.ok(!userGrant.includes(vk.userToken), 'the token never travels in the clear');
    const accounts = await org.admin.api.get(`/api/channels/oauth/accounts?type=vk_bot&grant=${userGrant}`);
    assert.equal(accounts.status, 200, JSON.stringify(accounts.body));
    assert.deepEqual(accounts.body.entity.items, [
      { id: String(vk.groupId), name: 'Shop VK', username: 'shopvk' },
    ]);
    const list = vk.calls.filter((c) => c.method === 'groups.get').at(-1);
    assert.equal(list?.params.filter, 'admin');
    assert.equal(list?.params.extended, '1');
    const other = await createOrganisation(s);
    const stolen = await other.admin.api.get(`/api/channels/oauth/accounts?type=vk_bot&grant=${userGrant}`);
    assert.equal(stolen.status, 404, 'another organisation cannot use the grant');

    // The user's grant is not a community token.
    const wrong = await org.admin.api.post('/api/channels', {
      type: 'vk_bot',
      name: 'VK guide',
      teamId,
      groupId: String(vk.groupId),
      grant: userGrant,
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error.fields.grant, 'Incorrect token/ID specified');

    const second = await login(org, String(vk.groupId));
    const grant = second.get('grant') as string;
    assert.equal(second.get('account'), String(vk.groupId));
    assert.ok(grant && !grant.includes(vk.token));
    const otherGroup = await org.admin.api.post('/api/channels', {
      type: 'vk_bot',
      name: 'VK guide',
      teamId,
      groupId: '1',
      grant,
    });
    assert.equal(otherGroup.status, 400, 'a community token is for its own community');
    assert.equal(otherGroup.body.error.fields.grant, 'Incorrect token/ID specified');

    const created = await org.admin.api.post('/api/channels', {
      type: 'vk_bot',
      name: 'VK guide',
      teamId,
      groupId: String(vk.groupId),
      grant,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const channelId = created.body.entity.id;
    const server = vk.callbackServers.at(-1);
    assert.ok(server);
    assert.equal(server.url, `http://localhost:3000/api/webhooks/vk_bot/${channelId}`);
    assert.match(server.secretKey, /^[A-Za-z0-9]{1,50}$/);
    assert.ok(server.title.length <= 14);
    assert.deepEqual(server.settings, {
      api_version: '5.199',
      message_new: '1',
      message_reply: '1',
      message_read: '1',
      message_allow: '1',
      message_deny: '1',
    });
    assert.equal(created.body.entity.settings.callbackServerId, server.id);
    const shown = JSON.stringify((await org.admin.api.get(`/api/channels/${channelId}`)).body);
    assert.ok(shown.includes('Shop VK') && shown.includes(vk.confirmation));
    assert.ok(!shown.includes(vk.token) && !shown.includes(server.secretKey), 'secrets are never shown');

    // VK's confirmation request and a signed event reach the channel with what we set up.
    const hook = `${s.url}/api/webhooks/vk_bot/${channelId}`;
    const confirm = await vk.deliver(hook, { type: 'confirmation', secret: undefined });
    assert.equal(confirm.status, 200);
    assert.equal(confirm.text, vk.confirmation);
    const forged = await vk.deliver(hook, { ...vk.messageNew(7001, { text: 'hi' }), secret: 'nope' });
    assert.notEqual(forged.text, 'ok');
    const signed = await vk.deliver(hook, vk.messageNew(7001, { text: 'hi' }));
    assert.equal(signed.status, 200);
    assert.equal(signed.text, 'ok');
  });

  test('a refused Callback API set-up names VK; nothing is kept', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const grant = (await login(org, String(vk.groupId))).get('grant') as string;
    vk.failNext('groups.addCallbackServer', 2000, 'Servers number limit is reached');
    const res = await org.admin.api.post('/api/channels', {
      type: 'vk_bot',
      name: 'VK refused',
      teamId,
      groupId: String(vk.groupId),
      grant,
    });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(res.body.error.message, 'Channel creation error');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0);
  });

  test('a refused login, a bad code and a forged state', async () => {
    const org = await createOrganisation(s);
    vk.deny = true;
    try {
      const refused = await login(org);
      assert.equal(refused.get('error'), 'accessDenied');
      assert.equal(refused.get('grant'), null);
    } finally {
      vk.deny = false;
    }
    // A code VK does not know: /access_token answers invalid_grant.
    const start = await org.admin.api.get('/api/channels/oauth/start?type=vk_bot');
    const state = new URL(start.body.entity.url).searchParams.get('state') as string;
    const bad = await fetch(
      `${s.url}/api/channels/oauth/vk_bot/callback?code=nope&state=${encodeURIComponent(state)}`,
      { redirect: 'manual' },
    );
    assert.equal(bad.status, 302);
    const page = new URL(bad.headers.get('location') as string, 'http://localhost:3000');
    assert.equal(page.searchParams.get('error'), 'accessDenied');
    const forged = await fetch(`${s.url}/api/channels/oauth/vk_bot/callback?code=x&state=forged`, {
      redirect: 'manual',
    });
    assert.equal(forged.status, 403);
    // accountId is a community's id.
    const notOurs = await org.admin.api.get('/api/channels/oauth/start?type=vk_bot&accountId=abc');
    assert.equal(notOurs.status, 400);
    const meta = await org.admin.api.get('/api/channels/oauth/start?type=telegram');
    assert.equal(meta.status, 404);
  });

  test('the manual form still asks for the secret and confirmation', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const res = await org.admin.api.post('/api/channels', {
      type: 'vk_bot',
      name: 'VK manual',
      teamId,
      groupId: String(vk.groupId),
      token: vk.token,
    });
    assert.equal(res.status, 400);
    assert.ok(res.body.error.fields.secret);
  });
});
