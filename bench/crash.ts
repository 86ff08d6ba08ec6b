/**
 * Crash test of ingest and delivery (`npm run bench:crash`, on PostgreSQL): clients push messages through the API
 * channel and Telegram webhooks and retry every one until it is answered 200, operators' replies go out through the
 * outbox, and meanwhile the server process is killed with SIGKILL three times and restarted. At the end it prints
 * messages sent, stored, lost and doubled (both must be 0), replies delivered twice (allowed only with the same
 * delivery id: at-least-once) and deliveries left undone. A mailing to CRASH_MAILING contacts of a third channel
 * (issue 33) runs through the kills: at the end it must be finished, every recipient must have received its message
 * and none two different ones.
 *
 * Knobs: CRASH_API (API messages, default 1500), CRASH_TELEGRAM (Telegram updates, default 600), CRASH_CLIENTS
 * (concurrent senders, default 20), CRASH_MAILING (mailing recipients, default 2000), DATABASE_URL (the server
 * whose `test` database creates a fresh one).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startFakeTelegram } from '../server/test/fakes/telegram.ts';

const API_MESSAGES = Number(process.env.CRASH_API ?? 1500);
const TELEGRAM_UPDATES = Number(process.env.CRASH_TELEGRAM ?? 600);
const CLIENTS = Number(process.env.CRASH_CLIENTS ?? 20);
const MAILING_RECIPIENTS = Number(process.env.CRASH_MAILING ?? 2000);
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const KILLS = 3;
const root = new URL('..', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** One request; network failures (the server is down) answer status 0. */
async function call(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, body };
  } catch {
    return { status: 0, body: null };
  }
}

/** Sends until answered 200, as a provider or an integrator does. Answers the number of tries. */
async function untilOk(url: string, init: RequestInit): Promise<number> {
  for (let tries = 1; ; tries++) {
    const res = await call(url, init);
    if (res.status === 200) return tries;
    if (res.status !== 0 && res.status < 500 && res.status !== 429)
      throw new Error(`${url} answered ${res.status}: ${JSON.stringify(res.body)}`);
    await sleep(50 + Math.random() * 150);
  }
}

