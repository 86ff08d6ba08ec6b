/**
 * Ingest benchmark (`npm run bench:ingest`): drives `POST /api/channels/{id}/inbound` with N concurrent
 * clients against an in-process server, with an operator websocket connected, on PGlite and (when
 * reachable) PostgreSQL; measures messages/s committed and delivered, end-to-end latency (request start
 * -> event on the operator's socket) at full and at half load, a new chat per message (closed loop and half load),
 * every message through the conversation pipeline, Telegram webhook updates, and the baseline single-row
 * INSERT+COMMIT rate on the same database from the same process.
 *
 * Env: BENCH_SECONDS (default 10), BENCH_CONCURRENCY (100), BENCH_TARGETS (pglite,postgres), BENCH_POOL (10),
 * BENCH_TRACE=1 (statement counts and times), BENCH_EXPLAIN=<ms> (auto_explain plans of slower statements
 * into the PostgreSQL server log),
 * DATABASE_URL (admin connection of the PostgreSQL server; default postgres://postgres@127.0.0.1:5432/test).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer as createHttpServer, request } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import pg from 'pg';
import { WebSocket } from 'ws';
import { loadConfig } from '../server/src/config.ts';
import {
  type Db,
  openPglite,
  openPostgres,
  type Queryable,
  type Statement,
  sqlText,
} from '../server/src/db/index.ts';
import { hashPassword } from '../server/src/lib/password.ts';
import { insertOrganisation } from '../server/src/modules/organisations/queries.ts';
import { setUserTeams } from '../server/src/modules/teams/members.ts';
import { insertUser } from '../server/src/modules/users/queries.ts';
import { withEvents } from '../server/src/realtime/emit.ts';
import { realtimeGateway } from '../server/src/realtime/routes.ts';
import { createServer } from '../server/src/server.ts';
import { startFakeTelegram } from '../server/test/fakes/telegram.ts';
import { startFakeViber } from '../server/test/fakes/viber.ts';
import { startFakeVk } from '../server/test/fakes/vk.ts';
import { startFakeWhatsApp } from '../server/test/fakes/whatsapp.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 100);
const TARGETS = (process.env.BENCH_TARGETS ?? 'pglite,postgres').split(',');
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Connections in the server's PostgreSQL pool (the server's default is 10). */
const POOL = Number(process.env.BENCH_POOL ?? 10);

type Http = { status: number; body: string };
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY + 10 });

