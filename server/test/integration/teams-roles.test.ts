import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, createPlatformStaff, startTestServer, type TestServer } from '../helpers.ts';

describe('teams', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('each invalid field gets its message', async () => {
    const org = await createOrganisation(s);
    const res = await org.admin.api.post('/api/teams', {
      name: 'x'.repeat(65),
      description: '',
      distributionMethod: 'random',
      dialogLimit: 0,
      autoRedistributionMinutes: 1000,
      autoCloseMinutes: 4321,
      inactivityHours: 12,
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.error.fields, {
      name: 'Name specified incorrectly',
      description: 'Description specified incorrectly',
      distributionMethod: 'Distribution method specified incorrectly',
      dialogLimit: 'Quantity specified incorrectly',
      autoRedistributionMinutes: 'Time specified incorrectly',
      autoCloseMinutes: 'Time specified incorrectly',
      inactivityHours: 'Time set incorrectly',
    });
    const longDescription = await org.admin.api.post('/api/teams', {
      name: 'ok',
      description: 'd'.repeat(129),
    });
    assert.equal(longDescription.body.error.fields.description, 'Description specified incorrectly');
    const limit = await org.admin.api.post('/api/teams', {
      name: 'ok',
      description: 'ok',
      dialogLimit: 1000,
    });
    assert.equal(limit.body.error.fields.dialogLimit, 'Quantity specified incorrectly');
  });

  test('boundaries are accepted: 64/128 characters, limits 1..999, auto close 4320, inactivity 0 and 24', async () => {
    const org = await createOrganisation(s);
    const res = await org.admin.api.post('/api/teams', {
      name: 'n'.repeat(64),
      description: 'd'.repeat(128),
      distributionMethod: 'least_loaded',
      dialogLimit: 999,
      autoRedistributionMinutes: 1,
      autoCloseMinutes: 4320,
      inactivityHours: 24,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const off = await org.admin.api.patch(`/api/teams/${res.body.entity.id}`, {
      inactivityHours: 0,
      autoCloseMinutes: null,
    });
    assert.equal(off.body.entity.inactivityHours, 0);
    assert.equal(off.body.entity.autoCloseMinutes, null);
  });

  test('create, list with search, update members, delete', async () => {
    const org = await createOrganisation(s);
    const a = await org.user({ name: 'Anna' });
    const b = await org.user({ name: 'Bob' });
    const created = await org.admin.api.post('/api/teams', {
      name: 'Support',
      description: 'Existing customers',
      memberIds: [a.id, b.id],
    });
    assert.equal(created.status, 200);
    const team = created.body.entity;
    assert.equal(team.memberCount, 2);
    assert.equal(team.distributionMethod, 'round_robin');
    await org.admin.api.post('/api/teams', { name: 'Sales', description: 'New customers' });
    const dup = await org.admin.api.post('/api/teams', { name: 'support', description: 'again' });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'teamNameAlreadyExistsException');

    const list = await org.admin.api.get('/api/teams?search=sup');
    assert.deepEqual(
      list.body.entity.items.map((t: { name: string }) => t.name),
      ['Support'],
    );
    const upd = await org.admin.api.patch(`/api/teams/${team.id}`, { memberIds: [b.id], dialogLimit: 3 });
    assert.equal(upd.body.entity.memberCount, 1);
    assert.equal(upd.body.entity.dialogLimit, 3);
    assert.deepEqual((await a.api.get(`/api/users/${a.id}`)).body.entity.teams, []);

    const del = await org.admin.api.delete(`/api/teams/${team.id}`);
    assert.equal(del.status, 200);
    assert.equal((await org.admin.api.get(`/api/teams/${team.id}`)).body.code, 'teamNotFoundException');
  });

  test('an operator reads teams but cannot change them', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const team = (await org.admin.api.post('/api/teams', { name: 'T', description: 'D' })).body.entity;
    assert.equal((await op.api.get('/api/teams')).status, 200);
    assert.equal((await op.api.patch(`/api/teams/${team.id}`, { name: 'X' })).status, 403);
    assert.equal((await op.api.delete(`/api/teams/${team.id}`)).status, 403);
  });
});

