import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ERROR_CODES } from '@smartconnect/contracts';
import { routeRegistry } from '../../src/http/route.ts';
import { startTestServer, type TestServer } from '../helpers.ts';

describe('OpenAPI description', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('describes every declared route with its access, body schema and the error catalogue', async () => {
    const res = await s.api.get('/api/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.body;
    assert.equal(doc.openapi, '3.1.0');
    for (const r of routeRegistry) {
      const path = r.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      assert.ok(op, `${r.method} ${path} missing`);
      assert.ok(op.summary, `${r.method} ${path} has no summary`);
      if (r.body) assert.ok(op.requestBody.content['application/json'].schema, `${r.method} ${path} body`);
    }
    const login = doc.paths['/api/auth/login'].post;
    assert.deepEqual(login.security, []);
    assert.deepEqual(login.requestBody.content['application/json'].schema.required.sort(), [
      'email',
      'password',
    ]);
    assert.match(doc.paths['/api/users'].post.description, /RIGHT_ACCOUNT_CONTROL/);
    for (const code of ERROR_CODES)
      assert.match(doc.info.description, new RegExp(`\\| ${code} \\| \\d{3} \\|`));
  });

  test('every answer is described: the entity schema in the envelope, or the raw body', async () => {
    const doc = (await s.api.get('/api/openapi.json')).body;
    const undescribed = routeRegistry
      .filter(
        (r) =>
          !r.response &&
          !(r.raw && (/\/files\/:key$|\/documents\/:id\/pdf$/.test(r.url) || r.rawText || r.rawFile)),
      )
      .map((r) => `${r.method} ${r.url}`);
    assert.deepEqual(undescribed, [], 'every route declares its response schema');
    const chats = doc.paths['/api/chats'].get.responses['200'].content['application/json'].schema;
    assert.deepEqual(chats.required, ['code', 'entity', 'error']);
    assert.ok(
      chats.properties.entity.properties.items.items.properties.overdueLevel.enum.includes('expired'),
    );
    const health = doc.paths['/api/health'].get.responses['200'].content['application/json'].schema;
    assert.deepEqual(health.properties.database.enum, ['pglite', 'postgres'], 'health is not wrapped');
    // A body the server reads as {} when omitted is optional; one with required fields is not.
    assert.equal(doc.paths['/api/chats/{id}/close'].post.requestBody.required, false);
    assert.equal(doc.paths['/api/channels'].post.requestBody.required, true);
  });

  test('a reference page is served at /api/docs', async () => {
    const res = await fetch(`${s.url}/api/docs`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await res.text(), /openapi\.json/);
  });

  test('unknown API paths are 404 notFoundException in the envelope', async () => {
    const res = await s.api.get('/api/nothing-here');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'notFoundException');
  });

  test('malformed JSON is a 400 validation error, not a crash', async () => {
    const res = await s.api.call('POST', '/api/auth/login', '{"email":', {
      'content-type': 'application/json',
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validationException');
  });
});
