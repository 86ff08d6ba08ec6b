/**
 * Fan-out benchmark (`npm run bench:fanout`, issue 31): many live sockets spread over a cluster behind nginx, and the
 * time from an inbound message's answer to its `message.created` frame on every socket; the memory each idle socket
 * costs an instance. Baseline in the same run: a bare `ws` broadcast server on this machine (one process, no
 * database, no routing), the same number of sockets, the same messages.
 *
 * SmartConnect side: `scripts/cluster.mjs` (the release, BENCH_INSTANCES instances, nginx) on a fresh PostgreSQL
 * database and Redis; one organisation, one team with manual distribution (every chat waits in the team queue, so
 * every operator of the team gets every message of it), BENCH_SOCKETS / 20 operators (20 sockets each, the per-user
 * cap of one instance), their sessions made in the database; every socket through nginx (round robin over the
 * instances). Then BENCH_MESSAGES inbound messages at BENCH_RATE per second through nginx.
 *
 * Env: BENCH_SOCKETS (10000), BENCH_INSTANCES (2), BENCH_MESSAGES (40), BENCH_RATE (4 messages/s), DATABASE_URL
 * (admin connection; default postgres://postgres@127.0.0.1:5432/test), REDIS_URL (redis://127.0.0.1:6379).
 * The load generator (this process) holds every client socket: on a small machine it competes for the same cores.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { freePort } from '../server/test/integration/cluster-fixtures.ts';
import { benchCluster, organisationWithTeam } from './cluster-bench.ts';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 2);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 40);
const RATE = Number(process.env.BENCH_RATE ?? 4);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PER_USER = 20;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
};
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens `count` sockets to `url(i)`, a few hundred at a time; each records when a frame carrying a marker came. */
async function openSockets(count: number, url: (i: number) => string) {
  const sockets: WebSocket[] = [];
  const seen = new Map<string, number[]>();
  const watch = (ws: WebSocket) =>
    ws.on('message', (data) => {
      const text = data.toString();
      // message.created only (a new chat's chat.created carries the same text as its last message).
      if (!text.includes('"type":"message.created"')) return;
      const m = /fanout-(\d+)/.exec(text);
      if (!m) return;
      const list = seen.get(m[1]) ?? [];
      list.push(performance.now());
      seen.set(m[1], list);
    });
  for (let i = 0; i < count; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, count - i) }, (_, k) => {
        const ws = new WebSocket(url(i + k));
        sockets.push(ws);
        watch(ws);
        return new Promise<void>((ok, fail) => {
          ws.once('open', () => ok());
          ws.once('error', fail);
        });
      }),
    );
  }
  return { sockets, seen };
}

/**
 * Sends MESSAGES messages at RATE; answers the ms from each send's answer to each socket's receipt (0 when the frame
 * came first) and from the send's start.
 */
async function drive(send: (n: number) => Promise<number>, seen: Map<string, number[]>, expected: number) {
  const answered = new Map<string, number>();
  const started = new Map<string, number>();
  const t0 = performance.now();
  for (let n = 0; n < MESSAGES; n++) {
    const due = t0 + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    started.set(String(n), performance.now());
    void send(n).then((at) => answered.set(String(n), at));
  }
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const got = [...seen.values()].reduce((a, l) => a + l.length, 0);
    if (got >= expected * MESSAGES && answered.size === MESSAGES) break;
    await sleep(100);
  }
  const lat: number[] = [];
  const fromStart: number[] = [];
  let received = 0;
  for (const [n, times] of seen) {
    const at = answered.get(n);
    if (at === undefined) continue;
    received += times.length;
    for (const t of times) {
      lat.push(Math.max(0, t - at));
      fromStart.push(t - (started.get(n) ?? t));
    }
  }
  return {
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    startP50: pct(fromStart, 50),
    startP99: pct(fromStart, 99),
    received,
    expected: expected * MESSAGES,
  };
}

/**
 * An instance's /metrics (read from this machine, so no token): the delivery lag histogram's p50 and p99 (the upper
 * bound of the bucket each falls in) and the frames handed to sockets.
 */
async function instanceLag(port: number) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const buckets = [
    ...text.matchAll(/^smartconnect_realtime_delivery_lag_seconds_bucket\{le="([^"]+)"\} (\d+)/gm),
  ].map((m) => ({ le: Number(m[1]), n: Number(m[2]) }));
  const total = buckets.at(-1)?.n ?? 0;
  const at = (p: number) => buckets.find((b) => b.n >= (p / 100) * total)?.le ?? Number.NaN;
  const frames = Number(/^smartconnect_realtime_frames_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
  return { events: total, p50: at(50) * 1000, p99: at(99) * 1000, frames };
}

