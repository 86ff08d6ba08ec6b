import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { COLLECTOR, pageOf } from '../../src/modules/observability/routes.ts';
import { createOrganisation, createPlatformStaff, startTestServer, type TestServer } from '../helpers.ts';

const DAY = 86_400_000;

/** A Faro transport body with web-vitals measurements (values keyed by the vital's lower-case name). */
function payload(url: string, vitals: Record<string, number>[], extra: Record<string, unknown> = {}) {
  return {
    meta: {
      app: { name: 'SmartConnect', version: '1.0.0', environment: 'production' },
      session: { id: 'sess-1' },
      page: { url },
    },
    measurements: vitals.map((values) => ({ type: 'web-vitals', values: { ...values, delta: 1 } })),
    ...extra,
  };
}

const post = (s: TestServer, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/api/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('the built-in telemetry collector', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('the web app is told to send to the built-in collector', async () => {
    const res = await s.api.get('/api/telemetry/config');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { enabled: true, url: '/api/telemetry', apiKey: null });
  });

  test('pages are route patterns: no query, ids replaced', () => {
    assert.equal(
      pageOf('http://x/admin/chats/0196a7c0-1234-7abc-8def-0123456789ab?token=abc'),
      '/admin/chats/:id',
    );
    assert.equal(pageOf('http://x/link-action/123456'), '/link-action/:id');
    assert.equal(pageOf('http://x/'), '/');
    assert.equal(pageOf(undefined), '/');
  });

  test('stores vitals; platform staff see p75 per page with the spec ratings over 24 hours and 7 days', async () => {
    const url = 'http://localhost:3000/vitals-test?x=1';
    // LCP 1000..5000 (p75 4000: needs improvement at the edge), FCP all 1000 (good), CLS 0.3 (poor).
    for (const lcp of [1000, 2000, 3000, 4000, 5000]) {
      const res = await post(s, payload(url, [{ lcp }, { fcp: 1000 }, { cls: 0.3 }]), {
        'x-faro-session-id': 'sess-1',
      });
      assert.equal(res.status, 202);
    }
    // An older week-only measurement of another page.
    s.clock.advance(-2 * DAY);
    assert.equal((await post(s, payload('http://localhost:3000/old-page', [{ ttfb: 900 }]))).status, 202);
    s.clock.advance(2 * DAY);

    const staff = await createPlatformStaff(s);
    const res = await staff.get('/api/telemetry/vitals');
    assert.equal(res.status, 200);
    const page = res.body.entity.pages.find((p: { page: string }) => p.page === '/vitals-test');
    assert.ok(page);
    assert.deepEqual(page.day, [
      { name: 'FCP', p75: 1000, rating: 'good', samples: 5 },
      { name: 'LCP', p75: 4000, rating: 'needs-improvement', samples: 5 },
      { name: 'CLS', p75: 0.3, rating: 'poor', samples: 5 },
    ]);
    assert.deepEqual(page.week, page.day);
    const old = res.body.entity.pages.find((p: { page: string }) => p.page === '/old-page');
    assert.deepEqual(old.day, []);
    assert.deepEqual(old.week, [{ name: 'TTFB', p75: 900, rating: 'needs-improvement', samples: 1 }]);

    // An organisation's administrator does not see the installation's telemetry.
    const org = await createOrganisation(s);
    assert.equal((await org.admin.api.get('/api/telemetry/vitals')).status, 403);
    assert.equal((await s.api.get('/api/telemetry/vitals')).status, 401);
  });

  test('logs, exceptions and events are kept; unknown fields dropped', async () => {
    const body = payload('http://localhost:3000/items', [], {
      logs: [{ message: 'hello', level: 'info', secret: 'x' }],
      exceptions: [{ type: 'Error', value: 'boom' }],
      events: [{ name: 'click', domain: 'ui' }],
    });
    assert.equal((await post(s, body)).status, 202);
    const rows = await s.app.db.query<{ kind: string; body: Record<string, unknown> }>(
      "select kind, body from telemetry_items where page = '/items' order by kind",
    );
    assert.deepEqual(
      rows.map((r) => r.kind),
      ['event', 'exception', 'log'],
    );
    assert.equal(rows[2].body.secret, undefined);
  });

  test('validated and size-limited', async () => {
    const bad = await post(s, { measurements: [{ type: 'web-vitals', values: { lcp: 'slow' } }] });
    assert.equal(bad.status, 400);
    assert.equal((await post(s, '{not json')).status, 400);
    const huge = await post(s, { logs: [{ message: 'x'.repeat(COLLECTOR.bodyLimit) }] });
    assert.equal(huge.status, 413);
  });

  test('rows past retention are deleted', async () => {
    assert.equal((await post(s, payload('http://localhost:3000/retention', [{ inp: 100 }]))).status, 202);
    s.clock.advance(COLLECTOR.vitalsRetentionMs + 2 * COLLECTOR.pruneEveryMs);
    assert.equal((await post(s, payload('http://localhost:3000/other', [{ inp: 100 }]))).status, 202);
    const left = await s.app.db.query<{ n: number }>(
      "select count(*)::int as n from web_vitals where page = '/retention'",
    );
    assert.equal(left[0].n, 0);
    const items = await s.app.db.query<{ n: number }>('select count(*)::int as n from telemetry_items');
    assert.equal(items[0].n, 0);
  });

  test('rate-limited per address: 429 with Retry-After in seconds', async () => {
    s.clock.advance(10 * 60_000);
    const body = payload('http://localhost:3000/rate', [{ fcp: 10 }]);
    let last: Response | undefined;
    for (let i = 0; i <= COLLECTOR.perMinute; i++) {
      last = await post(s, body);
      if (i < COLLECTOR.perMinute) assert.equal(last.status, 202, `request ${i + 1}`);
    }
    assert.equal(last?.status, 429);
    assert.match(last?.headers.get('retry-after') ?? '', /^\d+$/);
  });
});

describe('telemetry settings', () => {
  test('TELEMETRY=off: the app is told so and the collector refuses', async () => {
    const s = await startTestServer({ env: { TELEMETRY: 'off' } });
    try {
      assert.equal((await s.api.get('/api/telemetry/config')).body.enabled, false);
      assert.equal((await post(s, payload('http://x/', [{ fcp: 1 }]))).status, 404);
    } finally {
      await s.close();
    }
  });

  test('TELEMETRY_URL: the app sends there with its key, and the CSP allows it', async () => {
    const s = await startTestServer({
      env: { TELEMETRY_URL: 'https://collector.example.net/collect/abc', TELEMETRY_API_KEY: 'key-123' },
    });
    try {
      const res = await fetch(`${s.url}/api/telemetry/config`);
      assert.deepEqual(await res.json(), {
        enabled: true,
        url: 'https://collector.example.net/collect/abc',
        apiKey: 'key-123',
      });
      assert.match(
        res.headers.get('content-security-policy') ?? '',
        /connect-src 'self' https:\/\/collector\.example\.net;/,
      );
    } finally {
      await s.close();
    }
  });
});
