import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openPglite, openPostgres } from '../../src/db/index.ts';
import { runDueTimers, TIMERS } from '../../src/jobs/timers.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { createServer } from '../../src/server.ts';
import { freshDatabase } from '../db.ts';
import { Api, createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

const MIN = 60_000;

async function waitFor(check: () => Promise<boolean> | boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('durable timers', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  /** Moves the clock and fires what is due (the server's own poller may fire some first: same result). */
  async function advance(ms: number) {
    s.clock.advance(ms);
    await runDueTimers(s.app);
    await waitFor(
      async () =>
        (await s.app.db.query('select 1 from timers where due_at <= $1', [s.clock.now()])).length === 0,
    );
    await new Promise((r) => setTimeout(r, 10));
  }

  const historyKinds = async (chatId: string) =>
    (
      await s.app.db.query<{ kind: string }>(
        'select kind from chat_history where chat_id = $1 order by created_at, id',
        [chatId],
      )
    ).map((r) => r.kind);

  test('auto-close after the team’s time without a client reply; each client message restarts it', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { autoCloseMinutes: 60 });
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'quiet' })).body.entity.chatId;
    await advance(59 * MIN);
    assert.equal((await chatOf(org.admin, chatId)).status, 'waiting');
    await inbound(s, ch, { client: 'quiet', text: 'still there?' });
    await advance(59 * MIN);
    assert.equal((await chatOf(org.admin, chatId)).status, 'waiting');
    const rec = recordEvents(s);
    await advance(2 * MIN);
    rec.stop();
    // Closed although the organisation requires a category for a manual close.
    assert.equal((await chatOf(org.admin, chatId)).status, 'closed');
    assert.deepEqual((await historyKinds(chatId)).slice(-1), ['auto_close']);
    assert.equal(rec.events.filter((e) => e.type === 'chat.closed').length, 1);
  });

  test('inactivity close: no message from either side for the team’s hours; 0 is off; a new time re-arms', async () => {
    const HOUR = 60 * MIN;
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const a = await org.user({ teams: [teamId] });
    await goOnline(a);
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'idle' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, chatId)).status, 'in_progress');
    // 0: off.
    await advance(30 * HOUR);
    assert.equal((await chatOf(org.admin, chatId)).status, 'in_progress');
    // 23 is refused (§5); 24 arms the open chats of the team from their last message (30 h ago: due now).
    const bad = await org.admin.api.patch(`/api/teams/${teamId}`, { inactivityHours: 23 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.fields.inactivityHours, 'Time set incorrectly');
    await inbound(s, ch, { client: 'idle', text: 'hello?' });
    assert.equal((await org.admin.api.patch(`/api/teams/${teamId}`, { inactivityHours: 24 })).status, 200);
    await advance(23 * HOUR);
    assert.equal((await chatOf(org.admin, chatId)).status, 'in_progress');
    // The operator's message restarts the time.
    assert.equal((await a.api.post(`/api/chats/${chatId}/messages`, { text: 'Still here' })).status, 200);
    await advance(23 * HOUR);
    assert.equal((await chatOf(org.admin, chatId)).status, 'in_progress');
    const rec = recordEvents(s);
    await advance(2 * HOUR);
    rec.stop();
    assert.equal((await chatOf(org.admin, chatId)).status, 'closed');
    assert.deepEqual((await historyKinds(chatId)).slice(-1), ['inactivity_close']);
    assert.equal(rec.events.filter((e) => e.type === 'chat.closed').length, 1);
    // Set to 0 again: the other open chats of the team stay open.
    const waiting = (await inbound(s, ch, { client: 'idle-2' })).body.entity.chatId;
    assert.equal((await org.admin.api.patch(`/api/teams/${teamId}`, { inactivityHours: 0 })).status, 200);
    await advance(48 * HOUR);
    assert.notEqual((await chatOf(org.admin, waiting)).status, 'closed');
  });

  test('redistribution after the team’s time without an operator reply; a reply stops it', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { autoRedistributionMinutes: 5 });
    const a = await org.user({ teams: [teamId] });
    const b = await org.user({ teams: [teamId] });
    await goOnline(a);
    await goOnline(b);
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'r1' })).body.entity.chatId;
    const first = (await chatOf(org.admin, chatId)).operator.id;
    const second = first === a.id ? b.id : a.id;
    await advance(4 * MIN);
    assert.equal((await chatOf(org.admin, chatId)).operator.id, first);
    await advance(1 * MIN);
    assert.equal((await chatOf(org.admin, chatId)).operator.id, second);
    assert.ok((await historyKinds(chatId)).includes('redistribution'));
    // The new operator answers in time: the chat stays.
    const holder = second === a.id ? a : b;
    assert.equal((await holder.api.post(`/api/chats/${chatId}/messages`, { text: 'Hi!' })).status, 200);
    await advance(10 * MIN);
    assert.equal((await chatOf(org.admin, chatId)).operator.id, second);
  });

  test('with no other operator online a silent operator’s chat goes back to Waiting', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { autoRedistributionMinutes: 3 });
    const a = await org.user({ teams: [teamId] });
    await goOnline(a);
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'r2' })).body.entity.chatId;
    const rec = recordEvents(s);
    await advance(3 * MIN);
    rec.stop();
    const chat = await chatOf(org.admin, chatId);
    assert.equal(chat.status, 'waiting');
    assert.equal(chat.operator, null);
    const ev = rec.events.find((e) => e.type === 'chat.updated');
    assert.deepEqual(new Set(ev?.audience.userIds), new Set([a.id]));
    assert.deepEqual(ev?.audience.teamIds, [teamId]);
  });

  test('redistribution back to Waiting changes the counters and hands the silent operator the next chat of the queue', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { dialogLimit: 1, autoRedistributionMinutes: 3 });
    const a = await org.user({ teams: [teamId] });
    await goOnline(a);
    const ch = await makeChannel(org, teamId);
    const silent = (await inbound(s, ch, { client: 'r3' })).body.entity.chatId;
    const queued = (await inbound(s, ch, { client: 'r4' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, queued)).status, 'waiting');
    const rec = recordEvents(s);
    await advance(3 * MIN);
    rec.stop();
    // The silent chat waits (not handed straight back); a has room and gets the next one.
    assert.equal((await chatOf(org.admin, silent)).status, 'waiting');
    assert.equal((await chatOf(org.admin, queued)).operator?.id, a.id);
    const counters = rec.events.filter((e) => e.type === 'counters.changed');
    assert.deepEqual(
      counters.map((e) => e.payload),
      [
        { chatId: silent, teamId, teamIds: [teamId] },
        { chatId: queued, teamId, teamIds: [teamId] },
      ],
    );
    assert.deepEqual(new Set(counters[0].audience.userIds), new Set([a.id]));
    assert.deepEqual(counters[0].audience.teamIds, [teamId]);
  });

  test('overdue levels from the channel thresholds; an operator reply clears them', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const op = await org.user({ teams: [teamId] });
    const ch = await makeChannel(org, teamId, { halfExpiredMinutes: 10, expiredMinutes: 20 });
    const chatId = (await inbound(s, ch, { client: 'late' })).body.entity.chatId;
    await advance(5 * MIN);
    await inbound(s, ch, { client: 'late', text: 'hello??' });
    await advance(5 * MIN);
    assert.equal((await chatOf(org.admin, chatId)).overdueLevel, 'half_expired');
    await advance(10 * MIN);
    assert.equal((await chatOf(org.admin, chatId)).overdueLevel, 'expired');
    await op.api.post(`/api/chats/${chatId}/take`);
    const rec = recordEvents(s);
    await op.api.post(`/api/chats/${chatId}/messages`, { text: 'Sorry for the wait' });
    rec.stop();
    assert.equal((await chatOf(op, chatId)).overdueLevel, 'none');
    assert.ok(
      rec.events.some(
        (e) => e.type === 'chat.updated' && (e.payload as { overdueLevel: string }).overdueLevel === 'none',
      ),
    );
    // A new client message starts a new window.
    await inbound(s, ch, { client: 'late', text: 'one more thing' });
    await advance(10 * MIN);
    assert.equal((await chatOf(op, chatId)).overdueLevel, 'half_expired');
  });

  test('automatic Break after the user’s inactivity timeout; activity moves it', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    assert.equal((await org.admin.api.patch(`/api/users/${op.id}`, { breakTimeoutMinutes: 15 })).status, 200);
    await goOnline(op);
    await advance(10 * MIN);
    // A request counts as activity (written at most once a minute by authentication).
    assert.equal((await op.api.get('/api/chats/counters')).status, 200);
    await advance(6 * MIN);
    const presence = async () =>
      (await s.app.db.query<{ presence: string }>('select presence from users where id = $1', [op.id]))[0]
        .presence;
    assert.equal(await presence(), 'online');
    const rec = recordEvents(s);
    await advance(10 * MIN);
    rec.stop();
    assert.equal(await presence(), 'break');
    const ev = rec.events.find((e) => e.type === 'presence.changed');
    assert.equal((ev?.payload as { reason?: string } | undefined)?.reason, 'auto_break');
  });

  test('a due timer fires once even when several runners claim at the same time', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { autoCloseMinutes: 1 });
    const ch = await makeChannel(org, teamId);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await inbound(s, ch, { client: `once-${i}` })).body.entity.chatId);
    const rec = recordEvents(s);
    s.clock.advance(2 * MIN);
    await Promise.all([runDueTimers(s.app), runDueTimers(s.app), runDueTimers(s.app)]);
    await advance(0);
    rec.stop();
    for (const id of ids)
      assert.deepEqual(
        (await historyKinds(id)).filter((k) => k === 'auto_close'),
        ['auto_close'],
      );
    assert.equal(rec.events.filter((e) => e.type === 'chat.closed').length, 5);
  });

  test('a timer claimed by an instance that died before firing it fires once its lease has run out', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { autoCloseMinutes: 1 });
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'orphan' })).body.entity.chatId;
    s.clock.advance(2 * MIN);
    // Another instance claimed it and died.
    await s.app.db.query('update timers set claimed_by = $2, lease_until = $3 where subject_id = $1', [
      chatId,
      randomUUID(),
      new Date(s.clock.now().getTime() + TIMERS.leaseMs),
    ]);
    await runDueTimers(s.app);
    assert.equal((await chatOf(org.admin, chatId)).status, 'waiting');
    await advance(TIMERS.leaseMs);
    assert.equal((await chatOf(org.admin, chatId)).status, 'closed');
    assert.deepEqual(
      (await historyKinds(chatId)).filter((k) => k === 'auto_close'),
      ['auto_close'],
    );
  });

  test('timers are rows in the database, so a restarted instance still fires them', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { autoCloseMinutes: 30 });
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'durable' })).body.entity.chatId;
    const rows = await s.app.db.query<{ kind: string; due_at: Date }>(
      'select kind, due_at from timers where subject_id = $1',
      [chatId],
    );
    assert.deepEqual(
      rows.map((r) => r.kind),
      ['auto_close'],
    );
    assert.equal(new Date(rows[0].due_at).getTime(), s.clock.now().getTime() + 30 * MIN);
  });
});

