import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { apiKeyCreateSchema, ERROR_CODES } from '@smartconnect/contracts';
import { routeRegistry } from '../../src/http/route.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf } from '../replies.ts';
import { inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

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

  test('each route has an example request and answer; the key routes name their scope', async () => {
    const doc = (await s.api.get('/api/openapi.json')).body;
    const create = doc.paths['/api/integrations/api-keys'].post;
    const example = create.requestBody.content['application/json'].example;
    assert.equal(apiKeyCreateSchema.safeParse(example).success, true, JSON.stringify(example));
    assert.equal(create.responses['200'].content['application/json'].example.code, 'ok');
    assert.equal(typeof create.responses['200'].content['application/json'].example.entity.key, 'string');
    const send = doc.paths['/api/chats/{id}/messages'].post;
    assert.deepEqual(
      send.security.map((x: Record<string, string[]>) => Object.keys(x)[0]),
      ['bearer', 'apiKey', 'apiKeyHeader'],
    );
    assert.deepEqual(send.security[2].apiKeyHeader, ['chats:write']);
    for (const [path, ops] of Object.entries(
      doc.paths as Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>
      >,
    ))
      for (const [method, op] of Object.entries(ops)) {
        const json = op.requestBody?.content['application/json'];
        if (json) assert.notEqual(json.example, undefined, `${method} ${path} has an example body`);
      }
    const script = await fetch(`${s.url}/api/docs/app.js`);
    assert.match(await script.text(), /Routes for API keys/);
  });

  test('the quick start runs against a started server: channels, waiting chats, an answer', async () => {
    const org = await createOrganisation(s);
    const ch = await makeChannel(org, await makeTeam(org));
    assert.equal((await inbound(s, ch, { client: 'q-1', name: 'Quincy', text: 'Hello?' })).status, 200);
    const key = (
      await org.admin.api.post('/api/integrations/api-keys', {
        name: 'Quick start',
        scopes: ['channels:read', 'chats:read', 'chats:write'],
      })
    ).body.entity.key as string;
    const res = await fetch(`${s.url}/api/docs/quickstart.sh`);
    assert.equal(res.status, 200);
    const dir = mkdtempSync(join(tmpdir(), 'quickstart-'));
    const file = join(dir, 'quickstart.sh');
    writeFileSync(file, await res.text());
    // Run asynchronously: the server answering the script lives in this process.
    const run = await promisify(execFile)('bash', [file], {
      env: { ...process.env, BASE: s.url, KEY: key },
      encoding: 'utf8',
      timeout: 60_000,
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    assert.match(run.stdout, /Hello from the API quick start/);
    const chat = (await chatsOf(org)).find((c: { client: { name: string } }) => c.client.name === 'Quincy');
    const texts = (await messagesOf(org, chat.id)).map((m: { text: string }) => m.text);
    assert.ok(texts.includes('Hello from the API quick start'), texts.join(' | '));
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