async function main() {
  const dbName = `sc_crash_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();

  const tg = await startFakeTelegram();
  // The API channel's webhook: counts deliveries per message and per delivery id.
  const deliveries: { messageId: string; deliveryId: string }[] = [];
  // The mailing's channel's deliveries: each recipient (client id at the channel) must get exactly one message.
  const mailed: { messageId: string; deliveryId: string; client: string }[] = [];
  const hook: Server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const parsed = JSON.parse(body) as {
        messageId: string;
        channelId: string;
        client: { externalId: string };
      };
      const delivery = {
        messageId: parsed.messageId,
        deliveryId: String(req.headers['x-smartconnect-delivery']),
      };
      if (parsed.channelId === mailingChannelId)
        mailed.push({ ...delivery, client: parsed.client.externalId });
      else deliveries.push(delivery);
      res.end('{}');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;

  let mailingChannelId = '';
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'sc-crash-'));
  const password = 'Crash-test-1!';
  let proc: ChildProcess | null = null;
  const start = async () => {
    proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        REDIS_URL: '',
        LOG_LEVEL: 'fatal',
        SEED_DEMO: 'true',
        ADMIN_PASSWORD: password,
        SECRET_KEY: 'crash-test-secret-key-crash-test-secret-key-01',
        OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
        TELEGRAM_API_BASE_URL: tg.baseUrl,
        // The mailing goes at 200 a second: long enough for the kills to fall in the middle of it.
        MAILING_RATE_LIMITS: 'api=200',
        NODE_ENV: 'production',
      },
      stdio: 'ignore',
    });
    const deadline = Date.now() + 60_000;
    while ((await call(`${base}/api/health`, {})).status !== 200) {
      if (Date.now() > deadline) throw new Error('server did not start');
      await sleep(100);
    }
  };
  const kill = async () => {
    const p = proc;
    if (!p) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  };

  try {
    await start();
    const login = await call(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.local', password }),
    });
    const token = (login.body as { entity: { token: string } }).entity.token;
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const teams = (await call(`${base}/api/teams`, { headers: auth })).body as {
      entity: { items: { id: string }[] };
    };
    const teamId = teams.entity.items[0].id;
    const created = async (body: Record<string, unknown>) => {
      const res = await call(`${base}/api/channels`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`channel: ${JSON.stringify(res.body)}`);
      return (res.body as { entity: { id: string; inboundKey?: string } }).entity;
    };
    const api = await created({ type: 'api', name: 'Crash API', teamId, webhookUrl: hookUrl });
    const telegram = await created({
      type: 'telegram',
      name: 'Crash bot',
      teamId,
      token: tg.token,
      updatesVia: 'webhook',
    });
    const secret = tg.webhook?.secretToken ?? '';
    // A mailing to MAILING_RECIPIENTS contacts of a channel of its own, started as the kills begin.
    const mailingChannel = await created({ type: 'api', name: 'Crash mailing', teamId, webhookUrl: hookUrl });
    mailingChannelId = mailingChannel.id;
    const seed = new pg.Client({ connectionString: databaseUrl });
    await seed.connect();
    await seed.query(
      `with c as (
         insert into clients (id, organisation_id, name)
         select uuid_generate_v7(), ch.organisation_id, 'Mailed ' || i
           from channels ch, generate_series(1, $2::int) i where ch.id = $1 returning id, organisation_id, name
       )
       insert into contacts (organisation_id, channel_id, client_id, external_id, name)
       select c.organisation_id, $1, c.id, 'mailed-' || c.name, c.name from c`,
      [mailingChannel.id, MAILING_RECIPIENTS],
    );
    await seed.end();
    const mailingRes = await call(`${base}/api/mailings`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: 'Crash',
        channelId: mailingChannel.id,
        marketingType: 'service',
        text: 'Hi',
      }),
    });
    const mailingId = (mailingRes.body as { entity: { id: string } }).entity.id;
    const startRes = await call(`${base}/api/mailings/${mailingId}/start`, {
      method: 'POST',
      headers: auth,
      body: '{}',
    });
    if (startRes.status !== 200)
      throw new Error(
        `mailing did not start: ${JSON.stringify(mailingRes.body)} ${JSON.stringify(startRes.body)}`,
      );

    // The work: every message has its own id; each client sends its share in order, retrying until answered.
    type Job = () => Promise<number>;
    const jobs: Job[] = [];
    for (let i = 0; i < API_MESSAGES; i++) {
      const body = JSON.stringify({
        externalMessageId: `crash-${i}`,
        client: { externalId: `api-client-${i % 50}`, name: `Client ${i % 50}` },
        text: `message ${i}`,
      });
      jobs.push(() =>
        untilOk(`${base}/api/channels/${api.id}/inbound`, {
          method: 'POST',
          headers: { authorization: `Bearer ${api.inboundKey}`, 'content-type': 'application/json' },
          body,
        }),
      );
    }
    for (let i = 0; i < TELEGRAM_UPDATES; i++) {
      const update = tg.updates.text({ id: 10_000 + (i % 30), first_name: `Tg ${i % 30}` }, `update ${i}`);
      jobs.push(() =>
        untilOk(`${base}/api/webhooks/telegram/${telegram.id}`, {
          method: 'POST',
          headers: { 'x-telegram-bot-api-secret-token': secret, 'content-type': 'application/json' },
          body: JSON.stringify(update),
        }),
      );
    }
    jobs.sort(() => Math.random() - 0.5);

    let retriesTotal = 0;
    let next = 0;
    const senders = Array.from({ length: CLIENTS }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        retriesTotal += (await job()) - 1;
      }
    });
    const killer = (async () => {
      for (let k = 0; k < KILLS; k++) {
        await sleep(2_500 + Math.random() * 1_500);
        await kill();
        await start();
        process.stdout.write(`killed with SIGKILL and restarted (${k + 1}/${KILLS})\n`);
      }
    })();
    // Waiting chats are taken by the reply (the admin is put In work), so each round finds new ones.
    const replier = (async () => {
      let sent = 0;
      for (let round = 0; round < 6; round++) {
        await sleep(1_500);
        // While the server is down the list is unavailable: that round answers nobody.
        const chats = (await call(`${base}/api/chats?filter=waiting&limit=100`, { headers: auth })).body as {
          entity?: { items: { id: string }[] };
        } | null;
        for (const chat of chats?.entity?.items ?? []) {
          const text = `reply ${round}-${chat.id}`;
          // The operator answers chats while the server is being killed. A reply answered with an error may still
          // have been committed (killed after the commit), so each is tried once: no retry can double it.
          const res = await call(`${base}/api/chats/${chat.id}/messages`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ text }),
          });
          if (res.status === 200) sent++;
        }
      }
      return sent;
    })();
    const [repliesAccepted] = await Promise.all([replier, ...senders, killer]);

    // Let the outbox drain, then count in the database itself.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    // A pipeline job or delivery claimed by a killed instance is taken over when its lease (60 s) ends.
    // A killed instance's mailing sender is taken over when its channel's lease (60 s) ends; rows it wrote but had
    // not delivered are sent by the outbox after their hold (60 s).
    let pending = -1;
    let jobsLeft = -1;
    let mailingStatus = '';
    for (let i = 0; i < 360; i++) {
      pending = (await db.query("select count(*)::int as n from outbox where status = 'pending'")).rows[0].n;
      jobsLeft = (await db.query('select count(*)::int as n from pipeline_jobs')).rows[0].n;
      mailingStatus = (await db.query('select status from mailings where id = $1', [mailingId])).rows[0]
        .status;
      if (pending === 0 && jobsLeft === 0 && mailingStatus === 'finished') break;
      await sleep(500);
    }
    const messagesPerClient = new Map<string, Set<string>>();
    for (const d of mailed)
      messagesPerClient.set(d.client, (messagesPerClient.get(d.client) ?? new Set()).add(d.messageId));
    const mailedTwice = [...messagesPerClient.values()].filter((ids) => ids.size > 1).length;
    const mailedRows = (
      await db.query(
        `select count(*)::int as n, count(distinct contact_id)::int as d from mailing_recipients
          where mailing_id = $1 and state = 'sent'`,
        [mailingId],
      )
    ).rows[0] as { n: number; d: number };
    const stored = (
      await db.query(
        `select count(*)::int as n, count(distinct (channel_id, external_message_id))::int as d
           from messages where direction = 'in'`,
      )
    ).rows[0] as { n: number; d: number };
    const expected = API_MESSAGES + TELEGRAM_UPDATES;
    const replyRows = (await db.query("select count(*)::int as n from messages where direction = 'out'"))
      .rows[0].n;
    const byMessage = new Map<string, Set<string>>();
    for (const d of deliveries)
      byMessage.set(d.messageId, (byMessage.get(d.messageId) ?? new Set()).add(d.deliveryId));
    const apiDeliveredTwice = [...byMessage.values()].filter((ids) => ids.size > 1).length;
    const apiRepeats = deliveries.length - byMessage.size;
    const tgTexts = tg.expect.calls('sendMessage').map((r) => String(r.params.text));
    const tgRepeats = tgTexts.length - new Set(tgTexts).size;
    await db.end();

    console.log('\nCrash test (PostgreSQL, SIGKILL x3):');
    console.log(
      `  inbound sent ${expected} (API ${API_MESSAGES}, Telegram ${TELEGRAM_UPDATES}), client retries ${retriesTotal}`,
    );
    console.log(`  stored ${stored.d}, lost ${expected - stored.d}, doubled ${stored.n - stored.d}`);
    console.log(`  replies accepted ${repliesAccepted}, stored ${replyRows}`);
    console.log(
      `  API webhook deliveries ${deliveries.length} for ${byMessage.size} replies: repeated ${apiRepeats} (same delivery id), under a new delivery id ${apiDeliveredTwice}`,
    );
    console.log(
      `  Telegram sendMessage ${tgTexts.length} for ${new Set(tgTexts).size} replies: repeated ${tgRepeats}`,
    );
    console.log(
      `  deliveries left undone (outbox pending) ${pending}; pipeline jobs left undone ${jobsLeft}`,
    );
    console.log(
      `  mailing ${mailingStatus}: ${MAILING_RECIPIENTS} recipients, marked sent ${mailedRows.n}, received by ${messagesPerClient.size} (deliveries ${mailed.length}), two different messages to one recipient ${mailedTwice}`,
    );
    const ok =
      mailingStatus === 'finished' &&
      messagesPerClient.size === MAILING_RECIPIENTS &&
      mailedRows.n === MAILING_RECIPIENTS &&
      mailedTwice === 0 &&
      expected - stored.d === 0 &&
      stored.n === stored.d &&
      apiDeliveredTwice === 0 &&
      pending === 0 &&
      jobsLeft === 0;
    console.log(ok ? 'RESULT ok: nothing lost, nothing doubled' : 'RESULT FAILED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await kill();
    await tg.close();
    hook.close();
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.end();
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