function http(base: string, method: string, path: string, body?: unknown, token?: string): Promise<Http> {
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function json(base: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await http(base, method, path, body, token);
  if (res.status !== 200) throw new Error(`${method} ${path} -> ${res.status} ${res.body}`);
  return JSON.parse(res.body) as { entity: Record<string, unknown> };
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;

type Phase = {
  label: string;
  seconds: number;
  sent: number;
  committed: number;
  failed: number;
  delivered: number;
  p50: number;
  p99: number;
  max: number;
};

type Result = {
  target: string;
  full: Phase;
  half: Phase;
  baseline: number;
  notes: string[];
};

/** Whole-machine CPU jiffies from /proc/stat (Linux): how saturated the two cores were during a phase. */
function machineCpu(): { idle: number; total: number } | undefined {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: f[3] + (f[4] ?? 0), total: f.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/** BENCH_TRACE=1: counts statements and their time by SQL text, printed at the end (where the time goes). */
const trace = new Map<string, { n: number; ms: number }>();
let transactions = 0;
function traced(db: Db): Db {
  const wrap = (q: Queryable): Queryable => ({
    async query<T>(sql: string | Statement, params?: unknown[]) {
      const t0 = performance.now();
      try {
        return await q.query<T>(sql, params);
      } finally {
        const key = sqlText(sql).replace(/\s+/g, ' ').trim().slice(0, 90);
        const e = trace.get(key) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += performance.now() - t0;
        trace.set(key, e);
      }
    },
    exec: (sql) => q.exec(sql),
  });
  return {
    ...db,
    ...wrap(db),
    tx: (fn, options) => {
      transactions++;
      return db.tx((q) => fn(wrap(q)), options);
    },
  };
}

function printTrace(): void {
  if (!trace.size) return;
  console.log(`\nStatements (BENCH_TRACE), ${transactions} transactions:`);
  const rows = [...trace.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30);
  for (const [sql, e] of rows)
    console.log(`${String(e.n).padStart(7)} ${e.ms.toFixed(0).padStart(7)} ms  ${sql}`);
}

/** BENCH_TRACE=1: one phase's statements per message committed (the trace counts from the phase's start). */
function printPhaseTrace(
  label: string,
  messages: number,
  since: Map<string, { n: number; ms: number }>,
): void {
  const rows = [...trace.entries()]
    .map(([sql, e]) => {
      const before = since.get(sql) ?? { n: 0, ms: 0 };
      return { sql, n: e.n - before.n, ms: e.ms - before.ms };
    })
    .filter((e) => e.n > 0)
    .sort((a, b) => b.n - a.n);
  const total = rows.reduce((sum, e) => sum + e.n, 0);
  console.log(`    statements in "${label}": ${(total / Math.max(messages, 1)).toFixed(2)} per message`);
  for (const e of rows.slice(0, 14))
    console.log(
      `    ${(e.n / Math.max(messages, 1)).toFixed(3).padStart(7)}/msg ${(e.ms / e.n).toFixed(2).padStart(6)} ms  ${e.sql}`,
    );
}

/** One database: a server in-process, one organisation, one operator socket, then the load phases. */
async function runTarget(target: string): Promise<Result | undefined> {
  let db: Db;
  let drop = async (): Promise<void> => undefined;
  const notes: string[] = [];
  if (target === 'postgres') {
    const name = `sc_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    try {
      await admin.connect();
    } catch (err) {
      console.log(`PostgreSQL not reachable at ${ADMIN_URL} (${(err as Error).message}); skipped.`);
      return undefined;
    }
    await admin.query(`create database ${name}`);
    if (process.env.BENCH_EXPLAIN) {
      // Plans of statements slower than BENCH_EXPLAIN ms go to the PostgreSQL server log (auto_explain).
      await admin.query(`alter database ${name} set session_preload_libraries = 'auto_explain'`);
      await admin.query(
        `alter database ${name} set auto_explain.log_min_duration = ${Number(process.env.BENCH_EXPLAIN)}`,
      );
      await admin.query(`alter database ${name} set auto_explain.log_analyze = on`);
      await admin.query(`alter database ${name} set auto_explain.log_buffers = on`);
      await admin.query(`alter database ${name} set auto_explain.log_nested_statements = on`);
    }
    const settings = await admin.query<{ name: string; setting: string }>(
      "select name, setting from pg_settings where name in ('fsync','synchronous_commit','shared_buffers','max_connections','server_version')",
    );
    notes.push(settings.rows.map((r) => `${r.name}=${r.setting}`).join(' '));
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    db = await openPostgres(url.toString(), POOL);
    drop = async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    db = await openPglite(); // in memory, as the test suite uses it
    notes.push('PGlite in memory, one connection');
  }

  if (process.env.BENCH_TRACE) db = traced(db);
  const dataDir = mkdtempSync(join(tmpdir(), 'sc-bench-'));
  const tg = await startFakeTelegram();
  const wa = await startFakeWhatsApp();
  const vb = await startFakeViber();
  const vk = await startFakeVk();
  const config = loadConfig({
    VIBER_API_BASE_URL: vb.baseUrl,
    VK_API_BASE_URL: vk.baseUrl,
    TELEGRAM_API_BASE_URL: tg.baseUrl,
    WHATSAPP_API_BASE_URL: wa.baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    SEED_DEMO: 'false',
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    // The channel's webhook URL names a port on this machine.
    OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
    // Tracing on (spans exported to that OTLP/HTTP collector) when set: what the instrumentation costs.
    OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '',
  });
  const server = await createServer(config, { db });
  await server.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = server.fastify.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  try {
    // An organisation, an administrator, a team with manual distribution (chats wait in its queue, so
    // every message reaches the team's operator), an API channel and the operator's socket.
    const login = `bench-${randomBytes(3).toString('hex')}`;
    const org = await db.tx((q) =>
      insertOrganisation(q, {
        login,
        name: login,
        adminEmail: `admin@${login}.test`,
        options: [...PLAN_OPTIONS],
      }),
    );
    const hash = await hashPassword('Passw0rd!');
    const addUserTo = async (
      o: typeof org,
      domain: string,
      role: 'ADMINISTRATOR' | 'OPERATOR',
      teams: string[],
    ) => {
      const email = `${role.toLowerCase()}@${domain}.test`;
      await db.tx(async (q) => {
        const id = await insertUser(q, {
          organisationId: o.id,
          roleId: o.roles[role],
          name: role,
          email,
          phone: null,
          passwordHash: hash,
          breakTimeoutMinutes: null,
          language: 'eng',
          active: true,
        });
        await setUserTeams(q, o.id, id, teams);
      });
      const res = await json(base, 'POST', '/api/auth/login', { email, password: 'Passw0rd!' });
      return String(res.entity.token);
    };
    const addUser = (role: 'ADMINISTRATOR' | 'OPERATOR', teams: string[]) =>
      addUserTo(org, login, role, teams);
    const adminToken = await addUser('ADMINISTRATOR', []);
    const team = await json(
      base,
      'POST',
      '/api/teams',
      { name: 'Bench', description: 'bench', distributionMethod: 'manual', dialogLimit: 999 },
      adminToken,
    );
    const teamId = String(team.entity.id);
    const operatorToken = await addUser('OPERATOR', [teamId]);
    const channel = await json(
      base,
      'POST',
      '/api/channels',
      { type: 'api', name: 'Bench API', teamId, webhookUrl: 'http://127.0.0.1:9/hook' },
      adminToken,
    );
    const channelId = String(channel.entity.id);
    const inboundKey = String(channel.entity.inboundKey);

    // The operator's socket: the time each bench message's event arrives.
    const received = new Map<number, number>();
    const marker = /bench:(\d+):/;
    const connect = async (token: string) => {
      const socket = new WebSocket(`${base.replace('http', 'ws')}/api/realtime?token=${token}`);
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.on('message', (data) => {
        const now = performance.now();
        const text = data.toString();
        if (!text.includes('"message.created"')) return;
        const m = marker.exec(text);
        if (m && !received.has(Number(m[1]))) received.set(Number(m[1]), now);
      });
      return socket;
    };
    const ws = await connect(operatorToken);

    let seq = 0;
    const started = new Map<number, number>();
    // A Telegram channel (the fake Bot API of server/test/fakes/telegram.ts): its webhook takes real updates.
    const telegram = await json(
      base,
      'POST',
      '/api/channels',
      { type: 'telegram', name: 'Bench bot', teamId, token: tg.token, updatesVia: 'webhook' },
      adminToken,
    );
    const telegramId = String(telegram.entity.id);
    const secret = tg.webhook?.secretToken ?? '';
    const sendTelegram = async (client: number): Promise<boolean> => {
      const n = seq++;
      started.set(n, performance.now());
      const update = tg.updates.text(
        { id: 500_000 + client, first_name: `Tg ${client}` },
        `bench:${n}: hello`,
      );
      const res = await new Promise<number>((resolve, reject) => {
        const data = Buffer.from(JSON.stringify(update));
        const req = request(
          `${base}/api/webhooks/telegram/${telegramId}`,
          {
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              'content-length': data.length,
              'x-telegram-bot-api-secret-token': secret,
            },
          },
          (r) => {
            r.resume();
            r.on('end', () => resolve(r.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(data);
      });
      return res === 200;
    };
    // A WhatsApp channel (the fake Cloud API of server/test/fakes/whatsapp.ts): signed webhooks of real shape.
    const whatsapp = await json(
      base,
      'POST',
      '/api/channels',
      {
        type: 'whatsapp',
        name: 'Bench WhatsApp',
        teamId,
        phoneNumberId: wa.phoneNumberId,
        wabaId: wa.wabaId,
        accessToken: wa.accessToken,
        appSecret: wa.appSecret,
        verifyToken: 'bench-verify-token',
      },
      adminToken,
    );
    const whatsappHook = `${base}/api/webhooks/whatsapp/${String(whatsapp.entity.id)}`;
    const sendWhatsApp = async (client: number): Promise<boolean> => {
      const n = seq++;
      started.set(n, performance.now());
      const from = String(79_000_000_000 + client);
      const payload = wa.payload({
        contacts: [{ profile: { name: `Wa ${client}` }, wa_id: from }],
        messages: [wa.message(from, 'text', { text: { body: `bench:${n}: hello` } })],
      });
      const data = Buffer.from(JSON.stringify(payload));
      const signature = `sha256=${createHmac('sha256', wa.appSecret).update(data).digest('hex')}`;
      const res = await new Promise<number>((resolve, reject) => {
        const req = request(
          whatsappHook,
          {
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              'content-length': data.length,
              'x-hub-signature-256': signature,
            },
          },
          (r) => {
            r.resume();
            r.on('end', () => resolve(r.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(data);
      });
      return res === 200;
    };
    // A Viber bot (the fake REST Bot API of server/test/fakes/viber.ts): signed callbacks, message tokens past 2^53.
    vb.reach = (url) => url.replace(config.publicUrl, base);
    const viber = await json(
      base,
      'POST',
      '/api/channels',
      { type: 'viber_bot', name: 'Bench Viber', teamId, token: vb.token },
      adminToken,
    );
    const viberHook = `${base}/api/webhooks/viber_bot/${String(viber.entity.id)}`;
    const sendViber = async (client: number): Promise<boolean> => {
      const n = seq++;
      started.set(n, performance.now());
      const event = vb.message(
        { id: `vb-${client}=`, name: `Vb ${client}` },
        { type: 'text', text: `bench:${n}: hello` },
      );
      // As Viber writes it: message_token a bare number; signed with the token.
      const data = Buffer.from(JSON.stringify(event).replace(/("message_token":)"(\d+)"/g, '$1$2'));
      const signature = createHmac('sha256', vb.token).update(data).digest('hex');
      const res = await new Promise<number>((resolve, reject) => {
        const req = request(
          viberHook,
          {
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              'content-length': data.length,
              'x-viber-content-signature': signature,
            },
          },
          (r) => {
            r.resume();
            r.on('end', () => resolve(r.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(data);
      });
      return res === 200;
    };
    // A VK community (the fake VK API of server/test/fakes/vk.ts): Callback API events with group_id and secret.
    const vkChannel = await json(
      base,
      'POST',
      '/api/channels',
      {
        type: 'vk_bot',
        name: 'Bench VK',
        teamId,
        groupId: String(vk.groupId),
        token: vk.token,
        secret: vk.secret,
        confirmation: vk.confirmation,
      },
      adminToken,
    );
    const vkHook = `${base}/api/webhooks/vk_bot/${String(vkChannel.entity.id)}`;
    const sendVk = async (client: number): Promise<boolean> => {
      const n = seq++;
      started.set(n, performance.now());
      const event = {
        group_id: vk.groupId,
        event_id: `bench${n}`,
        v: '5.199',
        secret: vk.secret,
        ...vk.messageNew(1000 + client, { text: `bench:${n}: hello` }),
      };
      const data = Buffer.from(JSON.stringify(event));
      const res = await new Promise<number>((resolve, reject) => {
        const req = request(
          vkHook,
          {
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': data.length },
          },
          (r) => {
            r.resume();
            r.on('end', () => resolve(r.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(data);
      });
      return res === 200;
    };
    const sendTo =
      (channelId: string, inboundKey: string) =>
      async (client: number): Promise<boolean> => {
        const n = seq++;
        const t0 = performance.now();
        started.set(n, t0);
        const res = await http(
          base,
          'POST',
          `/api/channels/${channelId}/inbound`,
          {
            externalMessageId: `m-${n}`,
            client: { externalId: `client-${client}`, name: `Client ${client}` },
            text: `bench:${n}: hello`,
          },
          inboundKey,
        );
        return res.status === 200;
      };
    const send = sendTo(channelId, inboundKey);

    const measure = async (
      label: string,
      seconds: number,
      drive: (until: number) => Promise<[number, number]>,
    ) => {
      const from = seq;
      const traceAtStart = new Map([...trace].map(([sql, e]) => [sql, { ...e }]));
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const sys0 = machineCpu();
      const [ok, failed] = await drive(t0 + seconds * 1000);
      const elapsed = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const sys1 = machineCpu();
      const busy = sys0 && sys1 ? 1 - (sys1.idle - sys0.idle) / (sys1.total - sys0.total) : Number.NaN;
      const nodeMsPerMsg = (cpu.user + cpu.system) / 1000 / Math.max(ok, 1);
      // Let the last events arrive.
      const to = seq;
      const waitUntil = performance.now() + 3000;
      while (performance.now() < waitUntil) {
        let done = true;
        for (let n = from; n < to; n++) if (!received.has(n)) done = false;
        if (done) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const lat: number[] = [];
      let delivered = 0;
      for (let n = from; n < to; n++) {
        const r = received.get(n);
        if (r === undefined) continue;
        delivered++;
        lat.push(r - (started.get(n) ?? r));
      }
      lat.sort((a, b) => a - b);
      const phase: Phase = {
        label,
        seconds: elapsed,
        sent: to - from,
        committed: ok,
        failed,
        delivered,
        p50: pct(lat, 50),
        p99: pct(lat, 99),
        max: lat[lat.length - 1] ?? Number.NaN,
      };
      console.log(
        `  ${target} ${label}: ${(ok / elapsed).toFixed(0)} msg/s committed, ${(delivered / elapsed).toFixed(0)} delivered, ` +
          `p50 ${phase.p50.toFixed(1)} ms, p99 ${phase.p99.toFixed(1)} ms, max ${phase.max.toFixed(1)} ms, failed ${failed}; ` +
          `this process ${nodeMsPerMsg.toFixed(2)} CPU-ms/msg, machine ${(busy * 100).toFixed(0)}% busy`,
      );
      if (trace.size) printPhaseTrace(label, ok, traceAtStart);
      return phase;
    };

    // Closed loop: CONCURRENCY clients, each sending its next message when the previous is answered.
    const closedLoopOf =
      (post: (client: number) => Promise<boolean>) =>
      async (until: number): Promise<[number, number]> => {
        let ok = 0;
        let failed = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async (_, client) => {
            while (performance.now() < until) {
              if (await post(client).catch(() => false)) ok++;
              else failed++;
            }
          }),
        );
        return [ok, failed];
      };
    const closedLoop = closedLoopOf(send);
    // Open loop at a fixed rate, spread over the clients: latency without queueing behind our own load.
    const openLoop =
      (rate: number, pick: (i: number) => number = (i) => i % CONCURRENCY) =>
      async (until: number): Promise<[number, number]> => {
        let ok = 0;
        let failed = 0;
        const inflight: Promise<void>[] = [];
        const t0 = performance.now();
        let i = 0;
        while (performance.now() < until) {
          const due = t0 + (i * 1000) / rate;
          const wait = due - performance.now();
          if (wait > 1) await new Promise((r) => setTimeout(r, wait));
          const client = pick(i);
          i++;
          inflight.push(
            send(client).then(
              (good) => {
                if (good) ok++;
                else failed++;
              },
              () => {
                failed++;
              },
            ),
          );
        }
        await Promise.all(inflight);
        return [ok, failed];
      };

    // Each client's first message opens its chat; they are sent one at a time so that the load phases
    // measure the steady state (messages into open chats), not 50 chats opening in the same millisecond.
    for (let client = 0; client < CONCURRENCY; client++) {
      if (!(await send(client))) throw new Error('the first inbound message failed');
    }
    await measure('warm-up', Math.min(3, SECONDS), closedLoop);
    const full = await measure(`max (${CONCURRENCY} clients)`, SECONDS, closedLoop);
    const halfRate = Math.max(1, Math.round(full.committed / full.seconds / 2));
    const half = await measure(`half load (${halfRate} msg/s open loop)`, SECONDS, openLoop(halfRate));
    // Every message from a new client: each opens a chat in the same team queue (routing, history, timers).
    let fresh = 1_000_000;
    const newChats = async (until: number): Promise<[number, number]> => {
      let ok = 0;
      let failed = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (performance.now() < until) {
            if (await send(fresh++).catch(() => false)) ok++;
            else failed++;
          }
        }),
      );
      return [ok, failed];
    };
    const opening = await measure(
      `new chat per message (${CONCURRENCY} clients)`,
      Math.min(5, SECONDS),
      newChats,
    );
    const openingRate = Math.max(1, Math.round(opening.committed / opening.seconds / 2));
    const openingHalf = await measure(
      `new chat per message, half load (${openingRate} msg/s open loop)`,
      Math.min(5, SECONDS),
      openLoop(openingRate, () => fresh++),
    );
    notes.push(
      `new chat per message: ${(opening.committed / opening.seconds).toFixed(0)} msg/s, p99 ${opening.p99.toFixed(0)} ms, failed ${opening.failed}; ` +
        `at half load (${openingRate}/s) p50 ${openingHalf.p50.toFixed(1)} ms, p99 ${openingHalf.p99.toFixed(1)} ms`,
    );
    // Every message of the open chats through the conversation pipeline, as when a bot or a rule is active.
    await db.query('update organisations set inbound_automation = true where id = $1', [org.id]);
    const piped = await measure(
      `every message through the pipeline (${CONCURRENCY} clients)`,
      SECONDS,
      closedLoop,
    );
    // The answer does not wait for a job of an open chat: the phase lasts until every job is done, and its rate
    // counts that time (messages whose stages ran, per second).
    const jobsLeft = async () =>
      (await db.query<{ n: number }>('select count(*)::int as n from pipeline_jobs'))[0]?.n ?? 0;
    const drainStart = performance.now();
    const leftAtEnd = await jobsLeft();
    while ((await jobsLeft()) > 0 && performance.now() - drainStart < 60_000)
      await new Promise((r) => setTimeout(r, 5));
    const drainSeconds = (performance.now() - drainStart) / 1000;
    await db.query('update organisations set inbound_automation = false where id = $1', [org.id]);
    const hot = full.committed / full.seconds;
    const pipedRate = piped.committed / (piped.seconds + drainSeconds);
    notes.push(
      `every message through the pipeline: ${pipedRate.toFixed(0)} msg/s with its stages run (${((pipedRate / hot) * 100).toFixed(0)}% of the hot path's ${hot.toFixed(0)}; ${leftAtEnd} jobs were left when the load stopped, done ${(drainSeconds * 1000).toFixed(0)} ms later), answers p50 ${piped.p50.toFixed(1)} ms, p99 ${piped.p99.toFixed(1)} ms, jobs left ${await jobsLeft()}`,
    );
    // The same, in a second organisation whose pipeline has work to do (issue 13): ten enabled routing rules and all
    // four automatic replies of its channel on, set up through the HTTP API as an administrator would.
    // The hot path again right before it (the first organisation, automation off): on a machine whose other load
    // moves within a minute, the ratio to a rate measured next to it says more than the ratio to the max phase.
    const hotAgain = await measure(
      `max again, before the rules phase (${CONCURRENCY} clients)`,
      SECONDS,
      closedLoop,
    );
    const rulesPhase = await (async () => {
      const login2 = `${login}-rules`;
      const org2 = await db.tx((q) =>
        insertOrganisation(q, {
          login: login2,
          name: login2,
          adminEmail: `admin@${login2}.test`,
          options: [...PLAN_OPTIONS],
        }),
      );
      const admin2 = await addUserTo(org2, login2, 'ADMINISTRATOR', []);
      const newTeam = async (name: string) =>
        String(
          (
            await json(
              base,
              'POST',
              '/api/teams',
              { name, description: 'bench', distributionMethod: 'manual', dialogLimit: 999 },
              admin2,
            )
          ).entity.id,
        );
      const inboxTeam = await newTeam('Inbox');
      const routedTeam = await newTeam('Routed');
      const otherTeam = await newTeam('Other');
      // The operator is a member of the channel's team and of the routed team, and In work: the routing rule's team
      // has room, and the 'online' reply applies.
      const operator2 = await addUserTo(org2, login2, 'OPERATOR', [inboxTeam, routedTeam]);
      await json(base, 'PATCH', '/api/presence', { status: 'online' }, operator2);
      // The channel's webhook answers 200 (the automatic replies are delivered, as to a live integration; a dead URL
      // would leave the outbox retrying them through the phase).
      const hook = createHttpServer((req, res) => {
        req.resume();
        req.on('end', () => res.end('{}'));
      });
      await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
      const hookAddress = hook.address();
      const webhookUrl = `http://127.0.0.1:${typeof hookAddress === 'object' && hookAddress ? hookAddress.port : 9}/hook`;
      const newChannel = async (name: string) =>
        (
          await json(
            base,
            'POST',
            '/api/channels',
            { type: 'api', name, teamId: inboxTeam, webhookUrl },
            admin2,
          )
        ).entity;
      const ch = await newChannel('Bench rules API');
      const other = await newChannel('Bench other API');
      const ch2 = String(ch.id);
      const other2 = String(other.id);
      // Nine rules that do not hold for a new client's message on this channel, in front of the one that routes (to
      // the 'Routed' team): a chat's first message is tried against all ten. The 'mailing' rule makes every later
      // message of a chat pass the rules stage too (a client's first reply to our mailing may need routing).
      const toOther = { type: 'team', teamId: otherTeam };
      const rules: { name: string; conditions: Record<string, unknown>; action: Record<string, unknown> }[] =
        [
          { name: 'Repeated clients', conditions: { clients: 'repeated' }, action: toOther },
          { name: 'Other channel', conditions: { channelIds: [other2] }, action: toOther },
          { name: 'Mailing replies', conditions: { messageType: 'mailing' }, action: toOther },
          { name: 'Advertising', conditions: { marketingType: 'advertising' }, action: toOther },
          { name: 'Service mailings', conditions: { marketingType: 'service' }, action: toOther },
          { name: 'Asked for help', conditions: { intentsInclude: ['HELP'] }, action: toOther },
          {
            name: 'Repeated, escalated',
            conditions: { clients: 'repeated', intentsInclude: ['ESCALATE_TO_AGENT'] },
            action: { type: 'last_operator' },
          },
          {
            name: 'New on the other channel',
            conditions: { clients: 'new', channelIds: [other2] },
            action: { type: 'personal_manager' },
          },
          {
            name: 'Mailing, new clients',
            conditions: { clients: 'new', messageType: 'mailing', intentsExclude: ['GOODBYE'] },
            action: toOther,
          },
          {
            name: 'New clients of the bench channel',
            conditions: { clients: 'new', channelIds: [ch2], intentsExclude: ['GOODBYE'] },
            action: { type: 'team', teamId: routedTeam },
          },
        ];
      for (const rule of rules)
        await json(base, 'POST', '/api/routing-rules', { ...rule, enabled: true }, admin2);
      await json(
        base,
        'PUT',
        `/api/channels/${ch2}/auto-replies`,
        {
          online: { enabled: true, text: 'An operator will answer you shortly.' },
          offline: { enabled: true, text: 'We are offline now; we will answer in the morning.' },
          rating: { enabled: true, text: 'Please rate this dialog.' },
          holding: { enabled: true, text: 'Thank you for waiting, we are nearly there.', waitMinutes: 1 },
        },
        admin2,
      );
      const ws2 = await connect(operator2);
      const send2 = sendTo(ch2, String(ch.inboundKey));
      // Each client's first message opens its chat: its job (rules, auto-replies, queue) runs before the answer.
      const p0 = performance.now();
      for (let client = 0; client < CONCURRENCY; client++) {
        if (!(await send2(client))) throw new Error('the first inbound message (rules) failed');
      }
      const primeMs = (performance.now() - p0) / CONCURRENCY;
      const phase = await measure(
        `every message through the pipeline, 10 rules and 4 auto-replies on (${CONCURRENCY} clients)`,
        SECONDS,
        closedLoopOf(send2),
      );
      const d0 = performance.now();
      const left = await jobsLeft();
      while ((await jobsLeft()) > 0 && performance.now() - d0 < 60_000)
        await new Promise((r) => setTimeout(r, 5));
      const drain = (performance.now() - d0) / 1000;
      ws2.close();
      hook.close();
      // What the stages did: chats routed by the rule, automatic replies written, holding timers armed.
      const count = async (sql: string) => (await db.query<{ n: number }>(sql, [org2.id]))[0]?.n ?? 0;
      const routed = await count(
        "select count(*)::int as n from chat_history where organisation_id = $1 and kind = 'rule'",
      );
      const inRouted = await count(
        `select count(*)::int as n from chats where organisation_id = $1 and team_id = '${routedTeam}'`,
      );
      const replies = await count(
        "select count(*)::int as n from messages where organisation_id = $1 and direction = 'out' and author_id is null",
      );
      const delivered = await count(
        "select count(*)::int as n from messages where organisation_id = $1 and direction = 'out' and author_id is null and status <> 'pending'",
      );
      const timers = await count(
        "select count(*)::int as n from timers where organisation_id = $1 and kind = 'auto_reply_holding'",
      );
      return { phase, drain, left, primeMs, routed, inRouted, replies, delivered, timers };
    })();
    const rulesRate = rulesPhase.phase.committed / (rulesPhase.phase.seconds + rulesPhase.drain);
    notes.push(
      `with 10 routing rules and 4 auto-replies on: ${rulesRate.toFixed(0)} msg/s with its stages run (${((rulesRate / hot) * 100).toFixed(0)}% of the hot path, ${((rulesRate / (hotAgain.committed / hotAgain.seconds)) * 100).toFixed(0)}% of the hot path's ${(hotAgain.committed / hotAgain.seconds).toFixed(0)} measured just before it, ${((rulesRate / pipedRate) * 100).toFixed(0)}% of the plain pipeline; ${rulesPhase.left} jobs left when the load stopped, done ${(rulesPhase.drain * 1000).toFixed(0)} ms later), answers p50 ${rulesPhase.phase.p50.toFixed(1)} ms, p99 ${rulesPhase.phase.p99.toFixed(1)} ms, failed ${rulesPhase.phase.failed}; ` +
        `first messages ${rulesPhase.primeMs.toFixed(1)} ms each, ${rulesPhase.routed} chats routed by a rule (${rulesPhase.inRouted} in its team), ${rulesPhase.replies} automatic replies written (${rulesPhase.delivered} delivered to the webhook), ${rulesPhase.timers} holding timers armed`,
    );
    // Provider webhooks, one phase each: every client's first update opens its chat, then a closed loop through the
    // provider's route (Telegram: secret header; WhatsApp: HMAC of the raw body; Viber: signature, tokens as strings;
    // VK: secret and group id, answered `ok`), parse and ingest.
    const webhooks: [string, string, (client: number) => Promise<boolean>][] = [
      ['Telegram webhook updates', 'Telegram webhook', sendTelegram],
      ['WhatsApp webhook updates', 'WhatsApp webhook', sendWhatsApp],
      ['Viber bot callbacks', 'Viber webhook', sendViber],
      ['VK community callbacks', 'VK Callback API', sendVk],
    ];
    for (const [phaseName, label, send] of webhooks) {
      for (let client = 0; client < CONCURRENCY; client++) {
        if (!(await send(client))) throw new Error(`the first ${label} update failed`);
      }
      const phase = await measure(`${phaseName} (${CONCURRENCY} users)`, SECONDS, closedLoopOf(send));
      notes.push(
        `${label}: ${(phase.committed / phase.seconds).toFixed(0)} updates/s, p50 ${phase.p50.toFixed(1)} ms, p99 ${phase.p99.toFixed(1)} ms, failed ${phase.failed}`,
      );
    }
    // The realtime path alone (what bench/ measures beyond the domain's ingest SQL): one event per
    // transaction through withEvents -> bus -> gateway -> the operator's socket, same concurrency.
    const eventsOnly = async (until: number): Promise<[number, number]> => {
      let ok = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (performance.now() < until) {
            // Yield to I/O as a request arriving from the network would; on PGlite a chain of
            // transactions is otherwise all microtasks and starves the socket this process reads.
            await new Promise((r) => setImmediate(r));
            const n = seq++;
            started.set(n, performance.now());
            await withEvents(server.app, (_q, emit) =>
              emit(org.id, 'message.created', { text: `bench:${n}: event` }, { teamIds: [teamId] }),
            );
            ok++;
          }
        }),
      );
      return [ok, 0];
    };
    const events = await measure(
      'realtime path only (withEvents -> socket)',
      Math.min(5, SECONDS),
      eventsOnly,
    );
    notes.push(
      `realtime path only: ${(events.committed / events.seconds).toFixed(0)} events/s committed, ${(events.delivered / events.seconds).toFixed(0)} delivered, p50 ${events.p50.toFixed(1)} ms, p99 ${events.p99.toFixed(1)} ms`,
    );
    const gateway = realtimeGateway(server.app);
    if (gateway) notes.push(`gateway frames sent ${gateway.delivered}`);
    ws.close();

    // Baseline: single-row INSERT+COMMIT, one transaction each, same concurrency, same Db object.
    await db.exec(
      'create table bench_baseline (id bigserial primary key, body text not null, at timestamptz default now())',
    );
    let inserts = 0;
    const bt0 = performance.now();
    const until = bt0 + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) {
          await db.tx((q) => q.query('insert into bench_baseline (body) values ($1)', ['x'.repeat(40)]));
          inserts++;
        }
      }),
    );
    const baseline = inserts / ((performance.now() - bt0) / 1000);
    console.log(`  ${target} baseline: ${baseline.toFixed(0)} single-row INSERT+COMMIT/s`);
    return { target, full, half, baseline, notes };
  } finally {
    await server.close();
    await tg.close();
    await wa.close();
    await vb.close();
    await vk.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: Result[] = [];
console.log(
  `Ingest benchmark: ${SECONDS}s per phase, ${CONCURRENCY} clients; ${cpus().length} cores (${cpus()[0]?.model}), ` +
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}`,
);
for (const target of TARGETS) {
  console.log(`\n${target}:`);
  const r = await runTarget(target);
  if (r) results.push(r);
}
agent.destroy();

console.log(
  '\n| database | committed msg/s | delivered msg/s | p50 / p99 at max (ms) | half-load rate | p50 / p99 at half (ms) | baseline INSERT+COMMIT/s | ratio |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const rate = r.full.committed / r.full.seconds;
  console.log(
    `| ${r.target} | ${rate.toFixed(0)} | ${(r.full.delivered / r.full.seconds).toFixed(0)} | ${r.full.p50.toFixed(1)} / ${r.full.p99.toFixed(1)} | ` +
      `${(r.half.committed / r.half.seconds).toFixed(0)} | ${r.half.p50.toFixed(1)} / ${r.half.p99.toFixed(1)} | ${r.baseline.toFixed(0)} | ${(rate / r.baseline).toFixed(2)} |`,
  );
}
for (const r of results) for (const n of r.notes) console.log(`${r.target}: ${n}`);
printTrace();
process.exit(0);
