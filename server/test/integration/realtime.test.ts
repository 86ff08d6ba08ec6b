import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Audience, RealtimeEventType } from '@smartconnect/contracts';
import { loadConfig } from '../../src/config.ts';
import { openPostgres } from '../../src/db/index.ts';
import { localBus } from '../../src/realtime/bus.ts';
import { withEvents } from '../../src/realtime/emit.ts';
import { insertEvents } from '../../src/realtime/queries.ts';
import { realtimeGateway } from '../../src/realtime/routes.ts';
import { createServer } from '../../src/server.ts';
import {
  createOrganisation,
  loginToken,
  startTestServer,
  type TestOrg,
  type TestServer,
} from '../helpers.ts';
import { RealtimeClient } from './realtime-client.ts';

let s: TestServer;
const clients: RealtimeClient[] = [];
before(async () => {
  // With REDIS_URL (the CI run on PostgreSQL) the gateway runs over the Redis bus.
  s = await startTestServer({ env: process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {} });
});
after(async () => {
  for (const c of clients) c.close();
  await s.close();
});

const connect = async (token: string, lastEventId?: string) => {
  const c = await RealtimeClient.connect(s.url, token, lastEventId);
  clients.push(c);
  return c;
};

/** Emits events as domain code does: in a transaction, published after commit. */
const emit = (org: string, type: RealtimeEventType, payload: Record<string, unknown>, audience: Audience) =>
  withEvents(s.app, async (_q, e) => {
    await e(org, type, payload, audience);
  });

async function team(org: TestOrg, name: string): Promise<string> {
  const res = await org.admin.api.post('/api/teams', { name, description: name });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entity.id;
}

const ALL = ['AUTHORITY_ALL_CHATS'];

