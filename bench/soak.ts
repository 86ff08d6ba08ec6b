import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Audience } from '@smartconnect/contracts';
import { visitorMessages } from '../server/src/modules/widget/queries.ts';
import { audienceMatches } from '../server/src/realtime/gateway.ts';
import { sessionStates } from '../server/src/realtime/queries.ts';
import { freePort } from '../server/test/integration/cluster-fixtures.ts';
import { benchCluster, type ClusterFile, organisationWithTeam } from './cluster-bench.ts';
import {
  type Frame,
  fakeProvider,
  newKey,
  OperatorSocket,
  postRetried,
  type Sent,
  sleep,
  WidgetVisitor,
} from './soak-clients.ts';
import { type Life, pct, printChecks, printLives, printMinutes, rssMb, watchCluster } from './soak-report.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const MINUTES = env('BENCH_MINUTES', 20);
const INSTANCES = env('BENCH_INSTANCES', 3);
const RESTART_EVERY_S = env('BENCH_RESTART_EVERY_S', 240);
const CHANNELS = env('BENCH_CHANNELS', 3);
const INBOUND_RATE = env('BENCH_INBOUND_RATE', 2);
const OPERATORS = env('BENCH_OPERATORS', 20);
const VISITORS = env('BENCH_VISITORS', 10);
const VISITOR_EVERY_S = env('BENCH_VISITOR_EVERY_S', 20);
const RSS_SLOPE_MAX = env('BENCH_RSS_SLOPE_MAX', 2);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let t0 = performance.now();
const sinceStart = () => `+${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s`;
const minuteOf = (at: number) => Math.floor((at - t0) / 60_000);
const until = async (ok: () => boolean | Promise<boolean>, ms: number) => {
  const deadline = performance.now() + ms;
  while (!(await ok()) && performance.now() < deadline) await sleep(250);
};