describe('durable timers across a restart', () => {
  test('a timer armed before a restart fires on the restarted instance', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sc-restart-'));
    const fresh = process.env.DATABASE_URL ? await freshDatabase() : null;
    // The same storage twice: a PGlite data directory, or the same PostgreSQL database.
    const open = async () => (fresh?.url ? openPostgres(fresh.url) : openPglite(join(dataDir, 'pglite')));
    if (fresh) await fresh.db.close();
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
      OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
    });
    const clock = new ManualClock();
    const boot = async () => {
      const server = await createServer(config, { db: await open(), clock });
      await server.fastify.listen({ port: 0, host: '127.0.0.1' });
      const address = server.fastify.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      return { ...server, api: new Api(url) } as unknown as TestServer;
    };
    try {
      const first = await boot();
      const org = await createOrganisation(first);
      const teamId = await makeTeam(org, { autoCloseMinutes: 30 });
      const ch = await makeChannel(org, teamId);
      const chatId = (await inbound(first, ch, { client: 'restart' })).body.entity.chatId;
      await first.close();

      clock.advance(31 * MIN);
      const second = await boot();
      try {
        await runDueTimers(second.app);
        const rows = await second.app.db.query<{ status: string }>('select status from chats where id = $1', [
          chatId,
        ]);
        assert.equal(rows[0].status, 'closed');
      } finally {
        await second.close();
      }
    } finally {
      await fresh?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
