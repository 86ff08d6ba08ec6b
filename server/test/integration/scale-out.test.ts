import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REALTIME_CLOSE } from '@smartconnect/contracts';
import { Redis } from 'ioredis';
import { type Db, openPostgres } from '../../src/db/index.ts';
import { Api } from '../helpers.ts';
import {
  freePort,
  organisationIn,
  REDIS_URL,
  sharedDatabase,
  until,
  unreachable as whyUnreachable,
} from './cluster-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

/**
 * Two server processes on one PostgreSQL and one Redis: a message ingested on instance A reaches an
 * operator connected to instance B, and a due timer fires exactly once although both poll for it.
 */
const unreachable = await whyUnreachable();
if (unreachable && process.env.CI === 'true')
  throw new Error(`scale-out test cannot run under CI: ${unreachable}`);
if (unreachable) console.log(`scale-out test skipped: ${unreachable}`);
const root = resolve(import.meta.dirname, '../../..');

type Instance = { name: string; url: string; proc: ChildProcess; dataDir: string; output: string[] };

async function startInstance(name: string, databaseUrl: string): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `sc-scale-${name}-`));
  const output: string[] = [];
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
      SECRET_KEY: 'scale-out-secret-key-shared-by-both-instances-0123',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  proc.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`instance ${name} exited: ${output.join('')}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`instance ${name} did not start: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name, url, proc, dataDir, output };
}

async function stopInstance(i: Instance): Promise<void> {
  if (i.proc.exitCode === null) {
    const exited = new Promise((r) => i.proc.once('exit', r));
    i.proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (i.proc.exitCode === null) i.proc.kill('SIGKILL');
  }
  rmSync(i.dataDir, { recursive: true, force: true });
}