async function baseline() {
  const port = await freePort();
  // The bare server in a child process, so its memory is its own.
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { WebSocketServer } from 'ws'; import { createServer } from 'node:http';
       const server = createServer((req, res) => { let body = ''; req.on('data', (c) => body += c);
         req.on('end', () => { for (const c of wss.clients) c.send(body); res.end('ok'); }); });
       const wss = new WebSocketServer({ server }); server.listen(${port}, '127.0.0.1', () => console.log('up'));`,
    ],
    { cwd: join(root, 'server'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((ok) => child.stdout?.once('data', ok));
  const before = rssMb(child.pid ?? 0);
  const { sockets, seen } = await openSockets(SOCKETS, () => `ws://127.0.0.1:${port}/`);
  await sleep(3000);
  const perSocketKb = ((rssMb(child.pid ?? 0) - before) * 1024) / SOCKETS;
  const result = await drive(
    (n) =>
      new Promise((ok, fail) => {
        const body = JSON.stringify({ type: 'message.created', payload: { text: `fanout-${n}` } });
        const req = request(`http://127.0.0.1:${port}/`, { method: 'POST' }, (res) => {
          res.resume();
          res.on('end', () => ok(performance.now()));
        });
        req.on('error', fail);
        req.end(body);
      }),
    seen,
    SOCKETS,
  );
  for (const s of sockets) s.terminate();
  child.kill();
  return { ...result, perSocketKb };
}

async function smartconnect() {
  const cluster = await benchCluster({
    name: 'fanout',
    instances: INSTANCES,
    redisUrl: REDIS_URL,
    output: 'inherit',
  });
  const { db } = cluster;
  try {
    const state = cluster.state();
    // One organisation, one team, the operators with their sessions.
    const { org, team, person } = await organisationWithTeam(db, 'fanout');
    const tokens: string[] = [];
    const users = Math.ceil(SOCKETS / PER_USER);
    for (let u = 0; u < users; u++) {
      const op = await person({
        name: `Operator ${u}`,
        email: `op${u}@fanout.test`,
        roleId: org.roles.OPERATOR,
        teams: [team],
      });
      tokens.push(op.token);
    }
    const adminToken = (
      await person({ name: 'Admin', email: 'admin@fanout.test', roleId: org.roles.ADMINISTRATOR, teams: [] })
    ).token;
    const channelRes = await fetch(`${state.url}/api/channels`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ type: 'api', name: 'API', teamId: team, webhookUrl: 'http://127.0.0.1:9/hook' }),
    });
    if (channelRes.status !== 200)
      throw new Error(`channel: ${channelRes.status} ${await channelRes.text()}`);
    const channel = ((await channelRes.json()) as { entity: { id: string; inboundKey: string } }).entity;

    const before = state.instances.map((i) => rssMb(i.pid));
    const ws = state.url.replace(/^http/, 'ws');
    const { sockets, seen } = await openSockets(
      SOCKETS,
      (i) => `${ws}/api/realtime?token=${tokens[Math.floor(i / PER_USER)]}`,
    );
    await sleep(5000);
    const after = state.instances.map((i) => rssMb(i.pid));
    const perSocketKb =
      ((after.reduce((a, b) => a + b, 0) - before.reduce((a, b) => a + b, 0)) * 1024) / SOCKETS;
    const result = await drive(
      async (n) => {
        const res = await fetch(`${state.url}/api/channels/${channel.id}/inbound`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${channel.inboundKey}` },
          body: JSON.stringify({
            externalMessageId: `m-${n}`,
            client: { externalId: `client-${n % 10}`, name: 'Client' },
            text: `fanout-${n}`,
          }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`inbound ${res.status}`);
        return performance.now();
      },
      seen,
      SOCKETS,
    );
    // Each instance's own view: from the event's transaction to its hand-off to the sockets, and frames sent.
    const lag = await Promise.all(state.instances.map((i) => instanceLag(i.port)));
    for (const s of sockets) s.terminate();
    return { ...result, perSocketKb, rss: after, lag };
  } finally {
    await cluster.stop();
  }
}

console.log(
  `fan-out: ${SOCKETS} sockets, ${MESSAGES} messages at ${RATE}/s; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
const base = await baseline();
console.log(
  `bare ws broadcast: after the answer p50 ${base.p50.toFixed(1)} ms, p99 ${base.p99.toFixed(1)} ms; from the send p50 ${base.startP50.toFixed(1)}, p99 ${base.startP99.toFixed(1)} ms; received ${base.received}/${base.expected}, ` +
    `${base.perSocketKb.toFixed(1)} KB per idle socket`,
);
const ours = await smartconnect();
console.log(
  `SmartConnect, ${INSTANCES} instances behind nginx: after the answer p50 ${ours.p50.toFixed(1)} ms, p99 ${ours.p99.toFixed(1)} ms; ` +
    `from the send p50 ${ours.startP50.toFixed(1)}, p99 ${ours.startP99.toFixed(1)} ms, ` +
    `received ${ours.received}/${ours.expected}, ${ours.perSocketKb.toFixed(1)} KB per idle socket ` +
    `(instances' RSS ${ours.rss.map((r) => r.toFixed(0)).join(' / ')} MB); ratio of p99 from the send, bare / ours ${(base.startP99 / ours.startP99).toFixed(2)}`,
);
for (const [i, l] of ours.lag.entries())
  console.log(
    `  instance ${i + 1}: ${l.events} events to its sockets, ${l.frames} frames; from the event's transaction to the hand-off p50 <= ${l.p50} ms, p99 <= ${l.p99} ms`,
  );
