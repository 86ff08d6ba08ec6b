import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API_SCOPES, type ApiScope, PLAN_OPTIONS } from '@smartconnect/contracts';
import { routeRegistry } from '../../src/http/route.ts';
import { createOrganisation, logSink, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { fixtures, send } from '../route-fixtures.ts';
import { inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

const ZERO = '00000000-0000-7000-8000-000000000000';
const concretePath = (url: string) => url.replace(/:[A-Za-z]+/g, ZERO);
const bodyFor = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : {});

/** Organisation API keys (issue 34): made in Preferences -> Integrations, used on the routes naming their scopes. */
describe('API keys', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ env: { API_KEY_RATE_LIMIT: '100000' } });
  });
  after(() => s.close());

  const makeKey = async (org: TestOrg, scopes: readonly ApiScope[], name = 'CRM') => {
    const res = await org.admin.api.post('/api/integrations/api-keys', { name, scopes });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity as { id: string; key: string; prefix: string; status: string };
  };

  test('created with a name and scopes, the key shown once and kept hashed; rights and field errors', async () => {
    const org = await createOrganisation(s);
    const made = await makeKey(org, ['chats:read', 'chats:read', 'clients:read']);
    assert.match(made.key, /^sck_[A-Za-z0-9_-]{43}$/);
    assert.ok(made.key.startsWith(made.prefix));
    assert.equal(made.status, 'active');
    const list = await org.admin.api.get('/api/integrations/api-keys');
    assert.equal(list.status, 200);
    assert.equal(list.body.entity.items.length, 1);
    const shown = list.body.entity.items[0];
    assert.deepEqual(shown.scopes, ['chats:read', 'clients:read']);
    assert.equal(shown.createdBy.id, org.admin.id);
    assert.ok(!JSON.stringify(list.body).includes(made.key), 'the key is never shown again');
    const [row] = await s.db.query<{ token_hash: string }>('select token_hash from api_keys where id = $1', [
      made.id,
    ]);
    assert.notEqual(row?.token_hash, made.key, 'stored hashed');
    assert.ok(!row?.token_hash.includes(made.key.slice(4)));

    const empty = await org.admin.api.post('/api/integrations/api-keys', { name: ' ', scopes: [] });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error.fields.name, 'Please fill in all required fields');
    assert.equal(empty.body.error.fields.scopes, 'Please fill in all required fields');
    const unknown = await org.admin.api.post('/api/integrations/api-keys', {
      name: 'x',
      scopes: ['everything'],
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.fields['scopes.0'], 'Value specified incorrectly');

    const op = await org.user({ role: 'OPERATOR' });
    assert.equal((await op.api.get('/api/integrations/api-keys')).status, 403);
    assert.equal(
      (await op.api.post('/api/integrations/api-keys', { name: 'x', scopes: ['chats:read'] })).status,
      403,
    );
  });

  test('a key acts as the organisation within its scopes: Bearer or X-Api-Key, never in the address', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await makeChannel(org, teamId);
    assert.equal(
      (await inbound(s, ch, { client: 'k-1', name: 'Kim', text: 'Where is my order?' })).status,
      200,
    );
    const reader = await makeKey(org, ['chats:read']);
    const byBearer = await s.api.as(reader.key).get('/api/chats?filter=waiting');
    assert.equal(byBearer.status, 200, JSON.stringify(byBearer.body));
    const chat = byBearer.body.entity.items.find(
      (c: { client: { name: string } }) => c.client.name === 'Kim',
    );
    assert.ok(chat, 'the organisation’s chats');
    const byHeader = await s.api.call('GET', `/api/chats/${chat.id}/messages`, undefined, {
      'x-api-key': reader.key,
    });
    assert.equal(byHeader.status, 200);
    assert.equal(byHeader.body.entity.items.at(-1).text, 'Where is my order?');
    const inUrl = await s.api.get(`/api/chats?token=${reader.key}`);
    assert.equal(inUrl.status, 401, 'a key in the address is refused');

    // Outside its scopes, on routes no key may call, and on the key routes themselves: 403.
    const denied = await s.api.as(reader.key).post(`/api/chats/${chat.id}/messages`, { text: 'Hi' });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 'accessDeniedException');
    assert.equal((await s.api.as(reader.key).get('/api/roles')).status, 403);
    assert.equal((await s.api.as(reader.key).get('/api/integrations/api-keys')).status, 403);

    // With chats:write it answers as the organisation.
    const writer = await makeKey(org, ['chats:write']);
    const sent = await s.api.as(writer.key).post(`/api/chats/${chat.id}/messages`, { text: 'On its way' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));

    // Last use: time and address.
    const item = (await org.admin.api.get('/api/integrations/api-keys')).body.entity.items.find(
      (k: { id: string }) => k.id === reader.id,
    );
    assert.ok(item.lastUsedAt);
    assert.match(item.lastUsedIp, /127\.0\.0\.1/);

    // Another organisation's chats stay out of reach; its admin cannot touch this key.
    const other = await createOrganisation(s);
    const otherKey = await makeKey(other, ['chats:read']);
    assert.equal((await s.api.as(otherKey.key).get(`/api/chats/${chat.id}`)).status, 404);
    assert.equal((await other.admin.api.delete(`/api/integrations/api-keys/${reader.id}`)).status, 404);
    assert.equal(
      (await other.admin.api.post(`/api/integrations/api-keys/${reader.id}/rotate`, {})).status,
      404,
    );
  });

  test('revoked: refused at once; rotated: both work for the overlap, then only the new one', async () => {
    const org = await createOrganisation(s);
    const key = await makeKey(org, ['users:read']);
    assert.equal((await s.api.as(key.key).get('/api/users')).status, 200);
    const rotated = await org.admin.api.post(`/api/integrations/api-keys/${key.id}/rotate`, {
      overlapHours: 2,
    });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const next = rotated.body.entity as { id: string; key: string; scopes: string[]; name: string };
    assert.notEqual(next.key, key.key);
    assert.deepEqual(next.scopes, ['users:read']);
    assert.equal((await s.api.as(key.key).get('/api/users')).status, 200, 'the old key during the overlap');
    assert.equal((await s.api.as(next.key).get('/api/users')).status, 200);
    const during = (await org.admin.api.get('/api/integrations/api-keys')).body.entity.items;
    assert.equal(during.find((k: { id: string }) => k.id === key.id).status, 'expiring');
    s.clock.advance(2 * 3_600_000 + 1_000);
    const old = await s.api.as(key.key).get('/api/users');
    assert.equal(old.status, 401);
    assert.equal(old.body.code, 'unauthorizedException');
    assert.equal((await s.api.as(next.key).get('/api/users')).status, 200);
    const afterwards = (await org.admin.api.get('/api/integrations/api-keys')).body.entity.items;
    assert.equal(afterwards.find((k: { id: string }) => k.id === key.id).status, 'expired');
    assert.equal(
      (await org.admin.api.post(`/api/integrations/api-keys/${key.id}/rotate`, {})).status,
      404,
      'an ended key is not rotated',
    );

    const revoked = await org.admin.api.delete(`/api/integrations/api-keys/${next.id}`);
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.entity.status, 'revoked');
    assert.equal((await s.api.as(next.key).get('/api/users')).status, 401, 'refused at once');
  });

  test('without the plan option OPTION_API a key is refused with Functionality unavailable', async () => {
    const org = await createOrganisation(s, { options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_API') });
    const key = await makeKey(org, ['users:read']);
    const res = await s.api.as(key.key).get('/api/users');
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'optionUnavailableException');
    assert.equal((await org.admin.api.get('/api/users')).status, 200, 'people are not affected');
  });

  test('every route: a key reaches it with its scope only; routes without a scope refuse every key', async () => {
    const org = await createOrganisation(s);
    const signedIn = routeRegistry.filter((r) => r.access !== 'public' && r.access !== 'custom');
    const scoped = signedIn.filter((r) => r.scope);
    assert.ok(scoped.length >= 30, `the API covers the integration routes (${scoped.length})`);
    const allBut = new Map<ApiScope, string>();
    const only = new Map<ApiScope, string>();
    for (const scope of API_SCOPES) {
      allBut.set(
        scope,
        (
          await makeKey(
            org,
            API_SCOPES.filter((x) => x !== scope),
            `no ${scope}`,
          )
        ).key,
      );
      only.set(scope, (await makeKey(org, [scope], `only ${scope}`)).key);
    }
    const everything = (await makeKey(org, API_SCOPES, 'all')).key;
    for (const r of signedIn) {
      const path = concretePath(r.url);
      if (!r.scope) {
        const res = await s.api.as(everything).call(r.method, path, bodyFor(r.method));
        assert.equal(res.status, 403, `${r.method} ${r.url} refuses keys`);
        continue;
      }
      const without = await s.api.as(allBut.get(r.scope)!).call(r.method, path, bodyFor(r.method));
      assert.equal(without.status, 403, `${r.method} ${r.url} without ${r.scope}`);
      assert.equal(without.body.code, 'accessDeniedException');
      const fixture = fixtures[`${r.method} ${r.url}`];
      const key = only.get(r.scope)!;
      // A route for any signed-in user has a fixture only where one helps another test: it need not succeed.
      if (fixture && r.access !== 'user') {
        const res = await send(s.api.as(key), r.method, await fixture(org, s));
        assert.equal(
          res.status,
          200,
          `${r.method} ${r.url} with only ${r.scope}: ${JSON.stringify(res.body)}`,
        );
      } else {
        const res = await s.api.as(key).call(r.method, path, bodyFor(r.method));
        assert.ok(![401, 403].includes(res.status), `${r.method} ${r.url} with ${r.scope}: ${res.status}`);
      }
    }
  });

  test('a key over its rate is answered 429 with Retry-After; keys never reach the log', async () => {
    const { stream, lines } = logSink();
    const limited = await startTestServer({
      env: { API_KEY_RATE_LIMIT: '3', LOG_LEVEL: 'debug' },
      logStream: stream,
    });
    try {
      const org = await createOrganisation(limited);
      const res = await org.admin.api.post('/api/integrations/api-keys', {
        name: 'x',
        scopes: ['users:read'],
      });
      const key = res.body.entity.key as string;
      for (let i = 0; i < 3; i++) assert.equal((await limited.api.as(key).get('/api/users')).status, 200);
      const over = await limited.api.as(key).get('/api/users');
      assert.equal(over.status, 429);
      assert.equal(over.body.code, 'tooManyRequestsException');
      assert.ok(Number(over.headers.get('retry-after')) > 0);
      assert.equal((await org.admin.api.get('/api/users')).status, 200, 'people are not limited by it');
      // A refused key in the address and one in X-Api-Key: logged requests, never the key.
      await limited.api.get(`/api/users?key=${key}`);
      await limited.api.call('GET', '/api/roles', undefined, { 'x-api-key': key });
      assert.ok(lines.length > 0, 'requests were logged');
      assert.ok(!lines.some((l) => l.includes(key.slice(4))), 'no key in the log');
    } finally {
      await limited.close();
    }
  });
});