describe('scale-out: two instances on one PostgreSQL and Redis', { skip: unreachable }, () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>> | undefined;
  let db: Db;
  let a: Instance;
  let b: Instance;
  const sockets: RealtimeClient[] = [];

  before(async () => {
    shared = await sharedDatabase('sc_scale');
    const url = new URL(shared.url);
    a = await startInstance('a', url.toString());
    // The same database under another spelling: the Redis channel follows the database, not the URL text.
    const other = new URL(url.toString());
    other.protocol = 'postgresql:';
    if (other.port === '5432') other.port = '';
    other.searchParams.set('application_name', 'smartconnect-b');
    assert.notEqual(other.toString(), url.toString());
    b = await startInstance('b', other.toString());
    db = await openPostgres(url.toString(), 2);
  });

  after(async () => {
    for (const s of sockets) s.close();
    for (const i of [a, b])
      if (i?.output.length) console.log(`--- instance ${i.name} output:\n${i.output.join('')}`);
    await Promise.all([a, b].filter(Boolean).map(stopInstance));
    await db?.close();
    await shared?.drop();
  });

  const organisation = () => organisationIn(db, a.url);

  test('a message ingested on A reaches the operator on B; a due timer fires exactly once', async () => {
    const { user } = await organisation();
    const admin = await user('ADMINISTRATOR', []);
    const adminA = new Api(a.url, admin.token);
    const team = await adminA.post('/api/teams', {
      name: 'Support',
      description: 'support',
      distributionMethod: 'manual',
      autoCloseMinutes: 1440,
    });
    assert.equal(team.status, 200, JSON.stringify(team.body));
    const operator = await user('OPERATOR', [team.body.entity.id]);

    // The operator's tab is connected to instance B only.
    const onB = await RealtimeClient.connect(b.url, operator.token);
    sockets.push(onB);

    const channel = await adminA.post('/api/channels', {
      type: 'api',
      name: 'API',
      teamId: team.body.entity.id,
      webhookUrl: 'http://127.0.0.1:9/hook',
    });
    assert.equal(channel.status, 200, JSON.stringify(channel.body));
    // Watch the Redis channel too: the event must travel through it, not only through the log catch-up.
    const watcher = new Redis(REDIS_URL);
    const onRedis: { channel: string; text: string }[] = [];
    watcher.on('pmessage', (_p: string, channel: string, text: string) => onRedis.push({ channel, text }));
    await watcher.psubscribe('smartconnect:events:*');
    const inbound = await new Api(a.url).call(
      'POST',
      `/api/channels/${channel.body.entity.id}/inbound`,
      { externalMessageId: 'ext-1', client: { externalId: 'c-1', name: 'Client One' }, text: 'hello from A' },
      { authorization: `Bearer ${channel.body.entity.inboundKey}` },
    );
    assert.equal(inbound.status, 200, JSON.stringify(inbound.body));
    await onB.waitFor(
      (fs) =>
        fs.some((f) => f.type === 'message.created' && JSON.stringify(f.payload).includes('hello from A')),
      10_000,
    );
    await until(
      async () => onRedis.some((m) => m.text.includes('hello from A')),
      'the event on the Redis channel',
      3000,
    );
    assert.ok(
      onB.frames.some((f) => f.type === 'chat.created'),
      'the new chat in the team queue',
    );

    // The operator takes the chat on B; then its auto-close timer is made due and both instances poll.
    const apiB = new Api(b.url, operator.token);
    const waiting = await apiB.get('/api/chats?filter=waiting');
    assert.equal(waiting.status, 200, JSON.stringify(waiting.body));
    assert.equal(waiting.body.entity.items.length, 1);
    const chatId: string = waiting.body.entity.items[0].id;
    const taken = await apiB.post(`/api/chats/${chatId}/take`);
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    await onB.waitFor((fs) => fs.some((f) => f.type === 'chat.assigned'), 10_000);
    // B published its own event on the very channel A used, although its URL is spelled differently.
    await until(
      async () => onRedis.some((m) => m.text.includes('chat.assigned')),
      "B's event on the Redis channel",
      3000,
    );
    watcher.disconnect();
    assert.equal(new Set(onRedis.map((m) => m.channel)).size, 1, 'one channel for both instances');

    const timer = await until(
      async () =>
        (
          await db.query<{ id: string }>(
            "select id from timers where kind = 'auto_close' and subject_id = $1",
            [chatId],
          )
        )[0],
      'the chat to carry an auto-close timer',
    );
    // A day and more of client silence, as if it had passed.
    await db.query(
      "update chats set last_client_message_at = now() - interval '25 hours', created_at = now() - interval '25 hours' where id = $1",
      [chatId],
    );
    await db.query("update timers set due_at = now() - interval '1 second' where id = $1", [timer.id]);
    await until(
      async () =>
        (await db.query<{ status: string }>('select status from chats where id = $1', [chatId]))[0]
          ?.status === 'closed',
      'the auto-close timer to close the chat',
    );
    // Give both instances several more polls to fire it a second time, if they could.
    await new Promise((r) => setTimeout(r, 3000));
    const history = await db.query<{ n: number }>(
      "select count(*)::int as n from chat_history where chat_id = $1 and kind = 'auto_close'",
      [chatId],
    );
    assert.equal(history[0].n, 1, 'one auto-close history row');
    const closedEvents = await db.query<{ n: number }>(
      "select count(*)::int as n from events where type = 'chat.closed' and payload::text like $1",
      [`%${chatId}%`],
    );
    assert.equal(closedEvents[0].n, 1, 'one chat.closed event');
    await onB.waitFor((fs) => fs.some((f) => f.type === 'chat.closed'), 10_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(onB.frames.filter((f) => f.type === 'chat.closed').length, 1, 'delivered once on B');
    const ids = onB.events.map((f) => f.id);
    assert.equal(new Set(ids).size, ids.length, 'no event delivered twice across instances');
    assert.equal(a.proc.exitCode, null);
    assert.equal(b.proc.exitCode, null);
  });

  test("a logout on A closes the session's socket on B at once, as deactivation does", async () => {
    const { user } = await organisation();
    const op = await user('OPERATOR', []);
    const onB = await RealtimeClient.connect(b.url, op.token);
    sockets.push(onB);
    const started = Date.now();
    assert.equal((await new Api(a.url, op.token).post('/api/auth/acc/logout', {})).status, 200);
    assert.equal(await onB.waitClosed(2_000), REALTIME_CLOSE.unauthorized);
    assert.ok(Date.now() - started < 2_000, 'long before the revalidation (15 s)');
  });

  test('a due redistribution timer fires exactly once although both instances poll for it', async () => {
    const { user } = await organisation();
    const admin = await user('ADMINISTRATOR', []);
    const adminA = new Api(a.url, admin.token);
    const team = await adminA.post('/api/teams', {
      name: 'Sales',
      description: 'sales',
      distributionMethod: 'round_robin',
      autoRedistributionMinutes: 1,
    });
    assert.equal(team.status, 200, JSON.stringify(team.body));
    const teamId: string = team.body.entity.id;
    const x = await user('OPERATOR', [teamId]);
    const y = await user('OPERATOR', [teamId]);
    // One operator goes online through each instance.
    assert.equal((await new Api(a.url, x.token).patch('/api/presence', { status: 'online' })).status, 200);
    assert.equal((await new Api(b.url, y.token).patch('/api/presence', { status: 'online' })).status, 200);
    const channel = await adminA.post('/api/channels', {
      type: 'api',
      name: 'API sales',
      teamId,
      webhookUrl: 'http://127.0.0.1:9/hook',
    });
    assert.equal(channel.status, 200, JSON.stringify(channel.body));
    const inbound = await new Api(b.url).call(
      'POST',
      `/api/channels/${channel.body.entity.id}/inbound`,
      { externalMessageId: 'ext-r', client: { externalId: 'c-r', name: 'Client R' }, text: 'anyone?' },
      { authorization: `Bearer ${channel.body.entity.inboundKey}` },
    );
    assert.equal(inbound.status, 200, JSON.stringify(inbound.body));
    const chatId: string = inbound.body.entity.chatId;
    const operatorOf = async () =>
      (
        await db.query<{ operator_id: string | null }>('select operator_id from chats where id = $1', [
          chatId,
        ])
      )[0]?.operator_id ?? null;
    const first = await operatorOf();
    assert.ok(first === x.id || first === y.id, 'assigned to one of the two');
    const second = first === x.id ? y.id : x.id;
    const timer = await until(
      async () =>
        (
          await db.query<{ id: string }>(
            "select id from timers where kind = 'redistribute' and subject_id = $1",
            [chatId],
          )
        )[0],
      'the chat to carry a redistribution timer',
    );
    // The operator has been silent for longer than the team allows.
    await db.query("update chats set assigned_at = now() - interval '2 minutes' where id = $1", [chatId]);
    await db.query("update timers set due_at = now() - interval '1 second' where id = $1", [timer.id]);
    await until(async () => (await operatorOf()) === second, 'the chat to go to the other operator');
    // Several more polls of both instances: had it fired twice, the chat would be back with the first one.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(await operatorOf(), second);
    const history = await db.query<{ n: number }>(
      "select count(*)::int as n from chat_history where chat_id = $1 and kind = 'redistribution'",
      [chatId],
    );
    assert.equal(history[0].n, 1, 'one redistribution history row');
    const assigned = await db.query<{ n: number }>(
      "select count(*)::int as n from events where type = 'chat.assigned' and payload->>'id' = $1",
      [chatId],
    );
    assert.equal(assigned[0].n, 2, 'assigned at arrival, then once by the redistribution');
    // Its new timer runs from the redistribution: not due for a minute.
    const next = await db.query<{ due_at: Date }>(
      "select due_at from timers where kind = 'redistribute' and subject_id = $1",
      [chatId],
    );
    assert.ok(next[0] && new Date(next[0].due_at).getTime() > Date.now() + 30_000);
    assert.equal(a.proc.exitCode, null);
    assert.equal(b.proc.exitCode, null);
  });
});
