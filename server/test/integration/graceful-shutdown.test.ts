import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { REALTIME_CLOSE } from '@smartconnect/contracts';
import { WebSocket } from 'ws';
import type { TimerKind } from '../../src/jobs/queries.ts';
import { markJobsStopping } from '../../src/jobs/stopping.ts';
import { registerTimer, runDueTimers } from '../../src/jobs/timers.ts';
import { readiness } from '../../src/modules/health/readiness.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { makeTeam } from './chats-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

let s: TestServer;
let closed = false;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  if (!closed) await s.close();
});

test('a stopping job runner fires what it is firing and gives the rest of its claimed timers back at once', async () => {
  const org = await createOrganisation(s);
  const kind = 'shutdown_probe' as TimerKind;
  const fired: string[] = [];
  registerTimer(kind, {
    lock: async () => undefined,
    fire: async (_tx, _orgId, id) => {
      fired.push(id);
      // The shutdown begins while the first timer of the batch fires.
      markJobsStopping(s.app);
    },
  });
  const ids = Array.from({ length: 5 }, () => randomUUID());
  for (const id of ids)
    await s.app.db.query(
      'insert into timers (organisation_id, kind, subject_id, due_at) values ($1, $2, $3, $4)',
      [org.id, kind, id, s.clock.now()],
    );
  assert.equal(await runDueTimers(s.app), 1);
  assert.equal(fired.length, 1);
  const left = await s.app.db.query<{ claimed_by: string | null; lease_until: Date | null }>(
    'select claimed_by, lease_until from timers where kind = $1',
    [kind],
  );
  // Not leased for a minute: free for another instance's next poll.
  assert.equal(left.length, 4);
  for (const row of left) {
    assert.equal(row.claimed_by, null);
    assert.equal(row.lease_until, null);
  }
});

/** A visitor of a new site chat with its widget socket open; resolves the socket's close code. */
async function widgetSocket(org: Awaited<ReturnType<typeof createOrganisation>>) {
  const made = await org.admin.api.post('/api/channels', {
    type: 'site_chat',
    name: 'Shutdown site',
    teamId: await makeTeam(org),
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  const channelId = made.body.entity.id as string;
  const v = await s.api.post(`/api/widget/${channelId}/visitors`);
  assert.equal(v.status, 200, JSON.stringify(v.body));
  const ws = new WebSocket(
    `${s.url.replace(/^http/, 'ws')}/api/widget/${channelId}/ws?token=${encodeURIComponent(v.body.entity.token)}`,
  );
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('message', () => resolve()); // the resume's history frame: the socket is registered
    ws.once('error', reject);
  });
  return { ws, closed };
}

test('SIGTERM path (server.close): draining first, sockets told to reconnect elsewhere (1012), a request in flight still answered', async () => {
  const org = await createOrganisation(s);
  const socket = await RealtimeClient.connect(s.url, org.admin.token);
  const widget = await widgetSocket(org);
  assert.equal((await s.api.get('/api/ready')).status, 200);

  // A request whose headers arrived and whose body is still coming when the shutdown starts.
  const body = JSON.stringify({ login: 'nobody@example.test', password: 'Wrong-password-1' });
  const url = new URL('/api/auth/login', s.url);
  let answered: { status: number; body: string } | undefined;
  const inFlight = new Promise<void>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => {
          answered = { status: res.statusCode ?? 0, body: text };
          resolve();
        });
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 10));
    // The rest once the shutdown is under way.
    setTimeout(() => req.end(body.slice(10)), 300);
  });
  await new Promise((r) => setTimeout(r, 100));

  const closing = s.close();
  closed = true;
  // At once: readiness says draining (a load balancer stops sending traffic here).
  const ready = await readiness(s.app);
  assert.equal(ready.status, 'draining');

  await socket.waitFor(() => false, 5_000).catch(() => undefined);
  assert.equal(socket.closeCode, REALTIME_CLOSE.serviceRestart);
  // A visitor's widget too (its own socket server): told at once, so the close does not wait for the visitor.
  const widgetCode = await Promise.race([
    widget.closed,
    new Promise<string>((r) => setTimeout(() => r('open'), 5_000)),
  ]);
  // (Left open, the visitor leaves: the close can end and the test report the failure.)
  if (widgetCode === 'open') widget.ws.terminate();
  assert.equal(widgetCode, REALTIME_CLOSE.serviceRestart);

  await inFlight;
  // The request finished normally (its own answer, not a reset or a 503).
  assert.ok(answered, 'the request in flight was answered');
  assert.notEqual(answered.status, 503, answered.body);
  assert.ok(answered.status >= 200 && answered.status < 500, `${answered.status} ${answered.body}`);
  const started = Date.now();
  await closing;
  // Nothing holds the close (the shutdown timeout is 30 s; an open socket would have held it that long).
  assert.ok(Date.now() - started < 10_000, `the close took ${Date.now() - started} ms`);
});
