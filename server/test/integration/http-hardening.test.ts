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

  test('HSTS only over HTTPS: never on plain HTTP, and a forwarded protocol counts only behind a trusted proxy', async () => {
    const plain = await fetch(`${s.url}/api/health`);
    await plain.arrayBuffer();
    assert.equal(plain.headers.get('strict-transport-security'), null, 'plain HTTP');
    const spoofed = await fetch(`${s.url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    await spoofed.arrayBuffer();
    assert.equal(
      spoofed.headers.get('strict-transport-security'),
      null,
      'X-Forwarded-Proto without TRUST_PROXY',
    );
    const proxied = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    try {
      for (const path of ['/api/health', '/api/nothing-here', '/admin/chats']) {
        const https = await fetch(proxied.url + path, { headers: { 'x-forwarded-proto': 'https' } });
        await https.arrayBuffer();
        assert.match(
          https.headers.get('strict-transport-security') ?? '',
          /^max-age=\d+; includeSubDomains$/,
          path,
        );
        expectHeaders(https, `${path} over HTTPS`);
        const http = await fetch(proxied.url + path, { headers: { 'x-forwarded-proto': 'http' } });
        await http.arrayBuffer();
        assert.equal(
          http.headers.get('strict-transport-security'),
          null,
          `${path} over HTTP behind the proxy`,
        );
      }
    } finally {
      await proxied.close();
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

  test("a provider login's grant, code and state never reach a log line; the grant is no longer taken from a URL", async () => {
    const org = await createOrganisation(s);
    const auth = { authorization: `Bearer ${org.admin.token}` };
    const grant = 'sealed-grant-value-0123456789';
    // The old query form: not a route any more (the grant goes in the body), and redacted in the log all the same.
    const old = await fetch(`${s.url}/api/channels/oauth/accounts?type=instagram&grant=${grant}`, {
      headers: auth,
    });
    await old.arrayBuffer();
    assert.equal(old.status, 404);
    // The channels page a provider login returns to, and the callback with the provider's code.
    await fetch(`${s.url}/admin/preferences/channels?connect=instagram&grant=${grant}`).then((r) =>
      r.arrayBuffer(),
    );
    await fetch(
      `${s.url}/api/channels/oauth/instagram/callback?code=provider-code-42&state=sealed-state-42`,
    ).then((r) => r.arrayBuffer());
    // In the body: answered (404, the grant names nothing) and the body is not logged.
    const posted = await fetch(`${s.url}/api/channels/oauth/accounts`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'instagram', grant }),
    });
    await posted.arrayBuffer();
    assert.equal(posted.status, 404);
    await new Promise((r) => setTimeout(r, 200));
    assert.match(log, /\/api\/channels\/oauth\/accounts\?type=instagram&grant=\[REDACTED\]/);
    assert.match(log, /\?connect=instagram&grant=\[REDACTED\]/);
    assert.match(log, /\?code=\[REDACTED\]&state=\[REDACTED\]/);
    for (const secret of [grant, 'provider-code-42', 'sealed-state-42'])
      assert.ok(!log.includes(secret), `${secret} appears nowhere in the log`);
  });
});
