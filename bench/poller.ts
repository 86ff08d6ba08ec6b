/**
 * The poller path (issue 35): BENCH_CHANNELS (50) Telegram channels whose updates come by getUpdates long polling,
 * each a bot of its own fake Bot API (server/test/fakes/telegram.ts, behind one address that routes by token), on
 * PostgreSQL, with the job runner's channel polls as in production. An open loop puts BENCH_RATE (500) updates a
 * second, spread over the bots and BENCH_USERS (10) clients each, into the bots' queues for BENCH_SECONDS (10).
 * Measured: from the fake's getUpdates answer carrying an update (and from the moment it was queued) to the
 * message.created frame on the operator's socket. Baseline in the same run: the same load posted to as many other
 * Telegram channels' webhooks (secret header, as Telegram does), from the POST to the frame.
 *
 * Env: DATABASE_URL (the server to make a fresh database on), BENCH_CHANNELS, BENCH_RATE, BENCH_SECONDS,
 * BENCH_USERS, BENCH_POOL (10).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import pg from 'pg';
import { WebSocket } from 'ws';
import { loadConfig } from '../server/src/config.ts';
import { openPostgres } from '../server/src/db/index.ts';
import { hashPassword } from '../server/src/lib/password.ts';
import { insertOrganisation } from '../server/src/modules/organisations/queries.ts';
import { setUserTeams } from '../server/src/modules/teams/members.ts';
import { insertUser } from '../server/src/modules/users/queries.ts';
import { createServer } from '../server/src/server.ts';
import { type FakeTelegram, startFakeTelegram, type TgUpdate } from '../server/test/fakes/telegram.ts';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CHANNELS = Number(process.env.BENCH_CHANNELS ?? 50);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const USERS = Number(process.env.BENCH_USERS ?? 10);
const POOL = Number(process.env.BENCH_POOL ?? 10);

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
  return JSON.parse(text) as { entity: Record<string, unknown> };
}

/** One address for many fake bots: a Bot API call goes to the fake whose token its path names. */
async function startRouter(fakes: FakeTelegram[]) {
  const byToken = new Map(fakes.map((f) => [f.token, new URL(f.baseUrl)]));
  const server = createHttpServer((req, res) => {
    const token = /^\/(?:file\/)?bot([^/]+)\//.exec(req.url ?? '')?.[1] ?? '';
    const target = byToken.get(decodeURIComponent(token));
    if (!target) {
      res.writeHead(404).end();
      return;
    }
    const out = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Run = {
  label: string;
  sent: number;
  delivered: number;
  seconds: number;
  lat: number[];
  fromQueue?: number[];
};

function report(r: Run) {
  const lat = [...r.lat].sort((a, b) => a - b);
  const line = `${r.label}: ${r.sent} sent, ${r.delivered} on the socket (${(r.delivered / r.seconds).toFixed(0)}/s); p50 ${ms(pct(lat, 50))}, p95 ${ms(pct(lat, 95))}, p99 ${ms(pct(lat, 99))}, max ${ms(lat.at(-1) ?? Number.NaN)}`;
  console.log(line);
  if (r.fromQueue) {
    const q = [...r.fromQueue].sort((a, b) => a - b);
    console.log(
      `  from the moment queued (includes waiting for the bot's next getUpdates): p50 ${ms(pct(q, 50))}, p99 ${ms(pct(q, 99))}`,
    );
  }
  return pct(lat, 99);
}

async function main() {
  const name = `sc_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), POOL);
  const dataDir = mkdtempSync(join(tmpdir(), 'sc-bench-'));

  // When each update was queued, answered by getUpdates, and seen on the operator's socket, by its bench number.
  const queuedAt = new Map<number, number>();
  const answeredAt = new Map<number, number>();
  const postedAt = new Map<number, number>();
  const receivedAt = new Map<number, number>();
  const marker = /bench:(\d+):/;
  const onAnswered = (updates: TgUpdate[]) => {
    const now = performance.now();
    for (const u of updates) {
      const m = marker.exec(u.message?.text ?? '');
      if (m && !answeredAt.has(Number(m[1]))) answeredAt.set(Number(m[1]), now);
    }
  };
  const polled = await Promise.all(
    Array.from({ length: CHANNELS }, (_, i) =>
      startFakeTelegram({
        token: `${7_000_000_000 + i}:AAE${randomBytes(24).toString('base64url')}`,
        onAnswered,
      }),
    ),
  );
  const hooked = await Promise.all(
    Array.from({ length: CHANNELS }, (_, i) =>
      startFakeTelegram({ token: `${8_000_000_000 + i}:AAE${randomBytes(24).toString('base64url')}` }),
    ),
  );
  const router = await startRouter([...polled, ...hooked]);
  const config = loadConfig({
    TELEGRAM_API_BASE_URL: router.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    SEED_DEMO: 'false',
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
  });
  const server = await createServer(config, { db });
  await server.fastify.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(server.fastify.server.address() as AddressInfo).port}`;
  try {
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
    const addUser = async (role: 'ADMINISTRATOR' | 'OPERATOR', teams: string[]) => {
      const email = `${role.toLowerCase()}@${login}.test`;
      await db.tx(async (q) => {
        const id = await insertUser(q, {
          organisationId: org.id,
          roleId: org.roles[role],
          name: role,
          email,
          phone: null,
          passwordHash: hash,
          breakTimeoutMinutes: null,
          language: 'eng',
          active: true,
        });
        await setUserTeams(q, org.id, id, teams);
      });
      return String(
        (await call(base, 'POST', '/api/auth/login', { email, password: 'Passw0rd!' })).entity.token,
      );
    };
    const adminToken = await addUser('ADMINISTRATOR', []);
    const team = await call(
      base,
      'POST',
      '/api/teams',
      { name: 'Bench', description: 'bench', distributionMethod: 'manual', dialogLimit: 999 },
      adminToken,
    );
    const teamId = String(team.entity.id);
    const operatorToken = await addUser('OPERATOR', [teamId]);
    const channelOf = async (fake: FakeTelegram, i: number, updatesVia: 'polling' | 'webhook') =>
      String(
        (
          await call(
            base,
            'POST',
            '/api/channels',
            { type: 'telegram', name: `Bot ${updatesVia} ${i}`, teamId, token: fake.token, updatesVia },
            adminToken,
          )
        ).entity.id,
      );
    for (const [i, f] of polled.entries()) await channelOf(f, i, 'polling');
    const hooks: { url: string; secret: string; fake: FakeTelegram }[] = [];
    for (const [i, f] of hooked.entries()) {
      const id = await channelOf(f, i, 'webhook');
      hooks.push({
        url: `${base}/api/webhooks/telegram/${id}`,
        secret: f.webhook?.secretToken ?? '',
        fake: f,
      });
    }

    const socket = new WebSocket(`${base.replace('http', 'ws')}/api/realtime?token=${operatorToken}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.on('message', (data) => {
      const now = performance.now();
      const text = data.toString();
      if (!text.includes('"message.created"')) return;
      const m = marker.exec(text);
      if (m && !receivedAt.has(Number(m[1]))) receivedAt.set(Number(m[1]), now);
    });

    // Every polled bot's session takes its channel (the job runner claims 20 a second) and waits in a long poll.
    const t0 = performance.now();
    while (polled.some((f) => !f.polling.waiting)) {
      if (performance.now() - t0 > 60_000) throw new Error('the poll sessions did not all start');
      await sleep(100);
    }
    console.log(
      `${CHANNELS} polled and ${CHANNELS} webhook Telegram channels on PostgreSQL (pool ${POOL}); all polls waiting after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    let seq = 0;
    const userOf = (c: number, u: number) => ({ id: 100_000 + c * 1000 + u, first_name: `User ${c}-${u}` });
    const queue = (c: number, u: number) => {
      const n = ++seq;
      queuedAt.set(n, performance.now());
      polled[c].queue(polled[c].updates.text(userOf(c, u), `bench:${n}: hello`));
      return n;
    };
    const post = (c: number, u: number) => {
      const n = ++seq;
      const { url, secret, fake } = hooks[c];
      const update = fake.updates.text(userOf(c, u), `bench:${n}: hello`);
      postedAt.set(n, performance.now());
      void fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
        body: JSON.stringify(update),
      }).then((r) => r.arrayBuffer());
      return n;
    };
    const settle = async (ids: number[], ms: number) => {
      const until = performance.now() + ms;
      while (ids.some((n) => !receivedAt.has(n)) && performance.now() < until) await sleep(50);
    };

    /** An open loop: `send(channel, user)` RATE times a second for `seconds`, round robin over channels and users. */
    const openLoop = async (send: (c: number, u: number) => number, seconds: number) => {
      const ids: number[] = [];
      const start = performance.now();
      let k = 0;
      while (performance.now() - start < seconds * 1000) {
        const due = Math.floor(((performance.now() - start) / 1000) * RATE);
        while (k < due) {
          ids.push(send(k % CHANNELS, Math.floor(k / CHANNELS) % USERS));
          k++;
        }
        await sleep(5);
      }
      return { ids, seconds: (performance.now() - start) / 1000 };
    };

    // Each client's first message opens their chat (both paths), then a warm-up.
    const primeIds: number[] = [];
    for (let u = 0; u < USERS; u++) for (let c = 0; c < CHANNELS; c++) primeIds.push(queue(c, u), post(c, u));
    await settle(primeIds, 60_000);
    console.log(
      `primed: ${primeIds.filter((n) => receivedAt.has(n)).length}/${primeIds.length} chats opened`,
    );
    await settle((await openLoop(queue, 2)).ids, 10_000);

    const poll = await openLoop(queue, SECONDS);
    await settle(poll.ids, 15_000);
    const hook = await openLoop(post, SECONDS);
    await settle(hook.ids, 15_000);

    const delivered = (ids: number[]) => ids.filter((n) => receivedAt.has(n));
    const polledRun: Run = {
      label: `poller, ${RATE}/s over ${CHANNELS} channels, from getUpdates' answer`,
      sent: poll.ids.length,
      delivered: delivered(poll.ids).length,
      seconds: poll.seconds,
      lat: delivered(poll.ids).map((n) => (receivedAt.get(n) ?? 0) - (answeredAt.get(n) ?? 0)),
      fromQueue: delivered(poll.ids).map((n) => (receivedAt.get(n) ?? 0) - (queuedAt.get(n) ?? 0)),
    };
    const hookRun: Run = {
      label: `baseline: webhook, ${RATE}/s over ${CHANNELS} channels, from the POST`,
      sent: hook.ids.length,
      delivered: delivered(hook.ids).length,
      seconds: hook.seconds,
      lat: delivered(hook.ids).map((n) => (receivedAt.get(n) ?? 0) - (postedAt.get(n) ?? 0)),
    };
    const p99 = report(polledRun);
    const base99 = report(hookRun);
    console.log(
      `ratio poller p99 / webhook p99: ${(p99 / base99).toFixed(2)}; target p99 < 200 ms: ${p99 < 200 ? 'met' : 'NOT met'}`,
    );
    const requests = polled.reduce((n, f) => n + f.expect.calls('getUpdates').length, 0);
    console.log(
      `getUpdates requests: ${requests}; unexpected calls: ${polled.reduce((n, f) => n + f.unexpected.length, 0)}`,
    );
    socket.close();
  } finally {
    await server.close();
    await router.close();
    await Promise.all([...polled, ...hooked].map((f) => f.close()));
    rmSync(dataDir, { recursive: true, force: true });
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
