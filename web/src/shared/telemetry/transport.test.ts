import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { type TransportItem, TransportItemType } from '@grafana/faro-core';
import { TelemetryTransport } from './transport.ts';

type Hit = {
  headers: IncomingHttpHeaders;
  body: { meta?: { session?: { id?: string } }; measurements?: unknown[] };
};
type Answer = { status: number; headers?: Record<string, string> };

/** A local collector: records each POST and answers with the next scripted answer. */
let server: Server;
let url = '';
const hits: Hit[] = [];
const answers: Answer[] = [];
before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      hits.push({ headers: req.headers, body: JSON.parse(body) });
      const a = answers.shift() ?? { status: 202 };
      res.writeHead(a.status, a.headers).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/collect`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const item = (session = 'session-1'): TransportItem => ({
  type: TransportItemType.MEASUREMENT,
  payload: { type: 'web-vitals', values: { fcp: 120 } } as TransportItem['payload'],
  meta: {
    session: { id: session },
    app: { name: 'SmartConnect', version: '1.0.0', environment: 'production' },
  },
});

function clock(start: number) {
  const c = { t: start, now: () => c.t };
  return c;
}

test('posts JSON with the session id and API key headers', async () => {
  hits.length = 0;
  const t = new TelemetryTransport({ url, apiKey: 'key-1' });
  await t.send([item()]);
  assert.equal(hits.length, 1);
  assert.equal(hits[0].headers['content-type'], 'application/json');
  assert.equal(hits[0].headers['x-faro-session-id'], 'session-1');
  assert.equal(hits[0].headers['x-api-key'], 'key-1');
  assert.equal(hits[0].body.meta?.session?.id, 'session-1');
  assert.equal(hits[0].body.measurements?.length, 1);
  const noKey = new TelemetryTransport({ url });
  await noKey.send([item()]);
  assert.equal(hits[1].headers['x-api-key'], undefined);
});

test('429 with Retry-After in seconds: backs off that long, dropping what is sent meanwhile', async () => {
  hits.length = 0;
  const c = clock(1_000_000);
  const t = new TelemetryTransport({ url, now: c.now });
  answers.push({ status: 429, headers: { 'retry-after': '7' } });
  await t.send([item()]);
  assert.equal(t.disabledUntil, 1_000_000 + 7000);
  c.t += 6999;
  await t.send([item()]);
  assert.equal(hits.length, 1, 'dropped while backing off');
  c.t += 1;
  await t.send([item()]);
  assert.equal(hits.length, 2, 'sent again once the wait is over');
});

test('429 with Retry-After as an HTTP date: backs off until that date', async () => {
  hits.length = 0;
  const start = Date.parse('2026-11-24T06:00:00Z');
  const c = clock(start);
  const t = new TelemetryTransport({ url, now: c.now });
  answers.push({ status: 429, headers: { 'retry-after': new Date(start + 30_000).toUTCString() } });
  await t.send([item()]);
  assert.equal(t.disabledUntil, start + 30_000);
  c.t = start + 29_999;
  await t.send([item()]);
  assert.equal(hits.length, 1);
  c.t = start + 30_000;
  await t.send([item()]);
  assert.equal(hits.length, 2);
});

test('429 without Retry-After: backs off 5000 ms', async () => {
  hits.length = 0;
  const c = clock(5_000_000);
  const t = new TelemetryTransport({ url, now: c.now });
  answers.push({ status: 429 });
  await t.send([item()]);
  assert.equal(t.disabledUntil, 5_000_000 + 5000);
  answers.push({ status: 429, headers: { 'retry-after': 'soon' } });
  c.t += 5000;
  await t.send([item()]);
  assert.equal(t.disabledUntil, 5_005_000 + 5000, 'an unreadable Retry-After is the default');
});

test('202 with an invalid session status starts a new session; a plain 202 does not', async () => {
  hits.length = 0;
  let renewed = 0;
  const t = new TelemetryTransport({ url, onInvalidSession: () => renewed++ });
  answers.push({ status: 202 });
  await t.send([item()]);
  assert.equal(renewed, 0);
  answers.push({ status: 202, headers: { 'x-faro-session-status': 'invalid' } });
  await t.send([item()]);
  assert.equal(renewed, 1);
});

test('failures are only logged: a collector that is down does not throw', async () => {
  const t = new TelemetryTransport({ url: 'http://127.0.0.1:9/collect' });
  await t.send([item()]);
  answers.push({ status: 500 });
  await new TelemetryTransport({ url }).send([item()]);
});
