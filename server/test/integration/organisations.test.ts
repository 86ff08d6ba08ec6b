import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import {
  type Api,
  createOrganisation,
  createPlatformStaff,
  startTestServer,
  type TestServer,
} from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

/** Plan options and operator licences: read by every user, changed by platform staff (RIGHT_OBSERVER) only. */
describe('organisations', () => {
  let s: TestServer;
  let staff: Api;
  before(async () => {
    s = await startTestServer();
    staff = await createPlatformStaff(s);
  });
  after(() => s.close());

  test('every user reads their organisation: options, licences and operators online', async () => {
    const org = await createOrganisation(s, { options: ['OPTION_CATEGORY'] });
    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    const res = await op.api.get('/api/organisation');
    assert.equal(res.status, 200);
    assert.equal(res.body.entity.id, org.id);
    assert.deepEqual(res.body.entity.options, ['OPTION_CATEGORY']);
    assert.equal(res.body.entity.operatorLicences, 1000);
    assert.equal(res.body.entity.onlineOperators, 1);
  });

  test('the first-run checklist: a channel, a colleague, a website chat tried; its administrator only, scoped', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const first = async () => {
      const res = await org.admin.api.get('/api/organisation/first-run');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.entity;
    };
    assert.deepEqual(await first(), {
      hasChats: false,
      channelConnected: false,
      colleagueInvited: false,
      widgetTried: false,
      widgetChannelId: null,
    });
    const teamId = await makeTeam(org);
    const op = await org.user({ role: 'OPERATOR', teams: [teamId] });
    const api = await makeChannel(org, teamId);
    const site = await org.admin.api.post('/api/channels', { type: 'site_chat', name: 'Site', teamId });
    assert.equal(site.status, 200, JSON.stringify(site.body));
    assert.equal((await inbound(s, api)).status, 200);
    assert.deepEqual(await first(), {
      hasChats: true,
      channelConnected: true,
      colleagueInvited: true,
      widgetTried: false,
      widgetChannelId: site.body.entity.id,
    });
    // A visitor's message on the website chat ticks the last item.
    const w = `/api/widget/${site.body.entity.id}`;
    const visitor = (await s.api.post(`${w}/visitors`)).body.entity as { token: string };
    const said = await s.api.call(
      'POST',
      `${w}/messages?token=${encodeURIComponent(visitor.token)}`,
      JSON.stringify({ clientMessageId: `cm-${Date.now()}`, text: 'Hi' }),
      { 'content-type': 'text/plain' },
    );
    assert.equal(said.status, 200, JSON.stringify(said.body));
    assert.equal((await first()).widgetTried, true);
    // Another organisation's data never counts; an operator may not read it.
    assert.equal(
      (await other.admin.api.get('/api/organisation/first-run')).body.entity.channelConnected,
      false,
    );
    assert.equal((await op.api.get('/api/organisation/first-run')).status, 403);
  });

  test('a deactivated organisation refuses inbound messages (nothing stored) and its users', async () => {
    const org = await createOrganisation(s);
    const ch = await makeChannel(org, await makeTeam(org));
    assert.equal((await inbound(s, ch, { client: 'before' })).status, 200);
    const off = await staff.patch(`/api/organisations/${org.id}`, { status: 'deactivated' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const count = async () =>
      (
        await s.app.db.query<{ n: number }>(
          'select count(*)::int as n from messages where organisation_id = $1',
          [org.id],
        )
      )[0].n;
    const before = await count();
    const refused = await inbound(s, ch, { client: 'after', externalMessageId: 'org-off' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'organizationDeactivatedException');
    assert.equal(await count(), before);
    assert.equal((await org.admin.api.get('/api/auth/user')).status, 401);
    await staff.patch(`/api/organisations/${org.id}`, { status: 'active' });
    assert.equal((await inbound(s, ch, { client: 'after', externalMessageId: 'org-off' })).status, 200);
    assert.equal(await count(), before + 1);
  });

  test('staff set the licence limit: the operator past it gets 409 all operator licences taken', async () => {
    const org = await createOrganisation(s);
    const a = await org.user({ role: 'OPERATOR' });
    const b = await org.user({ role: 'OPERATOR' });
    const set = await staff.patch(`/api/organisations/${org.id}`, { operatorLicences: 1 });
    assert.equal(set.status, 200);
    assert.equal(set.body.entity.operatorLicences, 1);
    assert.equal((await a.api.patch('/api/presence', { status: 'online' })).status, 200);
    const refused = await b.api.patch('/api/presence', { status: 'online' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'allLicencesTakenException');
    assert.equal(refused.body.error.message, 'all operator licences taken');
    await staff.patch(`/api/organisations/${org.id}`, { operatorLicences: 2 });
    assert.equal((await b.api.patch('/api/presence', { status: 'online' })).status, 200);
    const listed = (await staff.get('/api/organisations')).body.entity.items.find(
      (o: { id: string }) => o.id === org.id,
    );
    assert.equal(listed.onlineOperators, 2);
  });

  test('staff switch the category option: closing needs a category only while it is on', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await makeChannel(org, teamId);
    const chat = async () => {
      const { chatId } = (await inbound(s, ch, { client: `c-${Math.random()}` })).body.entity;
      assert.equal((await org.admin.api.post(`/api/chats/${chatId}/take`)).status, 200);
      return chatId as string;
    };
    const first = await chat();
    assert.equal(
      (await org.admin.api.post(`/api/chats/${first}/close`)).body.code,
      'closeWithoutCategoryException',
    );
    const off = await staff.patch(`/api/organisations/${org.id}`, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY'),
    });
    assert.ok(!off.body.entity.options.includes('OPTION_CATEGORY'));
    const second = await chat();
    const closed = await org.admin.api.post(`/api/chats/${second}/close`);
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.equal((await org.admin.api.get('/api/categories')).body.code, 'optionUnavailableException');
  });

  test('customers cannot change organisations, even their own; bad values get the field messages', async () => {
    const org = await createOrganisation(s);
    const own = await org.admin.api.patch(`/api/organisations/${org.id}`, { operatorLicences: 5000 });
    assert.equal(own.status, 403);
    assert.equal((await org.admin.api.get('/api/organisations')).status, 403);
    const bad = await staff.patch(`/api/organisations/${org.id}`, {
      operatorLicences: -1,
      name: '',
      options: ['OPTION_NOPE'],
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.fields, {
      operatorLicences: 'Quantity specified incorrectly',
      name: 'Name specified incorrectly',
      'options.0': 'Value specified incorrectly',
    });
    const missing = await staff.patch('/api/organisations/00000000-0000-7000-8000-000000000000', {
      name: 'X',
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'organizationNotFoundException');
  });

  test('a deactivated organisation is signed out and cannot log in', async () => {
    const org = await createOrganisation(s);
    const res = await staff.patch(`/api/organisations/${org.id}`, { status: 'deactivated' });
    assert.equal(res.body.entity.status, 'deactivated');
    assert.equal((await org.admin.api.get('/api/auth/user')).status, 401);
    const login = await s.api.post('/api/auth/login', {
      email: org.admin.email,
      password: org.admin.password,
    });
    assert.equal(login.body.code, 'invalidCredentialsException');
  });
});
