import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { routeRegistry } from '../../src/http/route.ts';
import { createOrganisation, createPlatformStaff, startTestServer, type TestServer } from '../helpers.ts';
import { fixtures, send } from '../route-fixtures.ts';

describe('tenant isolation', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('a user of organisation B gets 404 for every object of A', async () => {
    const a = await createOrganisation(s);
    const b = await createOrganisation(s);
    const aUser = await a.user({ name: 'Alice A' });
    const aTeam = (await a.admin.api.post('/api/teams', { name: 'A team', description: 'A' })).body.entity;
    const aRole = (await a.admin.api.post('/api/roles', { name: 'A role', description: 'A', rights: [] }))
      .body.entity;
    const B = b.admin.api;
    const attempts: [string, Promise<{ status: number; body: { code: string } }>, string][] = [
      ['get user', B.get(`/api/users/${aUser.id}`), 'accountNotFoundException'],
      ['patch user', B.patch(`/api/users/${aUser.id}`, { name: 'Owned' }), 'accountNotFoundException'],
      ['deactivate user', B.post(`/api/users/${aUser.id}/deactivate`), 'accountNotFoundException'],
      ['user teams', B.put(`/api/users/${aUser.id}/teams`, { teamIds: [] }), 'accountNotFoundException'],
      ['user photo', B.delete(`/api/users/${aUser.id}/photo`), 'accountNotFoundException'],
      ['get team', B.get(`/api/teams/${aTeam.id}`), 'teamNotFoundException'],
      ['patch team', B.patch(`/api/teams/${aTeam.id}`, { name: 'Owned' }), 'teamNotFoundException'],
      ['delete team', B.delete(`/api/teams/${aTeam.id}`), 'teamNotFoundException'],
      ['get role', B.get(`/api/roles/${aRole.id}`), 'roleNotFoundException'],
      ['patch role', B.patch(`/api/roles/${aRole.id}`, { name: 'Owned' }), 'roleNotFoundException'],
      ['delete role', B.delete(`/api/roles/${aRole.id}`), 'roleNotFoundException'],
    ];
    for (const [what, call, code] of attempts) {
      const res = await call;
      assert.equal(res.status, 404, what);
      assert.equal(res.body.code, code, what);
    }
    // A's objects are untouched and B's lists do not show them.
    assert.equal((await a.admin.api.get(`/api/users/${aUser.id}`)).body.entity.name, 'Alice A');
    assert.equal((await a.admin.api.get(`/api/teams/${aTeam.id}`)).body.entity.name, 'A team');
    const bUsers = (await B.get('/api/users')).body.entity.items.map((u: { id: string }) => u.id);
    assert.ok(!bUsers.includes(aUser.id));
    const bTeams = (await B.get('/api/teams')).body.entity.items.map((t: { id: string }) => t.id);
    assert.ok(!bTeams.includes(aTeam.id));
    const bRoles = (await B.get('/api/roles')).body.entity.items.map((r: { id: string }) => r.id);
    assert.ok(!bRoles.includes(aRole.id));
    // B cannot put A's users into its own team.
    const bTeam = await B.post('/api/teams', { name: 'B team', description: 'B', memberIds: [aUser.id] });
    assert.equal(bTeam.body.error.fields.memberIds, 'Value specified incorrectly');
  });

  test('every signed-in route that names an object answers 404 to an admin of another organisation', async () => {
    const a = await createOrganisation(s);
    const b = await createOrganisation(s);
    // Platform staff's routes (RIGHT_OBSERVER) reach every organisation by design; B's admin is refused them (403).
    const named = routeRegistry.filter(
      (r) =>
        r.url.includes('/:') &&
        r.access !== 'public' &&
        r.access !== 'custom' &&
        !(typeof r.access === 'object' && 'right' in r.access && r.access.right === 'RIGHT_OBSERVER'),
    );
    const missing = named.map((r) => `${r.method} ${r.url}`).filter((k) => !fixtures[k]);
    assert.deepEqual(missing, [], 'every route with a path id has a call in test/route-fixtures.ts');
    for (const r of named) {
      const call = await fixtures[`${r.method} ${r.url}`](a, s);
      const res = await send(b.admin.api, r.method, call);
      assert.equal(
        res.status,
        404,
        `${r.method} ${call.path} by organisation B: ${JSON.stringify(res.body)}`,
      );
      // The same call is fine for A's own admin, so the 404 is about the organisation, not the request.
      if (r.method === 'GET') assert.equal((await send(a.admin.api, r.method, call)).status, 200, r.url);
    }
  });

  test('every business table carries organisation_id', async () => {
    const rows = await s.app.db.query<{ table_name: string }>(
      `select t.table_name from information_schema.tables t
        where t.table_schema = current_schema() and t.table_type = 'BASE TABLE'
          and not exists (select 1 from information_schema.columns c
                           where c.table_schema = t.table_schema and c.table_name = t.table_name
                             and c.column_name = 'organisation_id')
        order by 1`,
    );
    // Not business data: the tenants themselves, pre-login rate limits (keyed by e-mail or address) and the sign-in
    // failures per typed e-mail (login_throttle: kept for unknown e-mails too, so it names no organisation),
    // the database-wide realtime state, the report rollups' fold cursors (one per source table, all organisations),
    // the migration log, the installation's anonymous web telemetry, and the landing page's trial requests (a
    // visitor has no organisation yet; platform staff read them), and sign-ups in progress with the captcha
    // solutions they spent (issue 19: the organisation exists only once a sign-up is done).
    // visitor has no organisation yet; platform staff read them), and the tariffs (one price list for everyone).
    assert.deepEqual(
      rows.map((r) => r.table_name),
      [
        'captcha_uses',
        'landing_requests',
        'login_throttle',
        'organisations',
        'plans',
        // The installation's VAPID key pair for web push, one for every organisation (issue 34).
        'push_vapid',
        'rate_limits',
        'realtime_state',
        'report_cursors',
        'schema_migrations',
        'signups',
        'telemetry_items',
        'web_vitals',
        // The event webhooks' dispatcher cursor: one row for the whole events log (issue 34).
        'webhook_dispatch',
      ],
    );
  });

  test('RIGHT_OBSERVER (platform staff) reads every organisation', async () => {
    const a = await createOrganisation(s);
    const staff = await createPlatformStaff(s);
    assert.ok((await staff.get('/api/auth/user')).body.entity.rights.includes('RIGHT_OBSERVER'));
    const seen = await staff.get(`/api/users/${a.admin.id}`);
    assert.equal(seen.status, 200);
    const all = (await staff.get('/api/users?limit=500')).body.entity.items.map((u: { id: string }) => u.id);
    assert.ok(all.includes(a.admin.id));
    // Observing is reading: changes stay inside the observer's own organisation.
    const change = await staff.patch(`/api/users/${a.admin.id}`, { name: 'Changed' });
    assert.equal(change.status, 404);
  });
});
