import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { loadConfig } from '../../src/config.ts';
import { openPostgres } from '../../src/db/index.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { localBus } from '../../src/realtime/bus.ts';
import { createServer } from '../../src/server.ts';
import {
  createOrganisation,
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestUser,
} from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, type TestChannel } from './chats-fixtures.ts';
import { type Frame, RealtimeClient } from './realtime-client.ts';

const T0 = Date.parse('2026-05-04T09:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
// biome-ignore lint/suspicious/noExplicitAny: rows of four shapes
type Row = Record<string, any>;

const subscribe = (c: RealtimeClient, view: string) =>
  c.ws.send(JSON.stringify({ type: 'subscribe', topic: 'monitoring', params: { view } }));
const pushes = (c: RealtimeClient) => c.frames.filter((f) => f.type === 'topic' && f.payload.data);
const refusal = (c: RealtimeClient) => c.frames.find((f) => f.type === 'topic' && f.payload.refused);

/**
 * Monitoring: exact figures from a known state (channels, teams, operators, abonents), the team scope of a monitor
 * without AUTHORITY_ALL_CHATS, rights and plan option refusals over HTTP and the socket, another organisation seeing
 * nothing, live rows pushed when a chat is taken (coalesced), and per-user column settings.
 */
describe('monitoring', () => {
  let s: TestServer;
  let org: TestOrg;
  let olga: TestUser;
  let ivan: TestUser;
  let sup: TestUser;
  let scoped: TestUser;
  let teamA: string;
  let teamB: string;
  let chA: TestChannel;
  let chB: TestChannel;
  const chats: Record<string, string> = {};
  const sockets: RealtimeClient[] = [];
  const connect = async (u: TestUser) => {
    const c = await RealtimeClient.connect(s.url, u.token);
    sockets.push(c);
    return c;
  };

  before(async () => {
    s = await startTestServer({ clock: new ManualClock(T0) });
    org = await createOrganisation(s);
    teamA = await makeTeam(org, { method: 'manual', dialogLimit: 3 });
    teamB = await makeTeam(org, { method: 'manual', dialogLimit: 2 });
    olga = await org.user({ teams: [teamA], name: 'Olga' });
    ivan = await org.user({ teams: [teamA, teamB], name: 'Ivan' });
    sup = await org.user({ role: 'SUPERVISOR', name: 'Sveta' });
    const role = await org.admin.api.post('/api/roles', {
      name: 'Team monitor',
      description: 'Statistics of own teams',
      rights: ['AUTHORITY_ALL_STAT'],
    });
    assert.equal(role.status, 200, JSON.stringify(role.body));
    scoped = await org.user({ role: role.body.entity.id, teams: [teamB], name: 'Boris' });
    chA = await makeChannel(org, teamA);
    chB = await makeChannel(org, teamB);
    const open = async (ch: TestChannel, client: string, name: string) => {
      const res = await inbound(s, ch, { client, name });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.entity.chatId as string;
    };
    chats.ann = await open(chA, 'ann', 'Ann');
    s.clock.advance(60_000);
    chats.bob = await open(chA, 'bob', 'Bob');
    s.clock.advance(30_000);
    chats.cat = await open(chB, 'cat', 'Cat');
    s.clock.advance(30_000);
    const took = await olga.api.post(`/api/chats/${chats.bob}/take`, {});
    assert.equal(took.status, 200, JSON.stringify(took.body));
    await goOnline(ivan, 'break');
    s.clock.advance(60_000);
  });
  after(async () => {
    for (const c of sockets) c.close();
    await s.close();
  });

  const get = async (u: TestUser, view: string) => {
    const res = await u.api.get(`/api/monitoring/${view}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.entity.view, view);
    return res.body.entity.rows as Row[];
  };

  test('channels and teams: chats waiting and in progress, and when the longest current wait began', async () => {
    const snap = await sup.api.get('/api/monitoring/channels');
    assert.equal(snap.body.entity.at, at(180));
    const channels = await get(sup, 'channels');
    assert.deepEqual(
      channels.map((r) => [r.id, r.teamId, r.waiting, r.inProgress, r.waitingSince]).sort(),
      [
        [chA.id, teamA, 1, 1, at(0)],
        [chB.id, teamB, 1, 0, at(90)],
      ].sort(),
    );
    assert.equal(channels.find((r) => r.id === chA.id)?.type, 'api');
    const teams = await get(sup, 'teams');
    assert.deepEqual(
      teams
        .map((r) => [r.id, r.waiting, r.inProgress, r.waitingSince, r.inWork, r.onBreak, r.offline])
        .sort(),
      [
        [teamA, 1, 1, at(0), 1, 1, 0],
        [teamB, 1, 0, at(90), 0, 1, 0],
      ].sort(),
    );
  });

  test('operators: In work / Break / offline since when, load against the highest dialog limit of their teams', async () => {
    const rows = await get(sup, 'operators');
    const o = rows.find((r) => r.id === olga.id);
    const i = rows.find((r) => r.id === ivan.id);
    assert.deepEqual(
      { ...o, teamNames: undefined },
      {
        id: olga.id,
        name: 'Olga',
        status: 'online',
        statusSince: at(120),
        inProgress: 1,
        limit: 3,
        teamIds: [teamA],
        teamNames: undefined,
      },
    );
    assert.equal(i?.status, 'break');
    assert.equal(i?.statusSince, at(120));
    assert.equal(i?.inProgress, 0);
    assert.equal(i?.limit, 3);
    assert.deepEqual(new Set(i?.teamIds), new Set([teamA, teamB]));
    // Only users who receive dialogs: the custom monitor role has no AUTHORITY_CHAT_DISTRIBUTION.
    assert.ok(!rows.some((r) => r.id === scoped.id));
    const admin = rows.find((r) => r.id === org.admin.id);
    assert.deepEqual([admin?.status, admin?.limit, admin?.teamIds], ['offline', 0, []]);
  });

  test('abonents: clients waiting now, the longest wait first, with channel and team', async () => {
    const rows = await get(sup, 'abonents');
    assert.deepEqual(
      rows.map((r) => [r.id, r.clientName, r.channelId, r.teamId, r.waitingSince]),
      [
        [chats.ann, 'Ann', chA.id, teamA, at(0)],
        [chats.cat, 'Cat', chB.id, teamB, at(90)],
      ],
    );
  });

  test('a monitor without AUTHORITY_ALL_CHATS sees only what concerns their teams', async () => {
    assert.deepEqual(
      (await get(scoped, 'channels')).map((r) => r.id),
      [chB.id],
    );
    assert.deepEqual(
      (await get(scoped, 'teams')).map((r) => r.id),
      [teamB],
    );
    assert.deepEqual(
      (await get(scoped, 'operators')).map((r) => r.id),
      [ivan.id],
    );
    assert.deepEqual(
      (await get(scoped, 'abonents')).map((r) => r.id),
      [chats.cat],
    );
  });

  test('refusals: no AUTHORITY_ALL_STAT, no OPTION_ONLINE_MONITORING; another organisation sees nothing', async () => {
    for (const path of ['/api/monitoring/operators', '/api/monitoring/settings/teams']) {
      const res = await olga.api.get(path);
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'accessDeniedException');
    }
    const put = await olga.api.put('/api/monitoring/settings/teams', { columns: [] });
    assert.equal(put.status, 403);
    const basic = await createOrganisation(s, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_ONLINE_MONITORING'),
    });
    const res = await basic.admin.api.get('/api/monitoring/channels');
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'optionUnavailableException');

    const ws = await connect(olga);
    subscribe(ws, 'channels');
    await ws.waitFor(() => !!refusal(ws));
    assert.equal(refusal(ws)?.payload.refused, 'accessDeniedException');
    const ws2 = await connect(basic.admin);
    subscribe(ws2, 'channels');
    await ws2.waitFor(() => !!refusal(ws2));
    assert.equal(refusal(ws2)?.payload.refused, 'optionUnavailableException');
    const ws3 = await connect(sup);
    subscribe(ws3, 'nonsense');
    await ws3.waitFor(() => !!refusal(ws3));
    assert.equal(refusal(ws3)?.payload.refused, 'validationException');

    const other = await createOrganisation(s);
    const mine = new Set([
      chA.id,
      chB.id,
      teamA,
      teamB,
      olga.id,
      ivan.id,
      sup.id,
      org.admin.id,
      ...Object.values(chats),
    ]);
    for (const view of ['channels', 'teams', 'operators', 'abonents']) {
      const rows = await get(other.admin, view);
      assert.ok(!rows.some((r) => mine.has(r.id)), view);
    }
    assert.deepEqual(
      (await get(other.admin, 'operators')).map((r) => r.id),
      [other.admin.id],
    );
  });

  test('live: subscribed monitors get the changed rows when a chat is taken; bursts are coalesced', async () => {
    const opsSocket = await connect(sup);
    const arrivals: number[] = [];
    opsSocket.ws.on('message', (d) => {
      // Monitoring pushes only (frames of type 'topic'; a chat's own field `topic` is no push).
      const frame = JSON.parse(String(d)) as { type?: string; payload?: { data?: unknown } };
      if (frame.type === 'topic' && frame.payload?.data) arrivals.push(performance.now());
    });
    subscribe(opsSocket, 'operators');
    const chSocket = await connect(scoped);
    subscribe(chSocket, 'channels');
    const other = await createOrganisation(s);
    const otherSocket = await connect(other.admin);
    subscribe(otherSocket, 'operators');
    for (const c of [opsSocket, chSocket, otherSocket]) await c.waitFor(() => pushes(c).length >= 1);
    const first = pushes(opsSocket)[0].payload.data;
    assert.equal(first.full, true);
    assert.equal(first.view, 'operators');
    assert.equal(first.rows.find((r: Row) => r.id === ivan.id).status, 'break');
    assert.deepEqual(
      pushes(chSocket)[0].payload.data.rows.map((r: Row) => r.id),
      [chB.id],
    );

    // Ivan takes Cat's chat (team B): he goes In work with one chat; channel B has nobody waiting.
    const took = await ivan.api.post(`/api/chats/${chats.cat}/take`, {});
    assert.equal(took.status, 200, JSON.stringify(took.body));
    const ivanRow = (f: Frame) => f.payload.data.rows.find((r: Row) => r.id === ivan.id);
    await opsSocket.waitFor(() => pushes(opsSocket).some((f) => !f.payload.data.full && ivanRow(f)));
    const live = pushes(opsSocket).find((f) => !f.payload.data.full && ivanRow(f)) as Frame;
    assert.deepEqual([ivanRow(live).status, ivanRow(live).inProgress, ivanRow(live).limit], ['online', 1, 3]);
    // Only what changed: Olga's row is the same and is not sent again.
    assert.ok(!live.payload.data.rows.some((r: Row) => r.id === olga.id));
    await chSocket.waitFor(() => pushes(chSocket).length >= 2);
    const changed = pushes(chSocket)[1].payload.data;
    assert.deepEqual(
      changed.rows.map((r: Row) => [r.id, r.waiting, r.inProgress, r.waitingSince]),
      [[chB.id, 0, 1, null]],
    );

    // A burst of changes (Olga takes Ann's chat, then goes on break) reaches the monitor spaced by >= 500 ms.
    const before = pushes(opsSocket).length;
    assert.equal((await olga.api.post(`/api/chats/${chats.ann}/take`, {})).status, 200);
    await goOnline(olga, 'break');
    const olgaRow = (f: Frame) => f.payload.data.rows.find((r: Row) => r.id === olga.id);
    await opsSocket.waitFor(() =>
      pushes(opsSocket)
        .slice(before)
        .some((f) => olgaRow(f)?.status === 'break' && olgaRow(f)?.inProgress === 2),
    );
    for (let i = 2; i < arrivals.length; i++) assert.ok(arrivals[i] - arrivals[i - 1] >= 450, `${arrivals}`);
    // The other organisation's monitor got its first rows only.
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(pushes(otherSocket).length, 1);
    assert.deepEqual(
      pushes(otherSocket)[0].payload.data.rows.map((r: Row) => r.id),
      [other.admin.id],
    );
    // Unsubscribed: nothing more.
    opsSocket.ws.send(JSON.stringify({ type: 'unsubscribe', topic: 'monitoring' }));
    await new Promise((r) => setTimeout(r, 50));
    const count = pushes(opsSocket).length;
    await goOnline(olga, 'online');
    await chSocket.waitFor(() => pushes(chSocket).length >= 2);
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(pushes(opsSocket).length, count);
  });

  test('scale-out: a monitor on another instance gets the rows of a chat taken on this one', {
    skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL: two servers on one database',
  }, async () => {
    assert.ok(s.databaseUrl);
    // Instance B: same database, its own in-process bus (no Redis): it learns of A's events from the log.
    const b = await createServer(
      loadConfig({
        DATA_DIR: s.dataDir,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
      }),
      { db: await openPostgres(s.databaseUrl, 3), bus: localBus(), clock: s.clock },
    );
    await b.fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = b.fastify.server.address();
    const bUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const onB = await RealtimeClient.connect(bUrl, sup.token);
      sockets.push(onB);
      subscribe(onB, 'abonents');
      await onB.waitFor(() => pushes(onB).length >= 1);
      const res = await inbound(s, chA, { client: 'dan', name: 'Dan' });
      const dan = res.body.entity.chatId as string;
      await onB.waitFor(() => pushes(onB).some((f) => f.payload.data.rows.some((r: Row) => r.id === dan)));
      assert.equal((await olga.api.post(`/api/chats/${dan}/take`, {})).status, 200);
      await onB.waitFor(() => pushes(onB).some((f) => f.payload.data.removed.includes(dan)));
    } finally {
      await b.close();
    }
  });

  test('column settings: per user and view, order and visibility kept, bad keys refused', async () => {
    const def = await sup.api.get('/api/monitoring/settings/operators');
    assert.equal(def.status, 200);
    assert.deepEqual(
      def.body.entity.columns.map((c: Row) => c.key),
      ['name', 'status', 'statusSince', 'load', 'teams'],
    );
    assert.ok(def.body.entity.columns.every((c: Row) => c.visible));
    const columns = [
      { key: 'load', visible: true },
      { key: 'name', visible: true },
      { key: 'teams', visible: false },
    ];
    const put = await sup.api.put('/api/monitoring/settings/operators', { columns });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const expected = [...columns, { key: 'status', visible: true }, { key: 'statusSince', visible: true }];
    assert.deepEqual(put.body.entity.columns, expected);
    assert.deepEqual((await sup.api.get('/api/monitoring/settings/operators')).body.entity.columns, expected);
    // Another view and another user keep the defaults.
    assert.ok(
      (await sup.api.get('/api/monitoring/settings/teams')).body.entity.columns.every((c: Row) => c.visible),
    );
    assert.ok(
      (await org.admin.api.get('/api/monitoring/settings/operators')).body.entity.columns.every(
        (c: Row) => c.visible,
      ),
    );
    const bad = await sup.api.put('/api/monitoring/settings/operators', {
      columns: [
        { key: 'name', visible: true },
        { key: 'waitingFor', visible: true },
        { key: 'name', visible: false },
      ],
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.fields, {
      'columns.1.key': 'Value specified incorrectly',
      'columns.2.key': 'Value specified incorrectly',
    });
    const none = await sup.api.put('/api/monitoring/settings/abonents', {
      columns: ['client', 'channel', 'team', 'waitingFor'].map((key) => ({ key, visible: false })),
    });
    assert.equal(none.status, 400);
    assert.deepEqual(none.body.error.fields, { columns: 'Value specified incorrectly' });
  });
});
