import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

type Sample = { name: string; labels: Record<string, string>; value: number };

/** Parses the Prometheus text exposition format (the lines a scraper reads). */
function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[k] = v;
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

async function waitFor(check: () => Promise<boolean> | boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('health, readiness and metrics', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer(process.env.REDIS_URL ? { env: { REDIS_URL: process.env.REDIS_URL } } : {});
  });
  after(() => s.close());

  test('liveness and readiness answer, with a request id', async () => {
    const health = await fetch(`${s.url}/api/health`, { headers: { 'x-request-id': 'probe-1' } });
    assert.equal(health.status, 200);
    assert.equal(health.headers.get('x-request-id'), 'probe-1');
    const made = await fetch(`${s.url}/api/health`, { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(made.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const ready = await fetch(`${s.url}/api/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), {
      status: 'ready',
      checks: { database: 'ok', redis: process.env.REDIS_URL ? 'ok' : 'off', jobs: 'ok' },
    });
  });

  test('/metrics: loopback only without METRICS_TOKEN, and not through a proxy', async () => {
    assert.equal((await fetch(`${s.url}/metrics`)).status, 200);
    const proxied = await fetch(`${s.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(proxied.status, 403);
  });

  test('/metrics after known traffic: latency by route pattern, ingest, provider errors, queues, sockets, timers', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const socket = await RealtimeClient.connect(s.url, op.token);
    // The webhook answers nobody: the delivery fails (a provider error of the API channel) and stays queued.
    const ch = await makeChannel(org, teamId, { webhookUrl: 'http://127.0.0.1:9/down' });
    const first = await inbound(s, ch, { externalMessageId: 'obs-1' });
    assert.equal(first.status, 200);
    assert.equal((await inbound(s, ch, { externalMessageId: 'obs-1' })).status, 200);
    const chatId = first.body.entity.chatId as string;
    await waitFor(async () => (await op.api.get(`/api/chats/${chatId}`)).body.entity?.operator?.id === op.id);
    assert.equal((await op.api.post(`/api/chats/${chatId}/messages`, { text: 'Hello' })).status, 200);
    for (let i = 0; i < 3; i++) await fetch(`${s.url}/api/users/00000000-0000-7000-8000-00000000000${i}`);
    await fetch(`${s.url}/api/no-such-thing/123`);

    let samples: Sample[] = [];
    await waitFor(async () => {
      const res = await fetch(`${s.url}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      samples = parseMetrics(await res.text());
      return find(samples, 'smartconnect_provider_errors_total', { channel_type: 'api' }).length > 0;
    });

    // Latency by route pattern: three calls of /api/users/:id (unauthenticated), never the raw path.
    const users = find(samples, 'smartconnect_http_request_duration_seconds_count', {
      route: '/api/users/:id',
      method: 'GET',
      status_code: '401',
    });
    assert.equal(users[0]?.value, 3);
    assert.equal(
      samples.some((x) => Object.values(x.labels).some((v) => v.includes('00000000-0000'))),
      false,
      'no raw path is a label',
    );
    assert.ok(
      find(samples, 'smartconnect_http_request_duration_seconds_count', { route: 'unmatched' }).length,
    );
    assert.ok(
      find(samples, 'smartconnect_http_request_duration_seconds_bucket', {
        route: '/api/users/:id',
        le: '+Inf',
      }).length,
    );
    // Ingest: one stored, one duplicate.
    assert.equal(find(samples, 'smartconnect_ingest_messages_total', { result: 'stored' })[0]?.value, 1);
    assert.equal(find(samples, 'smartconnect_ingest_messages_total', { result: 'duplicate' })[0]?.value, 1);
    assert.ok(
      (find(samples, 'smartconnect_provider_errors_total', { channel_type: 'api', retryable: 'true' })[0]
        ?.value ?? 0) >= 1,
    );
    // The failed delivery waits in the outbox for its retry.
    assert.equal(find(samples, 'smartconnect_queue_depth', { queue: 'outbox' })[0]?.value, 1);
    assert.ok(
      (find(samples, 'smartconnect_queue_oldest_age_seconds', { queue: 'outbox' })[0]?.value ?? -1) >= 0,
    );
    assert.equal(find(samples, 'smartconnect_queue_depth', { queue: 'pipeline' })[0]?.value, 0);
    assert.equal(find(samples, 'smartconnect_websocket_connections')[0]?.value, 1);
    // Realtime: the frames the operator's socket got are counted, and each event's lag to the hand-off observed.
    const frames = find(samples, 'smartconnect_realtime_frames_total')[0]?.value ?? 0;
    assert.ok(frames >= socket.events.length && socket.events.length > 0, `${frames} frames`);
    const lagged = find(samples, 'smartconnect_realtime_delivery_lag_seconds_count')[0]?.value ?? 0;
    assert.ok(lagged > 0 && lagged <= frames, `${lagged} events observed`);
    const slow = find(samples, 'smartconnect_realtime_delivery_lag_seconds_bucket', { le: '10' })[0]?.value;
    assert.equal(slow, lagged, 'every event handed off within 10 s');
    socket.ws.close();
    const timers = find(samples, 'smartconnect_timers_due')[0];
    assert.ok(timers && Number.isInteger(timers.value));
    // No tenant data: no organisation, chat or message id anywhere in the exposition.
    const text = await (await fetch(`${s.url}/metrics`)).text();
    for (const id of [org.id, chatId, ch.id]) assert.equal(text.includes(id), false);
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
  });
  after(() => s.close());

  test('needs the bearer token, even from loopback', async () => {
    assert.equal((await fetch(`${s.url}/metrics`)).status, 401);
    const wrong = await fetch(`${s.url}/metrics`, {
      headers: { authorization: 'Bearer metrics-token-0123456780' },
    });
    assert.equal(wrong.status, 401);
    const right = await fetch(`${s.url}/metrics`, {
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    assert.equal(right.status, 200);
    assert.match(await right.text(), /# TYPE smartconnect_http_request_duration_seconds histogram/);
  });
});

describe('/api/ready when the database is unreachable', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close().catch(() => undefined));

  test('503 with the database check failed; liveness is refused too', async () => {
    assert.equal((await fetch(`${s.url}/api/ready`)).status, 200);
    if (s.databaseUrl) {
      // PostgreSQL: this server's own database goes away (its sessions terminated), the shared server stays.
      const base = new URL(s.databaseUrl);
      const name = base.pathname.slice(1);
      base.pathname = '/postgres';
      const admin = new pg.Client({ connectionString: base.toString() });
      await admin.connect();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    } else {
      // PGlite: the embedded database is closed under the server.
      await s.app.db.close();
    }
    const ready = await fetch(`${s.url}/api/ready`);
    assert.equal(ready.status, 503);
    const body = (await ready.json()) as { status: string; checks: Record<string, string> };
    assert.equal(body.status, 'unavailable');
    assert.equal(body.checks.database, 'fail');
    assert.equal((await fetch(`${s.url}/api/health`)).status, 500);
    // The metrics still answer (monitoring sees the instance), with the last values read.
    const metrics = await fetch(`${s.url}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(
      await metrics.text(),
      /smartconnect_http_request_duration_seconds_count\{[^}]*route="\/api\/ready"[^}]*status_code="503"\} 1/,
    );
  });
});