async function main() {
  let watch: ReturnType<typeof watchCluster> | undefined;
  const cluster = await benchCluster({
    name: 'soak',
    instances: INSTANCES,
    redisUrl: REDIS_URL,
    output: 'pipe',
    onSpawn: (proc, dir) => {
      watch = watchCluster(proc, join(dir, 'instances.log'), sinceStart);
    },
  });
  const rolling = watch as ReturnType<typeof watchCluster>;
  const { db } = cluster;
  const providerPort = await freePort();
  const provider = await fakeProvider(providerPort).catch(async (err) => {
    await cluster.stop();
    throw err;
  });
  try {
    const readState = cluster.state;
    const lb = readState().url;
    const ws = lb.replace(/^http/, 'ws');

    const { org, team, person } = await organisationWithTeam(db, 'soak');
    const organisationId = org.id;
    const admin = await person({
      name: 'Admin',
      email: 'admin@soak.test',
      roleId: org.roles.ADMINISTRATOR,
      teams: [],
    });
    const operators: Awaited<ReturnType<typeof person>>[] = [];
    for (let u = 0; u < OPERATORS; u++)
      operators.push(
        await person({
          name: `Operator ${u}`,
          email: `op${u}@soak.test`,
          roleId: org.roles.OPERATOR,
          teams: [team],
        }),
      );
    const adminPost = async (path: string, body: unknown) => {
      const res = await fetch(`${lb}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { entity: { id: string; inboundKey: string } }).entity;
    };
    const channels: { id: string; inboundKey: string }[] = [];
    for (let k = 0; k < CHANNELS; k++)
      channels.push(
        await adminPost('/api/channels', {
          type: 'api',
          name: `API ${k}`,
          teamId: team,
          webhookUrl: `http://127.0.0.1:${providerPort}/hook/${k}`,
        }),
      );
    const site = await adminPost('/api/channels', { type: 'site_chat', name: 'Site', teamId: team });

    // What was acknowledged (external id -> answer), and when each operator socket got its message.created.
    const acked = new Map<string, Sent & { kind: 'api' | 'widget'; channelId: string }>();
    const receipts = new Map<string, number[]>();
    const replies: (Sent & { inboundId: string; api: boolean })[] = [];
    const replying = new Set<Promise<unknown>>();
    const repliedTo = new Set<string>();
    const taken = new Map<string, Promise<unknown>>();
    const failures: string[] = [];
    const fail = (what: string) => {
      if (failures.length < 20) console.log(`  ${sinceStart()} ${what}`);
      failures.push(what);
    };
    // The operator who owns a chat: one by the chat id, so that every client message gets one answer.
    const ownerOf = (chatId: string) => Number.parseInt(chatId.replaceAll('-', '').slice(-6), 16) % OPERATORS;

    const answer = async (
      op: (typeof operators)[number],
      m: { id: string; chatId: string },
      api: boolean,
    ) => {
      const auth = { 'content-type': 'application/json', authorization: `Bearer ${op.token}` };
      // One take per chat (a repeat after a restart is 409 chatAlreadyTaken: it is ours all the same).
      let take = taken.get(m.chatId);
      if (!take) {
        take = postRetried(`${lb}/api/chats/${m.chatId}/take`, auth, '{}').then((r) => {
          if (r.status !== 200 && r.status !== 409)
            fail(`take ${m.chatId}: ${r.status} ${JSON.stringify(r.body)}`);
        });
        taken.set(m.chatId, take);
      }
      await take;
      await sleep(200 + Math.random() * 1300);
      const body = JSON.stringify({ text: `soak-out ${m.id}`, clientKey: newKey() });
      const r = await postRetried(`${lb}/api/chats/${m.chatId}/messages`, auth, body);
      if (r.status !== 200) return fail(`reply to ${m.id}: ${r.status} ${JSON.stringify(r.body)}`);
      replies.push({ ...r, inboundId: m.id, api });
    };

    const sockets = operators.map(
      (op, index) =>
        new OperatorSocket(op.userId, ws, op.token, (f: Frame, at: number) => {
          if (f.type !== 'message.created') return;
          const m = f.payload as { id: string; chatId: string; direction: string; externalMessageId: string };
          if (m.direction !== 'in') return;
          const list = receipts.get(m.externalMessageId) ?? [];
          list.push(at);
          receipts.set(m.externalMessageId, list);
          if (ownerOf(m.chatId) !== index || repliedTo.has(m.id)) return;
          repliedTo.add(m.id);
          // The widget's external ids are `visitor:clientMessageId`; the API channels' are ours.
          const api = !m.externalMessageId.includes(':');
          const p = answer(op, m, api).catch((err) => fail(`reply: ${err}`));
          replying.add(p);
          void p.finally(() => replying.delete(p));
        }),
    );
    await Promise.all(sockets.map((s) => s.start()));
    const visitors = Array.from(
      { length: VISITORS },
      (_, v) => new WidgetVisitor(lb, site.id, `10.77.0.${v + 1}`),
    );
    await Promise.all(visitors.map((v) => v.start()));

    // RSS of each instance's process every 10 s; a restart starts a new life (a new pid in cluster.json).
    const lives = new Map<string, Life>();
    const sample = () => {
      let state: ClusterFile;
      try {
        state = readState();
      } catch {
        return;
      }
      for (const i of state.instances) {
        const y = rssMb(i.pid);
        if (Number.isNaN(y)) continue;
        const key = `${i.name}:${i.pid}`;
        const life = lives.get(key) ?? { name: i.name, pid: i.pid, points: [] };
        lives.set(key, life);
        life.points.push({ x: (performance.now() - t0) / 60_000, y });
      }
    };

    console.log(
      `soak: ${MINUTES} min, ${INSTANCES} instances, a rolling restart every ${RESTART_EVERY_S} s; ${CHANNELS} API channels at ${INBOUND_RATE} inbound/s in all, ` +
        `${OPERATORS} operators, ${VISITORS} widget visitors (a message every ~${VISITOR_EVERY_S} s each); load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
    t0 = performance.now();
    const end = t0 + MINUTES * 60_000;
    sample();
    const sampler = setInterval(sample, 10_000);
    let hups = 0;
    const restarter = setInterval(() => {
      if (performance.now() > end) return;
      hups++;
      cluster.proc.kill('SIGHUP');
    }, RESTART_EVERY_S * 1000);
    const progress = setInterval(() => {
      const m = minuteOf(performance.now()) - 1;
      const done = [...acked.values()].filter((a) => minuteOf(a.at) === m);
      console.log(
        `  ${sinceStart()} minute ${m + 1}: ${done.length} inbound acknowledged, ${replies.filter((r) => minuteOf(r.at) === m).length} replies, ` +
          `RSS ${readState()
            .instances.map((i) => rssMb(i.pid).toFixed(0))
            .join(' / ')} MB`,
      );
    }, 60_000);

    const sending = new Set<Promise<unknown>>();
    const inbound = async (n: number) => {
      const ch = channels[n % CHANNELS];
      const externalId = `soak-${n}`;
      const r = await postRetried(
        `${lb}/api/channels/${ch.id}/inbound`,
        { 'content-type': 'application/json', authorization: `Bearer ${ch.inboundKey}` },
        JSON.stringify({
          externalMessageId: externalId,
          client: { externalId: `client-${n % 97}`, name: `Client ${n % 97}` },
          text: `soak-in ${externalId}`,
        }),
      );
      if (r.status === 200) acked.set(externalId, { ...r, kind: 'api', channelId: ch.id });
      else fail(`inbound ${externalId}: ${r.status} ${JSON.stringify(r.body)}`);
    };
    const inboundLoop = (async () => {
      for (let n = 0; ; n++) {
        const due = t0 + (n * 1000) / INBOUND_RATE;
        if (due > end) return;
        await sleep(due - performance.now());
        const p = inbound(n);
        sending.add(p);
        void p.finally(() => sending.delete(p));
      }
    })();
    const visitorLoops = visitors.map(async (v, k) => {
      await sleep(Math.random() * VISITOR_EVERY_S * 1000);
      for (let n = 0; performance.now() < end; n++) {
        await v.say(`soak-w ${k}-${n}`);
        await sleep(VISITOR_EVERY_S * 1000 * (0.5 + Math.random()));
      }
    });
    await Promise.all([inboundLoop, ...visitorLoops]);
    clearInterval(restarter);
    await Promise.all(sending);
    for (const v of visitors) {
      for (const s of v.sent) acked.set(s.externalId, { ...s, kind: 'widget', channelId: site.id });
      for (const f of v.failed) fail(`widget send: ${f}`);
    }
    console.log(`  ${sinceStart()} load stopped; waiting for the rolling restart and the replies to settle`);
    // Over when no round is under way for 3 s (a queued round starts right after the previous one's end).
    await until(() => !rolling.rolling && performance.now() - rolling.lastLine > 3000, 300_000);
    // Replies: none pending for 5 s in a row (an answer may start on a replayed event).
    for (let quiet = 0; quiet < 20; ) {
      quiet = replying.size ? 0 : quiet + 1;
      await sleep(250);
    }
    await Promise.all(replying);
    const apiReplies = replies.filter((r) => r.api);
    const idOf = (r: Sent) => (r.body as { entity: { id: string } }).entity.id;
    await until(() => apiReplies.every((r) => provider.deliveries.has(idOf(r))), 120_000);
    const lastEvent = Number(
      (
        await db.query<{ max: string }>(
          'select max(id)::text as max from events where organisation_id = $1',
          [organisationId],
        )
      )[0].max,
    );
    // Every event of the run each socket should have got.
    const states = new Map(
      (
        await sessionStates(
          db,
          operators.map((o) => o.sessionId),
          new Date(0),
        )
      ).map((s) => [s.session_id, s]),
    );
    const from = Math.min(...sockets.map((s) => s.firstCursor ?? 0));
    const events = await db.query<{ id: string; type: string; audience: Audience }>(
      'select id::text as id, type, audience from events where organisation_id = $1 and id > $2 and id <= $3 order by id',
      [organisationId, from, lastEvent],
    );
    const typeOf = new Map(events.map((e) => [Number(e.id), e.type]));
    const expected = operators.map((op, k) => {
      const st = states.get(op.sessionId);
      const reader = {
        userId: op.userId,
        rights: new Set(st?.rights ?? []),
        teams: new Set(st?.team_ids ?? []),
      };
      const after = sockets[k].firstCursor ?? 0;
      return events
        .filter((e) => Number(e.id) > after && audienceMatches(reader, e.audience ?? {}))
        .map((e) => Number(e.id));
    });
    const gap = (k: number) => {
      const s = sockets[k];
      const missing = expected[k].filter((id) => !s.received.has(id));
      const resynced = missing.filter((id) => s.resyncs.some((r) => id > r.from && id <= r.to));
      return { missing: missing.filter((id) => !resynced.includes(id)), resynced };
    };
    await until(() => sockets.every((_, k) => gap(k).missing.length === 0), 30_000);
    const widgetExpected = async (v: WidgetVisitor) =>
      (await visitorMessages(db, site.id, v.visitorId, null, 10_000))
        .filter((m) => m.direction === 'out')
        .map((m) => m.id);
    const widgetMissing = async () =>
      Promise.all(visitors.map(async (v) => (await widgetExpected(v)).filter((id) => !v.got.has(id))));
    await until(async () => (await widgetMissing()).every((l) => l.length === 0), 30_000);
    clearInterval(sampler);
    clearInterval(progress);

    const delivery = [...acked.entries()].flatMap(([id, a]) =>
      (receipts.get(id) ?? []).map((t) => ({ at: a.at, ms: Math.max(0, t - a.at) })),
    );
    printMinutes({
      minuteOf,
      minutes: MINUTES,
      inbound: [...acked.values()],
      replies,
      delivery,
      restarts: rolling.restarts,
    });
    console.log(
      `  retried until answered: ${[...acked.values()].filter((a) => a.attempts > 1).length} inbound, ` +
        `${replies.filter((r) => r.attempts > 1).length} replies`,
    );
    const drains = rolling.stops.map((x) => x.ms / 1000);
    console.log(
      `  graceful stops in the rolling restarts: ${drains.length}, from SIGTERM to exit p50 ${pct(drains, 50).toFixed(1)} s, max ${Math.max(0, ...drains).toFixed(1)} s`,
    );
    const growing = printLives(lives.values(), RSS_SLOPE_MAX);

    // The checks.
    const stored = new Map(
      (
        await db.query<{ ext: string; n: number }>(
          "select external_message_id as ext, count(*)::int as n from messages where organisation_id = $1 and direction = 'in' group by 1",
          [organisationId],
        )
      ).map((r) => [r.ext, r.n]),
    );
    const inboundBad = [...acked.keys()].filter((id) => stored.get(id) !== 1);
    const outStored = new Map(
      (
        await db.query<{ text: string; n: number }>(
          "select text, count(*)::int as n from messages where organisation_id = $1 and direction = 'out' and text like 'soak-out %' group by 1",
          [organisationId],
        )
      ).map((r) => [r.text, r.n]),
    );
    const replyBad = replies.filter((r) => outStored.get(`soak-out ${r.inboundId}`) !== 1);
    const notDelivered = apiReplies.filter((r) => !provider.deliveries.has(idOf(r)));
    const twice = [...provider.deliveries.entries()].filter(([, n]) => n > 1);
    const gaps = sockets.map((_, k) => gap(k));
    const lost = gaps.flatMap((g, k) =>
      g.missing.map(
        (id) => `operator ${k}: event ${id} ${typeOf.get(id)} (its sockets: ${sockets[k].history(id)})`,
      ),
    );
    const resynced = gaps.reduce((a, g) => a + g.resynced.length, 0);
    const widgetLost = (await widgetMissing()).flatMap((l, v) =>
      l.map((id) => `visitor ${v}: message ${id}`),
    );
    const resyncs = sockets.flatMap((s) => s.resyncs.map((r) => r.reason));
    const received = sockets.reduce((a, s) => a + s.received.size, 0);
    console.log(
      `\nsockets: ${sockets.reduce((a, s) => a + s.connects - 1, 0)} operator reconnects, ${visitors.reduce((a, v) => a + v.connects - 1, 0)} widget reconnects; ` +
        `${received} events received by operators (${events.length} events in the run); resync frames: ${resyncs.length}` +
        `${resyncs.length ? ` (${[...new Set(resyncs)].map((r) => `${r} ${resyncs.filter((x) => x === r).length}`).join(', ')}), ${resynced} events left to the refetch` : ''}; ` +
        `rolling restarts asked: ${hups}, instances restarted: ${rolling.restarts.length}; instances' error lines: ${rolling.errors.length}`,
    );
    for (const e of rolling.errors.slice(0, 3)) console.log(`  ${e}`);
    const checks: [string, string[]][] = [
      [
        `every acknowledged inbound stored once (${acked.size})`,
        inboundBad.map((id) => `${id}: ${stored.get(id) ?? 0} rows`),
      ],
      [
        `every accepted reply stored once (${replies.length})`,
        replyBad.map((r) => `reply to ${r.inboundId}: ${outStored.get(`soak-out ${r.inboundId}`) ?? 0} rows`),
      ],
      [
        `every API reply delivered to the provider exactly once (${apiReplies.length})`,
        [
          ...notDelivered.map((r) => `${idOf(r)} never delivered`),
          ...twice.map(([id, n]) => `${id} delivered ${n} times`),
        ],
      ],
      [`every operator socket got every event meant for it (${OPERATORS} sockets)`, lost],
      [`every widget got every operator message (${VISITORS} visitors)`, widgetLost],
      ['no request given up or refused', failures],
      [
        `every instance stopped by a rolling restart exited cleanly (${rolling.stops.length})`,
        rolling.stops
          .filter((x) => x.exit !== '0')
          .map((x) => `${x.name} exited (${x.exit}) after ${(x.ms / 1000).toFixed(1)} s`),
      ],
      [`no RSS growth over an instance's life (<= ${RSS_SLOPE_MAX} MB/min)`, growing],
    ];
    const ok = printChecks(checks);
    for (const s of sockets) s.stop();
    for (const v of visitors) v.stop();
    return ok;
  } finally {
    await provider.close();
    await cluster.stop();
  }
}

// Exits at once: the load's keep-alive connections and timers have nothing left to do.
process.exit((await main()) ? 0 : 1);