describe('realtime gateway', () => {
  test('refuses a missing or bad token with 401 before the upgrade', async () => {
    await assert.rejects(RealtimeClient.connect(s.url, 'not-a-token'), /HTTP 401/);
    const org = await createOrganisation(s);
    const op = await org.user();
    const c = await connect(op.token);
    assert.equal(c.frames[0].type, 'hello');
    assert.equal(c.frames[0].payload.userId, op.id);
    assert.match(c.frames[0].id, /^\d+$/);
  });

  test('each user receives only what the audience allows: own chats, own teams, all chats, own organisation', async () => {
    const orgA = await createOrganisation(s);
    const orgB = await createOrganisation(s);
    const [tx, ty, tb] = [await team(orgA, 'X'), await team(orgA, 'Y'), await team(orgB, 'B')];
    const opX = await orgA.user({ teams: [tx] });
    const opY = await orgA.user({ teams: [ty] });
    const sup = await orgA.user({ role: 'SUPERVISOR' });
    const opB = await orgB.user({ teams: [tb] });
    const supB = await orgB.user({ role: 'SUPERVISOR' });
    const [cX, cY, cSup, cB, cSupB] = await Promise.all(
      [opX, opY, sup, opB, supB].map((u) => connect(u.token)),
    );

    await emit(orgA.id, 'chat.assigned', { n: 'own-x' }, { userIds: [opX.id], rights: ALL });
    await emit(orgA.id, 'chat.created', { n: 'waiting-x' }, { teamIds: [tx], rights: ALL });
    await emit(orgA.id, 'chat.created', { n: 'waiting-y' }, { teamIds: [ty], rights: ALL });
    await emit(orgA.id, 'message.created', { n: 'own-y' }, { userIds: [opY.id] });
    await emit(orgB.id, 'chat.created', { n: 'waiting-b' }, { teamIds: [tb], rights: ALL });
    await emit(orgA.id, 'counters.changed', { marker: 'endA' }, { all: true });
    await emit(orgB.id, 'counters.changed', { marker: 'endB' }, { all: true });
    await Promise.all([cX, cY, cSup].map((c) => c.waitMarker('endA')));
    await Promise.all([cB, cSupB].map((c) => c.waitMarker('endB')));

    const names = (c: RealtimeClient) => c.events.map((f) => f.payload.n ?? f.payload.marker);
    assert.deepEqual(names(cX), ['own-x', 'waiting-x', 'endA']);
    assert.deepEqual(names(cY), ['waiting-y', 'own-y', 'endA']);
    assert.deepEqual(names(cSup), ['own-x', 'waiting-x', 'waiting-y', 'endA']);
    assert.deepEqual(names(cB), ['waiting-b', 'endB']);
    assert.deepEqual(names(cSupB), ['waiting-b', 'endB']);
    // Frames are {id, type, payload} with the event's id, increasing.
    const ids = cSup.events.map((f) => Number(f.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
    assert.deepEqual(Object.keys(cSup.events[0]).sort(), ['id', 'payload', 'type']);
  });

  test('team membership changes and revoked sessions are picked up', async () => {
    const org = await createOrganisation(s);
    const tx = await team(org, 'X');
    const op = await org.user();
    const other = await org.user();
    const c = await connect(op.token);
    const cOther = await connect(other.token);
    const res = await org.admin.api.patch(`/api/users/${op.id}`, { teamIds: [tx] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await realtimeGateway(s.app)?.revalidate();
    await emit(org.id, 'chat.created', { marker: 'joined' }, { teamIds: [tx] });
    await c.waitMarker('joined');

    const out = await other.api.post('/api/auth/acc/logout', {});
    assert.equal(out.status, 200, JSON.stringify(out.body));
    await realtimeGateway(s.app)?.revalidate();
    assert.equal(await cOther.waitClosed(), 4001);
    await assert.rejects(RealtimeClient.connect(s.url, other.token), /HTTP 401/);
    // The other socket is untouched.
    assert.equal(c.closeCode, undefined);
  });

  test('answers an application ping', async () => {
    const org = await createOrganisation(s);
    const c = await connect((await org.user()).token);
    c.ws.send('ping');
    await c.waitFor((fs) => fs.some((f) => f.type === 'pong'));
  });

  test('resume after a dropped socket delivers every missed event exactly once, in order, then live ones', async () => {
    const org = await createOrganisation(s);
    const tx = await team(org, 'X');
    const op = await org.user({ teams: [tx] });
    const c1 = await connect(op.token);
    await emit(org.id, 'chat.created', { n: 0 }, { teamIds: [tx] });
    await c1.waitFor(() => c1.events.length === 1);
    const cursor = c1.lastId;
    c1.close();

    for (let n = 1; n <= 10; n++) {
      await emit(
        org.id,
        'message.created',
        { n },
        n % 3 === 0 ? { userIds: ['someone-else'] } : { teamIds: [tx] },
      );
    }
    // Events keep committing while the socket reconnects: none may be lost or doubled at the switch-over.
    const writers = Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        emit(org.id, 'message.created', { n: 11 + i }, { userIds: [op.id] }),
      ),
    );
    const c2 = await connect(op.token, cursor);
    await writers;
    await emit(org.id, 'counters.changed', { marker: 'end' }, { all: true });
    await c2.waitMarker('end');
    assert.equal(c2.frames[0].type, 'hello');
    assert.equal(c2.frames[0].payload.resumed, true);
    assert.equal(c2.frames[0].id, cursor);
    const got = c2.events.filter((f) => typeof f.payload.n === 'number').map((f) => f.payload.n);
    const expected = [1, 2, 4, 5, 7, 8, 10, ...Array.from({ length: 10 }, (_, i) => 11 + i)];
    assert.deepEqual(
      [...got].sort((a, b) => a - b),
      expected,
      'each missed event once',
    );
    assert.equal(new Set(c2.events.map((f) => f.id)).size, c2.events.length, 'no duplicate ids');
    const ids = c2.events.map((f) => Number(f.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      'in id order',
    );
  });

  test("a tab's first socket resumes from the session answer's eventCursor: an event between the two is not lost", async () => {
    const org = await createOrganisation(s);
    const me = await org.admin.api.get('/api/auth/user');
    assert.equal(me.status, 200, JSON.stringify(me.body));
    const cursor = me.body.entity.eventCursor;
    assert.match(cursor, /^\d+$/);
    // Committed after the page read its data, before its socket said hello.
    await emit(org.id, 'channel.problems', { between: true }, { rights: ['AUTHORITY_SERVICE_ACCOUNT'] });
    const c = await connect(org.admin.token, cursor);
    await emit(org.id, 'counters.changed', { marker: 'end' }, { all: true });
    await c.waitMarker('end');
    assert.equal(c.frames[0].type, 'hello');
    assert.equal(c.frames[0].payload.resumed, true);
    assert.deepEqual(
      c.events.filter((f) => f.type === 'channel.problems').map((f) => f.payload),
      [{ between: true }],
    );
    // Without the cursor the same event is gone: the socket starts at the present.
    const fresh = await connect(org.admin.token);
    await emit(org.id, 'counters.changed', { marker: 'fresh' }, { all: true });
    await fresh.waitMarker('fresh');
    assert.equal(fresh.events.filter((f) => f.type === 'channel.problems').length, 0);
  });

  test('resync when the cursor is unknown, malformed or older than the retained log', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const fresh = await connect(op.token);
    const end = Number(fresh.frames[0].id);
    const future = await connect(op.token, String(end + 1_000_000));
    assert.equal(future.frames[0].type, 'resync');
    assert.equal(future.frames[0].payload.reason, 'unknown');
    const bad = await connect(op.token, 'abc');
    assert.equal(bad.frames[0].type, 'resync');

    await emit(org.id, 'chat.created', { n: 'old' }, { userIds: [op.id] });
    const gateway = realtimeGateway(s.app);
    assert.ok(gateway);
    // Everything is "older than the retention" a day and a half from now.
    const pruned = await gateway.prune(new Date(Date.now() + 36 * 3600_000));
    assert.ok(pruned >= 1);
    const old = await connect(op.token, String(Math.max(end - 1, 0)));
    assert.equal(old.frames[0].type, 'resync');
    assert.equal(old.frames[0].payload.reason, 'expired');
    // After a resync the socket is live.
    await emit(org.id, 'chat.created', { marker: 'after-resync' }, { userIds: [op.id] });
    await old.waitMarker('after-resync');
  });

  test('an id taken by a transaction that never commits does not hold delivery back', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const c = await connect(op.token);
    // A crashed writer: the sequence moved, no row, no announcement.
    await s.app.db.query("select nextval('events_id_seq')");
    const started = Date.now();
    await emit(org.id, 'chat.created', { marker: 'after-gap' }, { userIds: [op.id] });
    await c.waitMarker('after-gap', 5000);
    // Well under the 5 s timeout: no writer was in flight, so the hole was known dead at the first look.
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });

  test('events committed out of id order reach a live socket in id order, and one never published is read from the log', {
    skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL: PGlite runs one transaction at a time',
  }, async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const c = await connect(op.token);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inserted!: () => void;
    const insertedP = new Promise<void>((r) => {
      inserted = r;
    });
    // A writer that takes the lower id, commits last and never publishes (as if it crashed after commit).
    const slow = s.app.db.tx(async (q) => {
      await insertEvents(q, [
        {
          organisationId: org.id,
          type: 'chat.created',
          payloadJson: '{"n":"first"}',
          audience: { userIds: [op.id] },
        },
      ]);
      inserted();
      await held;
    });
    await insertedP;
    await emit(org.id, 'chat.created', { n: 'second' }, { userIds: [op.id] });
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(c.events.length, 0, 'the higher id waits for the lower one');
    release();
    await slow;
    await c.waitFor(() => c.events.length === 2);
    assert.deepEqual(
      c.events.map((f) => f.payload.n),
      ['first', 'second'],
    );
  });

  test('a user whose last socket is gone for the grace period goes offline; a quick reconnect keeps them online', async () => {
    const gateway = realtimeGateway(s.app);
    assert.ok(gateway);
    const saved = gateway.presence.options.graceMs;
    // A few minutes by default (PRESENCE_OFFLINE_GRACE_SECONDS, issue 36): a reload or a blip changes nothing.
    assert.equal(saved, 300_000);
    gateway.presence.options.graceMs = 1000;
    try {
      const org = await createOrganisation(s);
      const op = await org.user();
      const presence = async () =>
        (await s.app.db.query<{ presence: string }>('select presence from users where id = $1', [op.id]))[0]
          .presence;
      const tab1 = await connect(op.token);
      const tab2 = await connect(op.token);
      const on = await op.api.patch('/api/presence', { status: 'online' });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      // One tab closes: another is still open.
      tab1.close();
      await new Promise((r) => setTimeout(r, 1300));
      assert.equal(await presence(), 'online');
      // The last tab drops and comes back within the grace: still online.
      tab2.close();
      await new Promise((r) => setTimeout(r, 100));
      const tab3 = await connect(op.token);
      await new Promise((r) => setTimeout(r, 1300));
      assert.equal(await presence(), 'online');
      // Signed out and in again (a new session) within the grace: still In work, not a fresh Offline.
      tab3.close();
      await new Promise((r) => setTimeout(r, 100));
      const again = await loginToken(s.api, op.email, op.password);
      const tab4 = await connect(again);
      await new Promise((r) => setTimeout(r, 1300));
      assert.equal(await presence(), 'online');
      // Gone for good.
      tab4.close();
      const deadline = Date.now() + 5000;
      while ((await presence()) !== 'offline' && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      assert.equal(await presence(), 'offline');
      const events = await s.app.db.query<{ payload: { reason: string; status: string } }>(
        "select payload from events where type = 'presence.changed' and payload->>'userId' = $1 order by id",
        [op.id],
      );
      assert.deepEqual(
        events.map((e) => [e.payload.status, e.payload.reason]),
        [
          ['online', 'manual'],
          ['offline', 'disconnect'],
        ],
      );
    } finally {
      gateway.presence.options.graceMs = saved;
    }
  });

  test("a dead instance's sockets are reaped and their users set offline by another instance", async () => {
    const gateway = realtimeGateway(s.app);
    assert.ok(gateway);
    const org = await createOrganisation(s);
    const op = await org.user();
    const on = await op.api.patch('/api/presence', { status: 'online' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    // A row left by an instance that stopped heartbeating a minute ago.
    await s.app.db.query(
      "insert into realtime_presence (instance_id, organisation_id, user_id, sockets, seen_at) values ('dead-instance', $1, $2, 1, now() - interval '1 minute')",
      [org.id, op.id],
    );
    await gateway.presence.heartbeat();
    const rows = await s.app.db.query<{ presence: string }>('select presence from users where id = $1', [
      op.id,
    ]);
    assert.equal(rows[0].presence, 'offline');
    const left = await s.app.db.query("select 1 from realtime_presence where instance_id = 'dead-instance'");
    assert.equal(left.length, 0);
  });

  test('a second instance without the bus resumes a cursor it has not seen yet and catches up from the log', {
    skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL: two servers on one database',
  }, async () => {
    assert.ok(s.databaseUrl);
    const db = await openPostgres(s.databaseUrl, 3);
    // Instance B: same database, its own in-process bus, so it hears nothing from A.
    const b = await createServer(
      loadConfig({
        DATA_DIR: s.dataDir,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
      }),
      { db, bus: localBus() },
    );
    await b.fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = b.fastify.server.address();
    const bUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const org = await createOrganisation(s);
      const op = await org.user();
      const onA = await connect(op.token);
      for (let n = 1; n <= 3; n++) await emit(org.id, 'message.created', { n }, { userIds: [op.id] });
      await onA.waitFor(() => onA.events.length === 3);
      const cursor = onA.events[1].id;
      onA.close();
      const onB = await RealtimeClient.connect(bUrl, op.token, cursor);
      clients.push(onB);
      assert.equal(onB.frames[0].type, 'hello', JSON.stringify(onB.frames[0]));
      await onB.waitFor(() => onB.events.length === 1);
      assert.equal(onB.events[0].payload.n, 3);
      // Later events reach B through its catch-up from the log.
      await emit(org.id, 'message.created', { n: 4 }, { userIds: [op.id] });
      await onB.waitFor(() => onB.events.length === 2, 5000);
      assert.deepEqual(
        onB.events.map((f) => f.payload.n),
        [3, 4],
      );
    } finally {
      await b.close();
    }
  });

  test('presence counts sockets across instances: a user goes offline only when their last socket anywhere is gone', {
    skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL: two servers on one database',
  }, async () => {
    assert.ok(s.databaseUrl);
    const db = await openPostgres(s.databaseUrl, 3);
    const b = await createServer(
      loadConfig({
        DATA_DIR: s.dataDir,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
      }),
      { db, bus: localBus() },
    );
    await b.fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = b.fastify.server.address();
    const bUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const gateways = [realtimeGateway(s.app), realtimeGateway(b.app)];
    const saved = gateways.map((g) => g?.presence.options.graceMs ?? 0);
    for (const g of gateways) if (g) g.presence.options.graceMs = 300;
    try {
      const org = await createOrganisation(s);
      const op = await org.user();
      const presence = async () =>
        (await s.app.db.query<{ presence: string }>('select presence from users where id = $1', [op.id]))[0]
          .presence;
      const onA = await connect(op.token);
      const onB = await RealtimeClient.connect(bUrl, op.token);
      clients.push(onB);
      assert.equal((await op.api.patch('/api/presence', { status: 'online' })).status, 200);
      onA.close();
      await new Promise((r) => setTimeout(r, 900));
      assert.equal(await presence(), 'online', 'the tab on instance B is still open');
      onB.close();
      const deadline = Date.now() + 5000;
      while ((await presence()) !== 'offline' && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      assert.equal(await presence(), 'offline');
    } finally {
      gateways.forEach((g, i) => {
        if (g) g.presence.options.graceMs = saved[i];
      });
      await b.close();
    }
  });
});
