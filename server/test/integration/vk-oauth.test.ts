import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeVk, startFakeVk } from '../fakes/vk.ts';
import { createOrganisation, logSink, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { makeTeam } from './chats-fixtures.ts';

/** The VK guide (log in with VK, choose a community, save) against a fake of VK's OAuth and API. */
describe('VK community bot: logging in with VK', () => {
  let s: TestServer;
  let vk: FakeVk;
  const logs = logSink();
  before(async () => {
    vk = await startFakeVk();
    vk.perSecond = 1_000;
    s = await startTestServer({
      logStream: logs.stream,
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
    const accounts = await org.admin.api.post('/api/channels/oauth/accounts', {
      type: 'vk_bot',
      grant: userGrant,
    });
    assert.equal(accounts.status, 200, JSON.stringify(accounts.body));
    assert.deepEqual(accounts.body.entity.items, [
      { id: String(vk.groupId), name: 'Shop VK', username: 'shopvk' },
    ]);
    const list = vk.calls.filter((c) => c.method === 'groups.get').at(-1);
    assert.equal(list?.params.filter, 'admin');
    assert.equal(list?.params.extended, '1');
    const other = await createOrganisation(s);
    const stolen = await other.admin.api.post('/api/channels/oauth/accounts', {
      type: 'vk_bot',
      grant: userGrant,
    });
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
    // The community's grant names that community, by its name (groups.getById with its token): the guide shows it.
    const community = await org.admin.api.post('/api/channels/oauth/accounts', {
      type: 'vk_bot',
      grant: grant,
    });
    assert.equal(community.status, 200, JSON.stringify(community.body));
    assert.deepEqual(community.body.entity.items, [
      { id: String(vk.groupId), name: 'Shop VK', username: 'shopvk' },
    ]);
    const byId = vk.calls.filter((c) => c.method === 'groups.getById').at(-1);
    assert.equal(byId?.params.group_id, String(vk.groupId));
    assert.equal(byId?.params.access_token, vk.token);
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

  /** Creates a VK channel in a new team of the organisation with its own fields (a grant, or a token...). */
  async function createVk(org: TestOrg, name: string, own: Record<string, unknown>) {
    const teamId = await makeTeam(org);
    return org.admin.api.post('/api/channels', {
      type: 'vk_bot',
      name,
      teamId,
      groupId: String(vk.groupId),
      ...own,
    });
  }
  /** The grant of the community's authorisation (its token, sealed). */
  const communityGrant = async (org: TestOrg) =>
    (await login(org, String(vk.groupId))).get('grant') as string;

  /** A channel connected by logging in with VK (its Callback API server added by us). */
  async function connectedByLogin(org: TestOrg, name: string) {
    const res = await createVk(org, name, { grant: await communityGrant(org) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return {
      id: res.body.entity.id as string,
      serverId: res.body.entity.settings.callbackServerId as number,
    };
  }

  test('deleting the channel removes the Callback API server we added (groups.deleteCallbackServer)', async () => {
    const org = await createOrganisation(s);
    const { id, serverId } = await connectedByLogin(org, 'VK deleted');
    assert.ok(vk.callbackServers.some((c) => c.id === serverId));
    // Deactivating keeps it (activating again uses it).
    assert.equal((await org.admin.api.patch(`/api/channels/${id}`, { status: 'inactive' })).status, 200);
    assert.ok(vk.callbackServers.some((c) => c.id === serverId));
    assert.equal((await org.admin.api.delete(`/api/channels/${id}`)).status, 200);
    assert.equal((await org.admin.api.get(`/api/channels/${id}`)).status, 404);
    assert.ok(!vk.callbackServers.some((c) => c.id === serverId), 'the server is gone from the community');
    const call = vk.calls.filter((c) => c.method === 'groups.deleteCallbackServer').at(-1);
    assert.deepEqual(
      { group: call?.params.group_id, server: call?.params.server_id, token: call?.params.access_token },
      { group: String(vk.groupId), server: String(serverId), token: vk.token },
    );
  });

  test('logging in with VK again replaces the Callback API server: the earlier one is removed', async () => {
    const org = await createOrganisation(s);
    const { id, serverId } = await connectedByLogin(org, 'VK again');
    const again = await org.admin.api.patch(`/api/channels/${id}`, { grant: await communityGrant(org) });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const next = again.body.entity.settings.callbackServerId as number;
    assert.notEqual(next, serverId);
    assert.ok(
      vk.callbackServers.some((c) => c.id === next),
      'the new server is in the community',
    );
    assert.ok(!vk.callbackServers.some((c) => c.id === serverId), 'the earlier server is gone');
    // Saving other fields connects nothing again: the server stays.
    assert.equal((await org.admin.api.patch(`/api/channels/${id}`, { name: 'VK renamed' })).status, 200);
    assert.ok(vk.callbackServers.some((c) => c.id === next));
  });

  test('a refused groups.deleteCallbackServer does not keep the channel: it is deleted and the refusal logged', async () => {
    const org = await createOrganisation(s);
    const { id, serverId } = await connectedByLogin(org, 'VK refused delete');
    vk.failNext('groups.deleteCallbackServer', 15, 'Access denied: no access to this group');
    assert.equal((await org.admin.api.delete(`/api/channels/${id}`)).status, 200);
    assert.equal((await org.admin.api.get(`/api/channels/${id}`)).status, 404);
    assert.ok(
      vk.callbackServers.some((c) => c.id === serverId),
      'VK kept it',
    );
    const logged = logs.lines
      .map((l) => JSON.parse(l) as { msg?: string; channel?: string; err?: { message?: string } })
      .find((l) => l.msg === 'channel not removed at the provider' && l.channel === id);
    assert.ok(logged, 'the refusal is logged with the channel');
    assert.match(logged.err?.message ?? '', /groups\.deleteCallbackServer refused: 15 Access denied/);
  });

  test('a channel entered by hand has no server of ours: deleting it calls nothing at VK', async () => {
    const org = await createOrganisation(s);
    const res = await createVk(org, 'VK by hand', {
      token: vk.token,
      secret: vk.secret,
      confirmation: vk.confirmation,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const before = vk.calls.filter((c) => c.method === 'groups.deleteCallbackServer').length;
    assert.equal((await org.admin.api.delete(`/api/channels/${res.body.entity.id}`)).status, 200);
    assert.equal(vk.calls.filter((c) => c.method === 'groups.deleteCallbackServer').length, before);
  });

  test('a set-up refused after the server was added removes that server again', async () => {
    const org = await createOrganisation(s);
    const grant = await communityGrant(org);
    const servers = vk.callbackServers.length;
    vk.failNext('groups.setCallbackSettings', 100, 'One of the parameters specified was missing or invalid');
    const res = await createVk(org, 'VK half set up', { grant });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(vk.callbackServers.length, servers, 'the server added is removed');
    assert.equal(vk.calls.at(-1)?.method, 'groups.deleteCallbackServer');
  });

  test('a refused Callback API set-up names VK; nothing is kept', async () => {
    const org = await createOrganisation(s);
    const grant = await communityGrant(org);
    vk.failNext('groups.addCallbackServer', 2000, 'Servers number limit is reached');
    const res = await createVk(org, 'VK refused', { grant });
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
    const res = await createVk(org, 'VK manual', { token: vk.token });
    assert.equal(res.status, 400);
    assert.ok(res.body.error.fields.secret);
  });
});
