import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ASSIGNABLE_RIGHTS, OPTION_REFUSALS, type Right } from '@smartconnect/contracts';
import { collectedRoutes } from '../../src/http/app.ts';
import { type RegisteredRoute, routeRegistry } from '../../src/http/route.ts';
import { insertRole } from '../../src/modules/roles/queries.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { fixtures, send } from '../route-fixtures.ts';
import { inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

const ZERO = '00000000-0000-7000-8000-000000000000';
const concretePath = (url: string) => url.replace(/:[A-Za-z]+/g, ZERO);

async function roleWith(s: TestServer, org: TestOrg, name: string, rights: Right[]) {
  return s.app.db.tx((q) => insertRole(q, org.id, { name, description: name, rights }));
}

describe('authorization', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('every HTTP route is declared through defineRoute with its access, or is a known page', () => {
    const declared = new Set(routeRegistry.map((r) => `${r.method} ${r.url}`));
    // Pages, the API description, and the websocket upgrade (which authenticates its ?token= itself).
    const known =
      /^(HEAD|GET) (\/api\/openapi\.json|\/api\/docs|\/api\/docs\/app\.js|\/api\/docs\/quickstart\.sh|\/api\/realtime|\/\*|\/)$/;
    const undeclared: string[] = [];
    for (const r of collectRoutes(s)) {
      // Outside /api/ are the web app's files, served as they are.
      if (!r.url.startsWith('/api/') || r.method === 'HEAD') continue;
      if (!declared.has(`${r.method} ${r.url}`) && !known.test(`${r.method} ${r.url}`)) {
        undeclared.push(`${r.method} ${r.url}`);
      }
    }
    assert.deepEqual(undeclared, [], 'routes must be registered with defineRoute/definePublicRoute');
    for (const r of routeRegistry) assert.ok(r.access, `${r.method} ${r.url} declares no access`);
  });

  test('every route with a right: 403 without it, not 403 with only it', async () => {
    const org = await createOrganisation(s);
    const guarded = routeRegistry.filter(
      (r): r is RegisteredRoute & { access: { right: Right } } =>
        typeof r.access === 'object' && 'right' in r.access,
    );
    assert.ok(guarded.length >= 10, 'the matrix covers the guarded routes');
    const users = new Map<Right, { without: TestOrg['admin']; only: TestOrg['admin'] }>();
    for (const right of new Set(guarded.map((r) => r.access.right))) {
      const without = await org.user({
        role: await roleWith(
          s,
          org,
          `no ${right}`.slice(0, 32),
          ASSIGNABLE_RIGHTS.filter((x) => x !== right),
        ),
      });
      const only = await org.user({ role: await roleWith(s, org, `only ${right}`.slice(0, 32), [right]) });
      users.set(right, { without, only });
    }
    for (const r of guarded) {
      const { without, only } = users.get(r.access.right)!;
      const path = concretePath(r.url);
      const denied = await without.api.call(
        r.method,
        path,
        r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      );
      assert.equal(denied.status, 403, `${r.method} ${r.url} without ${r.access.right}`);
      assert.equal(denied.body.code, 'accessDeniedException');
      const allowed = await only.api.call(
        r.method,
        path,
        r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      );
      assert.notEqual(
        allowed.status,
        403,
        `${r.method} ${r.url} with ${r.access.right}: ${JSON.stringify(allowed.body)}`,
      );
      assert.notEqual(allowed.status, 401);
    }
  });

  test('every route with a right: a valid call by a user holding only that right succeeds', async () => {
    const org = await createOrganisation(s);
    const guarded = routeRegistry.filter(
      (r): r is RegisteredRoute & { access: { right: Right } } =>
        typeof r.access === 'object' && 'right' in r.access,
    );
    const missing = guarded.map((r) => `${r.method} ${r.url}`).filter((k) => !fixtures[k]);
    assert.deepEqual(missing, [], 'every guarded route has a valid call in test/route-fixtures.ts');
    const holders = new Map<Right, TestOrg['admin']>();
    for (const r of guarded) {
      const right = r.access.right;
      if (!holders.has(right)) {
        holders.set(
          right,
          await org.user({ role: await roleWith(s, org, `just ${right}`.slice(0, 32), [right]) }),
        );
      }
      const holder = holders.get(right)!;
      const call = await fixtures[`${r.method} ${r.url}`](org, s, holder.id);
      const res = await send(holder.api, r.method, call);
      assert.equal(res.status, 200, `${r.method} ${r.url} with only ${right}: ${JSON.stringify(res.body)}`);
      // A raw answer (a downloaded file) has no envelope.
      if (!r.raw) assert.equal(res.body.code, 'ok');
    }
  });

  test('every signed-in route refuses a request without a token', async () => {
    for (const r of routeRegistry.filter((x) => x.access !== 'public' && x.access !== 'custom')) {
      const res = await s.api.call(
        r.method,
        concretePath(r.url),
        r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      );
      assert.equal(res.status, 401, `${r.method} ${r.url}`);
      assert.equal(res.body.code, 'unauthorizedException');
    }
  });

  test('routes needing a plan option refuse an organisation without it', async () => {
    const optioned = routeRegistry.filter(
      (r) => typeof r.access === 'object' && 'option' in r.access && r.access.option,
    );
    const org = await createOrganisation(s, { options: [] });
    for (const r of optioned) {
      const res = await org.admin.api.call(
        r.method,
        concretePath(r.url),
        r.method === 'GET' ? undefined : {},
      );
      assert.equal(res.status, 403, `${r.method} ${r.url}`);
      const access = r.access as { option: string };
      assert.equal(res.body.code, OPTION_REFUSALS[access.option] ?? 'optionUnavailableException');
    }
  });

  test('an operator cannot manage users, teams or roles', async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    const checks = [
      await op.api.post('/api/users', {}),
      await op.api.patch(`/api/users/${org.admin.id}`, { name: 'x' }),
      await op.api.post(`/api/users/${org.admin.id}/deactivate`),
      await op.api.post('/api/teams', { name: 'T', description: 'D' }),
      await op.api.post('/api/roles', { name: 'R', description: 'D', rights: [] }),
    ];
    for (const res of checks) assert.equal(res.body.code, 'accessDeniedException');
    assert.equal((await op.api.get('/api/users')).status, 200);
  });

  test('nobody grants rights they do not hold', async () => {
    const org = await createOrganisation(s);
    const hr = await org.user({
      role: await roleWith(s, org, 'HR', ['RIGHT_ACCOUNT_CONTROL', 'AUTHORITY_ROLE_MODIFY']),
    });
    const makeAdmin = await hr.api.post('/api/users', {
      name: 'Sneaky',
      email: `sneaky-${Date.now()}@x.test`,
      roleId: org.roles.ADMINISTRATOR,
      password: 'Passw0rd!',
      repeatPassword: 'Passw0rd!',
    });
    assert.equal(makeAdmin.body.code, 'accessDeniedException');
    const role = await hr.api.post('/api/roles', {
      name: 'Finance',
      description: 'x',
      rights: ['AUTHORITY_FINANCE'],
    });
    assert.equal(role.body.code, 'accessDeniedException');
    const editAdmin = await hr.api.patch(`/api/users/${org.admin.id}`, {
      password: 'Passw0rd!x',
      repeatPassword: 'Passw0rd!x',
    });
    assert.equal(editAdmin.body.code, 'accessDeniedException');
    const op = await org.user({ role: 'OPERATOR' });
    assert.equal((await hr.api.patch(`/api/users/${op.id}`, { name: 'Renamed' })).status, 200);
  });

  /**
   * Body fields that need a stronger right than their route: each is refused (403, nothing changed) for a user
   * holding only the route's right, and accepted once the field's right is added.
   */
  test('a body field guarded by a stronger right than its route cannot be slipped in', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const cases: {
      name: string;
      route: Right;
      field: Right;
      call: (api: TestOrg['admin']['api']) => Promise<{ status: number; body: { code: string } }>;
      unchanged: () => Promise<void>;
    }[] = [];
    const target = await org.user({ role: 'OPERATOR' });
    cases.push({
      name: 'PATCH /api/users/:id teamIds',
      route: 'RIGHT_ACCOUNT_CONTROL',
      field: 'AUTHORITY_TEAMS_UPDATE',
      call: (api) => api.patch(`/api/users/${target.id}`, { name: 'Moved', teamIds: [teamId] }),
      unchanged: async () => {
        const user = (await org.admin.api.get(`/api/users/${target.id}`)).body.entity;
        assert.deepEqual(user.teams, []);
        assert.notEqual(user.name, 'Moved');
      },
    });
    let n = 0;
    cases.push({
      name: 'POST /api/users teamIds',
      route: 'RIGHT_ACCOUNT_CONTROL',
      field: 'AUTHORITY_TEAMS_UPDATE',
      call: (api) =>
        api.post('/api/users', {
          name: 'New',
          email: `new-${n++}-${Date.now()}@x.test`,
          roleId: org.roles.OPERATOR,
          teamIds: [teamId],
          password: 'Passw0rd!',
          repeatPassword: 'Passw0rd!',
        }),
      unchanged: async () => {
        const list = (await org.admin.api.get('/api/users?search=New')).body.entity.items;
        assert.equal(list.length, 0);
      },
    });
    for (const c of cases) {
      const rights: Right[] = [
        c.route,
        'AUTHORITY_CHAT_DISTRIBUTION',
        'AUTHORITY_PROFILE_UPDATE',
        'AUTHORITY_ALL_CHATS',
      ];
      const weak = await org.user({ role: await roleWith(s, org, `weak ${n++}`, rights) });
      const refused = await c.call(weak.api);
      assert.equal(refused.status, 403, `${c.name} without ${c.field}`);
      assert.equal(refused.body.code, 'accessDeniedException');
      await c.unchanged();
      const strong = await org.user({ role: await roleWith(s, org, `strong ${n++}`, [...rights, c.field]) });
      const allowed = await c.call(strong.api);
      assert.equal(allowed.status, 200, `${c.name} with ${c.field}: ${JSON.stringify(allowed.body)}`);
    }
    // The user form may send the teams a user already has: no change, no extra right needed.
    const weak = await org.user({ role: await roleWith(s, org, 'weak same', ['RIGHT_ACCOUNT_CONTROL']) });
    const same = await weak.api.patch(`/api/users/${target.id}`, { name: 'Same teams', teamIds: [teamId] });
    assert.equal(same.status, 200, JSON.stringify(same.body));
  });

  test('taking a chat needs AUTHORITY_CHAT_DISTRIBUTION or AUTHORITY_ALL_CHATS', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await makeChannel(org, teamId);
    const bystander = await org.user({
      role: await roleWith(s, org, 'Bystander', ['AUTHORITY_PROFILE_UPDATE']),
      teams: [teamId],
    });
    const chatId = (await inbound(s, ch, { client: 'c-take' })).body.entity.chatId;
    const refused = await bystander.api.post(`/api/chats/${chatId}/take`);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'accessDeniedException');
    const chat = (await org.admin.api.get(`/api/chats/${chatId}`)).body.entity;
    assert.equal(chat.status, 'waiting');
    const operator = await org.user({ role: 'OPERATOR', teams: [teamId] });
    assert.equal((await operator.api.post(`/api/chats/${chatId}/take`)).status, 200);
  });

  test('the licence limit holds for taking and answering: a user not In work is put In work, or refused', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await makeChannel(org, teamId);
    const a = await org.user({ role: 'OPERATOR', teams: [teamId] });
    const b = await org.user({ role: 'OPERATOR', teams: [teamId] });
    await s.db.query('update organisations set operator_licences = 1 where id = $1', [org.id]);
    assert.equal((await a.api.patch('/api/presence', { status: 'online' })).status, 200);
    const first = (await inbound(s, ch, { client: 'c-lic-1' })).body.entity.chatId;
    // b is offline and the only licence is a's: taking is refused, the chat stays in the queue.
    const refused = await b.api.post(`/api/chats/${first}/take`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'allLicencesTakenException');
    assert.equal((await org.admin.api.get(`/api/chats/${first}`)).body.entity.status, 'waiting');
    const presenceOf = async (u: { id: string }) =>
      (await org.admin.api.get(`/api/users/${u.id}`)).body.entity.presence;
    assert.equal(await presenceOf(b), 'offline');
    // a takes it (In work already), goes on break, and answering from Break with no licence free is refused too.
    assert.equal((await a.api.post(`/api/chats/${first}/take`)).status, 200);
    assert.equal((await a.api.patch('/api/presence', { status: 'break' })).status, 200);
    assert.equal((await b.api.patch('/api/presence', { status: 'online' })).status, 200);
    const answer = await a.api.post(`/api/chats/${first}/messages`, { text: 'Hello from a break' });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.code, 'allLicencesTakenException');
    const texts = (await org.admin.api.get(`/api/chats/${first}/messages`)).body.entity.items.map(
      (m: { text: string }) => m.text,
    );
    assert.ok(!texts.includes('Hello from a break'), 'the refused answer was not stored');
    // An internal note is not an answer to the client: allowed from Break.
    const note = await a.api.post(`/api/chats/${first}/messages`, { text: 'note', internal: true });
    assert.equal(note.status, 200);
    // Once the licence is free again, answering puts a back In work.
    assert.equal((await b.api.patch('/api/presence', { status: 'offline' })).status, 200);
    const ok = await a.api.post(`/api/chats/${first}/messages`, { text: 'Back at work' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(await presenceOf(a), 'online');
  });

  test('RIGHT_OBSERVER is not assignable to a customer role', async () => {
    const org = await createOrganisation(s);
    const res = await org.admin.api.post('/api/roles', {
      name: 'Observer',
      description: 'x',
      rights: ['RIGHT_OBSERVER'],
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.fields['rights.0'], 'Rights specified incorrectly');
  });
});

function collectRoutes(s: TestServer): { method: string; url: string }[] {
  return collectedRoutes.get(s.fastify) ?? [];
}
