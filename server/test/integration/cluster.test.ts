import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REALTIME_CLOSE } from '@smartconnect/contracts';
import { type Db, openPostgres } from '../../src/db/index.ts';
import { Api } from '../helpers.ts';
import {
  freePort,
  organisationIn,
  REDIS_URL,
  sharedDatabase,
  unreachable,
  until,
} from './cluster-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

/*
 * A short cluster run (issue 31): `scripts/cluster.mjs` starts two instances on one PostgreSQL and Redis behind
 * Debian's nginx. Sockets opened through nginx spread over both; one instance is stopped (SIGTERM): its sockets get
 * the reconnect code, reconnect through nginx with their last event id and land on the other instance, and no
 * socket misses an event, including those published while it was away; requests keep being answered. Then a SIGHUP
 * to the script restarts every instance in turn (a rolling restart): new processes on the same ports, all ready.
 * It runs in the PostgreSQL pass (CI runs both passes on this machine); nginx missing under CI is a failure.
 */
const root = resolve(import.meta.dirname, '../../..');
const why = process.env.DATABASE_URL
  ? ((await unreachable()) ??
    (['/usr/sbin/nginx', '/usr/bin/nginx'].some((p) => existsSync(p)) ? undefined : 'nginx is not installed'))
  : 'needs PostgreSQL';
if (why && why !== 'needs PostgreSQL' && process.env.CI === 'true')
  throw new Error(`cluster test cannot run under CI: ${why}`);

type ClusterState = { url: string; instances: { name: string; port: number; pid: number }[] };

describe('cluster: two instances behind nginx', { skip: why }, () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>> | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'sc-cluster-'));
  let proc: ChildProcess;
  const output: string[] = [];
  let state: ClusterState;
  let db: Db;
  const sockets: RealtimeClient[] = [];

  before(async () => {
    shared = await sharedDatabase('sc_cluster');
    const url = new URL(shared.url);
    const port = await freePort();
    proc = spawn(
      process.execPath,
      ['scripts/cluster.mjs', '--instances=2', `--port=${port}`, `--dir=${dir}`, '--source'],
      {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: url.toString(),
          REDIS_URL,
          SEED_DEMO: 'false',
          LOG_LEVEL: 'warn',
          NODE_ENV: 'test',
          OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
          SHUTDOWN_TIMEOUT_SECONDS: '10',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    proc.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
    proc.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
    await until(
      async () => proc.exitCode === null && existsSync(join(dir, 'cluster.json')),
      `the cluster to start: ${output.join('')}`,
      120_000,
    );
    state = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8'));
    db = await openPostgres(url.toString(), 2);
  });

  after(async () => {
    for (const s of sockets) s.close();
    if (proc && proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
    }
    await db?.close();
    await shared?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('sockets through nginx survive an instance stopping: reconnect elsewhere, no missed event', async () => {
    const lb = state.url;
    assert.equal(state.instances.length, 2);
    const { user } = await organisationIn(db, lb);
    const admin = await user('ADMINISTRATOR', []);
    const api = new Api(lb, admin.token);
    const team = await api.post('/api/teams', {
      name: 'Support',
      description: 'support',
      distributionMethod: 'manual',
    });
    assert.equal(team.status, 200, JSON.stringify(team.body));
    const operator = await user('OPERATOR', [team.body.entity.id]);
    const channel = await api.post('/api/channels', {
      type: 'api',
      name: 'API',
      teamId: team.body.entity.id,
      webhookUrl: 'http://127.0.0.1:9/hook',
    });
    assert.equal(channel.status, 200, JSON.stringify(channel.body));
    let n = 0;
    const send = (text: string) =>
      new Api(lb).call(
        'POST',
        `/api/channels/${channel.body.entity.id}/inbound`,
        { externalMessageId: `ext-${n++}`, client: { externalId: `c-${n}`, name: 'Client' }, text },
        { authorization: `Bearer ${channel.body.entity.inboundKey}` },
      );

    // Four tabs through nginx: round robin puts two on each instance.
    for (let i = 0; i < 4; i++) sockets.push(await RealtimeClient.connect(lb, operator.token));
    const has = (c: RealtimeClient, text: string) =>
      c.frames.some((f) => f.type === 'message.created' && JSON.stringify(f.payload).includes(text));
    assert.equal((await send('before the restart')).status, 200);
    for (const c of sockets) await c.waitFor(() => has(c, 'before the restart'), 10_000);

    // Instance 1 is stopped as a rolling restart does.
    const first = state.instances[0];
    process.kill(first.pid, 'SIGTERM');
    await until(
      async () => sockets.some((c) => c.closeCode !== undefined),
      'the sockets of the stopped instance to be closed',
    );
    await until(
      async () => {
        try {
          process.kill(first.pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      'instance 1 to exit',
      20_000,
    );
    const moved = sockets.filter((c) => c.closeCode !== undefined);
    assert.ok(moved.length >= 1 && moved.length < 4, `some sockets were on instance 1 (${moved.length})`);
    for (const c of moved) assert.equal(c.closeCode, REALTIME_CLOSE.serviceRestart);

    // Published while those tabs are away; then nginx sends every request to the instance left.
    for (const text of ['while away 1', 'while away 2', 'while away 3'])
      assert.equal((await send(text)).status, 200, text);
    const back = await Promise.all(moved.map((c) => RealtimeClient.connect(lb, operator.token, c.lastId)));
    sockets.push(...back);
    const everyone = [...sockets.filter((c) => c.closeCode === undefined)];
    assert.equal(everyone.length, 4);
    for (const c of everyone)
      for (const text of ['while away 1', 'while away 2', 'while away 3'])
        await c.waitFor(() => has(c, text), 10_000);
    // Resumed, not refetched: the new sockets said hello with a replay.
    for (const c of back)
      assert.ok(!c.frames.some((f) => f.type === 'resync'), 'resumed from the last event');
    const stored = await db.query<{ n: number }>(
      "select count(*)::int as n from messages where direction = 'in'",
    );
    assert.equal(stored[0].n, 4, 'every acknowledged message stored once');
    assert.equal((await new Api(lb).get('/api/ready')).status, 200);
  });

  test('SIGHUP restarts every instance, one at a time, each ready again on its port', async () => {
    // Instance 1 is down since the test above; the rolling restart starts it again too.
    const before = state.instances;
    const start = output.length;
    proc.kill('SIGHUP');
    await until(
      async () => output.slice(start).join('').includes('rolling restart: done'),
      `the rolling restart: ${output.slice(start).join('')}`,
      60_000,
    );
    const now: ClusterState = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8'));
    assert.deepEqual(
      now.instances.map((i) => i.port),
      before.map((i) => i.port),
    );
    for (const [k, i] of now.instances.entries()) {
      assert.notEqual(i.pid, before[k].pid, `${i.name} has a new process`);
      assert.equal((await new Api(`http://127.0.0.1:${i.port}`).get('/api/ready')).status, 200);
    }
    assert.equal((await new Api(state.url).get('/api/ready')).status, 200);
  });
});