describe('roles', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('built-in roles exist and are immutable', async () => {
    const org = await createOrganisation(s);
    const list = await org.admin.api.get('/api/roles');
    assert.deepEqual(
      list.body.entity.items.map((r: { builtIn: string }) => r.builtIn),
      ['OPERATOR', 'SUPERVISOR', 'ADMINISTRATOR'],
    );
    const op = list.body.entity.items[0];
    assert.deepEqual(op.rights.sort(), ['AUTHORITY_CHAT_DISTRIBUTION', 'AUTHORITY_PROFILE_UPDATE']);
    for (const id of [org.roles.OPERATOR, org.roles.SUPERVISOR, org.roles.ADMINISTRATOR]) {
      const upd = await org.admin.api.patch(`/api/roles/${id}`, { name: 'Hacked' });
      assert.equal(upd.status, 409);
      assert.equal(upd.body.code, 'immutableRoleUpdateException');
      assert.equal(upd.body.error.message, 'immutable role cannot be updated');
      assert.equal(
        (await org.admin.api.delete(`/api/roles/${id}`)).body.code,
        'immutableRoleUpdateException',
      );
    }
  });

  test('custom role: validation, create, unique name, update, in use, delete', async () => {
    const org = await createOrganisation(s);
    const bad = await org.admin.api.post('/api/roles', {
      name: 'r'.repeat(33),
      description: 'd'.repeat(256),
      rights: ['NOPE'],
    });
    assert.deepEqual(bad.body.error.fields, {
      name: 'Name specified incorrectly',
      description: 'Description specified incorrectly',
      'rights.0': 'Rights specified incorrectly',
    });
    const empty = await org.admin.api.post('/api/roles', { name: '', description: '', rights: [] });
    assert.equal(empty.body.error.fields.name, 'Name specified incorrectly');
    assert.equal(empty.body.error.fields.description, 'Description specified incorrectly');

    const created = await org.admin.api.post('/api/roles', {
      name: 'r'.repeat(32),
      description: 'Quality control',
      rights: ['AUTHORITY_ALL_STAT', 'AUTHORITY_ALL_STAT'],
    });
    assert.equal(created.status, 200);
    assert.deepEqual(created.body.entity.rights, ['AUTHORITY_ALL_STAT']);
    assert.equal(created.body.entity.builtIn, null);
    const dup = await org.admin.api.post('/api/roles', {
      name: 'R'.repeat(32),
      description: 'x',
      rights: [],
    });
    assert.equal(dup.body.code, 'roleNameAlreadyExistsException');

    const id = created.body.entity.id;
    const upd = await org.admin.api.patch(`/api/roles/${id}`, {
      name: 'QA',
      rights: ['AUTHORITY_ALL_STAT', 'AUTHORITY_FINANCE'],
    });
    assert.equal(upd.body.entity.name, 'QA');
    assert.deepEqual(upd.body.entity.rights, ['AUTHORITY_ALL_STAT', 'AUTHORITY_FINANCE']);

    const holder = await org.user({ role: id });
    const inUse = await org.admin.api.delete(`/api/roles/${id}`);
    assert.equal(inUse.body.code, 'roleInUseException');
    assert.ok((await holder.api.get('/api/auth/user')).body.entity.rights.includes('AUTHORITY_FINANCE'));
    await org.admin.api.patch(`/api/users/${holder.id}`, { roleId: org.roles.OPERATOR });
    assert.equal((await org.admin.api.delete(`/api/roles/${id}`)).status, 200);
    assert.equal((await org.admin.api.get(`/api/roles/${id}`)).body.code, 'roleNotFoundException');
  });

  test('a role change takes effect on the next call', async () => {
    const org = await createOrganisation(s);
    const u = await org.user({ role: 'OPERATOR' });
    assert.equal((await u.api.post('/api/teams', { name: 'X', description: 'Y' })).status, 403);
    await org.admin.api.patch(`/api/users/${u.id}`, { roleId: org.roles.SUPERVISOR });
    assert.equal((await u.api.post('/api/teams', { name: 'X', description: 'Y' })).status, 200);
  });

  test('rights list has every assignable right and plan option', async () => {
    const org = await createOrganisation(s);
    const res = await org.admin.api.get('/api/rights');
    // §6's 14 rights without RIGHT_OBSERVER, and AUTHORITY_MAILING; §3's 15 options and OPTION_MAILING (issue 33).
    assert.equal(res.body.entity.rights.length, 14);
    assert.equal(res.body.entity.options.length, 16);
  });
});

describe("§8 'team modify denied'", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    await s.close();
  });

  test('platform staff lock the teams of one organisation: create, change and delete refused; others unaffected', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const staff = await createPlatformStaff(s);
    const team = (name: string) => ({ name, description: 'Evening chats' });
    const created = await org.admin.api.post('/api/teams', team('Night shift'));
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const locked = await staff.patch(`/api/organisations/${org.id}`, { modifyDenied: ['TEAM'] });
    assert.equal(locked.status, 200, JSON.stringify(locked.body));
    for (const [method, path, body] of [
      ['POST', '/api/teams', team('New')],
      ['PATCH', `/api/teams/${created.body.entity.id}`, { name: 'Renamed' }],
      ['DELETE', `/api/teams/${created.body.entity.id}`, undefined],
    ] as const) {
      const res = await org.admin.api.call(method, path, body);
      assert.deepEqual([res.status, res.body.code], [403, 'teamModifyDeniedException'], `${method} ${path}`);
      assert.equal(res.body.error.message, 'team modify denied');
    }
    assert.equal((await other.admin.api.post('/api/teams', team('New'))).status, 200);
    assert.equal((await staff.patch(`/api/organisations/${org.id}`, { modifyDenied: [] })).status, 200);
    assert.equal((await org.admin.api.post('/api/teams', team('New'))).status, 200);
  });
});
