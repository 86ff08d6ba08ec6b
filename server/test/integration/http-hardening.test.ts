import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { RealtimeClient } from './realtime-client.ts';

describe('security headers on every answer', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const expectHeaders = (res: Response, what: string) => {
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/, `${what}: scripts from this origin only`);
    assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/, `${what}: no inline script`);
    assert.match(csp, /frame-ancestors 'none'/, what);
    assert.match(csp, /object-src 'none'/, what);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
    assert.equal(res.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', what);
    assert.equal(res.headers.get('x-frame-options'), 'DENY', what);
  };

  test('API answers, errors, not-found, the app shell and the API reference all carry them', async () => {
    const org = await createOrganisation(s);
    for (const [path, init] of [
      ['/api/health', {}],
      ['/api/auth/user', {}],
      ['/api/auth/user', { headers: { authorization: `Bearer ${org.admin.token}` } }],
      ['/api/nothing-here', {}],
      ['/admin/chats', {}],
      ['/api/docs', {}],
      ['/api/openapi.json', {}],
      ['/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' }],
    ] as [string, RequestInit][]) {
      const res = await fetch(s.url + path, init);
      await res.arrayBuffer();
      expectHeaders(res, `${init.method ?? 'GET'} ${path} (${res.status})`);
    }
  });

  test('the API reference page has no inline script: its script is served from this origin', async () => {
    const page = await (await fetch(`${s.url}/api/docs`)).text();
    assert.doesNotMatch(page, /<script>(?!<\/script>)/, 'no inline <script> body');
    assert.match(page, /<script src="\/api\/docs\/app\.js"><\/script>/);
    const js = await fetch(`${s.url}/api/docs/app.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    assert.match(await js.text(), /openapi\.json/);
  });
});

describe('no secret in the log', () => {
  let s: TestServer;
  let log = '';
  before(async () => {
    const stream = new PassThrough();
    stream.on('data', (d) => {
      log += d;
    });
    s = await startTestServer({ env: { LOG_LEVEL: 'info' }, logStream: stream });
  });
  after(() => s.close());

  test('the websocket token and authorization headers never reach a log line', async () => {
    const org = await createOrganisation(s);
    const token = org.admin.token;
    const socket = await RealtimeClient.connect(s.url, token, '0');
    socket.ws.close();
    // A rejected socket token and a failing call with a bearer token are logged too.
    await fetch(`${s.url}/api/realtime?token=not-a-valid-token-abc123&lastEventId=1`).then((r) =>
      r.arrayBuffer(),
    );
    await fetch(`${s.url}/api/users?token=${token}`, { headers: { authorization: `Bearer ${token}` } }).then(
      (r) => r.arrayBuffer(),
    );
    await new Promise((r) => setTimeout(r, 200));
    assert.match(
      log,
      /\/api\/realtime\?token=\[REDACTED\]&lastEventId=0/,
      'the socket request is logged, redacted',
    );
    assert.ok(!log.includes(token), 'the session token appears nowhere in the log');
    assert.ok(!log.includes('not-a-valid-token-abc123'));
  });
});
