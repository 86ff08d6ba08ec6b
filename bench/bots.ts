/**
 * Chat bot benchmark (`npm run bench:bots`): bot replies per second with BENCH_DIALOGS (1,000) concurrent bot
 * dialogs, against an in-process server on PGlite (or PostgreSQL with DATABASE_URL), through the API channel's inbound
 * endpoint. Each dialog waits at a node with two buttons; clients answer by typed text ("Prices" / "Back"), so every
 * message is one bot step and one bot reply (stored, outbox row, delivered to a local webhook).
 *
 * Baseline, measured in the same run on the same server: the same number of plain messages into 1,000 open chats of
 * an organisation without a bot (ingest only, no pipeline job). Printed: the bot's replies/s, the baseline's
 * messages/s and their ratio.
 *
 * Env: BENCH_DIALOGS (1000), BENCH_MESSAGES (3000), BENCH_CONCURRENCY (50), DATABASE_URL (PostgreSQL; else PGlite),
 * BENCH_TRACE=1 (statement counts and times of the bot phase by SQL text, and its transactions: where the time goes).
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { type Db, type Queryable, type Statement, sqlText } from '../server/src/db/index.ts';
import {
  createOrganisation,
  startTestServer,
  type TestOrg,
  type TestServer,
} from '../server/test/helpers.ts';
import { makeTeam } from '../server/test/integration/chats-fixtures.ts';

const DIALOGS = Number(process.env.BENCH_DIALOGS ?? 1000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);

const graph = {
  nodes: [
    {
      id: 'a',
      root: true,
      title: '',
      position: { x: 0, y: 0 },
      reply: { text: 'Welcome! Choose one', fileId: null },
      buttons: [
        { id: 'b1', text: 'Prices', next: 'p' },
        { id: 'b2', text: 'Hours', next: 'p' },
      ],
      triggers: [],
      intents: [],
      actions: [],
    },
    {
      id: 'p',
      root: false,
      title: '',
      position: { x: 0, y: 0 },
      reply: { text: 'Prices are low. Back?', fileId: null },
      buttons: [{ id: 'b3', text: 'Back', next: 'a' }],
      triggers: [],
      intents: [],
      actions: [],
    },
  ],
};

async function channelOf(org: TestOrg, webhookUrl: string) {
  const teamId = await makeTeam(org, { method: 'manual' });
  const res = await org.admin.api.post('/api/channels', {
    type: 'api',
    name: `API ${randomUUID()}`,
    teamId,
    webhookUrl,
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { id: res.body.entity.id as string, key: res.body.entity.inboundKey as string };
}

async function withBot(s: TestServer, org: TestOrg) {
  const id = randomUUID();
  await s.db.query(
    `insert into chat_bots (id, organisation_id, name, default_message, draft, published_version, created_at, updated_at)
     values ($1, $2, 'Bench bot', 'Sorry?', $3, 1, now(), now())`,
    [id, org.id, JSON.stringify(graph)],
  );
  await s.db.query(
    `insert into chat_bot_versions (bot_id, version, organisation_id, graph, default_message, published_at)
     values ($1, 1, $2, $3, 'Sorry?', now())`,
    [id, org.id, JSON.stringify(graph)],
  );
  const rule = await org.admin.api.post('/api/routing-rules', {
    name: 'Bench',
    conditions: { clients: 'any' },
    action: { type: 'chat_bot', botId: id },
  });
  if (rule.status !== 200) throw new Error(JSON.stringify(rule.body));
}

/** BENCH_TRACE=1: the server's statements counted and timed by SQL text (the database object patched in place). */
const trace = new Map<string, { n: number; ms: number }>();
let transactions = 0;
function traceDb(db: Db): void {
  const wrap = (q: Queryable): Queryable => ({
    async query<T>(sql: string | Statement, params?: unknown[]) {
      const t0 = performance.now();
      try {
        return await q.query<T>(sql, params);
      } finally {
        const key = sqlText(sql).replace(/\s+/g, ' ').trim().slice(0, 110);
        const e = trace.get(key) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += performance.now() - t0;
        trace.set(key, e);
      }
    },
    exec: (sql) => q.exec(sql),
  });
  const query = db.query.bind(db);
  const tx = db.tx.bind(db);
  db.query = wrap({ query, exec: db.exec.bind(db) }).query;
  db.tx = (fn) => {
    transactions++;
    return tx((q) => fn(wrap(q)));
  };
}
function printTrace(messages: number): void {
  if (!trace.size) return;
  console.log(
    `\nStatements of the bot phase (BENCH_TRACE), ${transactions} transactions, ${messages} messages:`,
  );
  const rows = [...trace.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 40);
  for (const [sql, e] of rows)
    console.log(`${String(e.n).padStart(7)} ${e.ms.toFixed(0).padStart(7)} ms  ${sql}`);
}

let seq = 0;
const send = (s: TestServer, ch: { id: string; key: string }, client: number, text: string) =>
  s.api.as(ch.key).post(`/api/channels/${ch.id}/inbound`, {
    externalMessageId: `b-${seq++}`,
    client: { externalId: `c-${client}`, name: `Client ${client}` },
    text,
  });

/** Sends `total` messages with `concurrency` in flight, each to the next client in turn. */
async function drive(total: number, concurrency: number, one: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await one(next++);
    }),
  );
}

const count = async (s: TestServer, sql: string, params: unknown[]) =>
  Number((await s.db.query<{ n: string }>(sql, params))[0].n);

async function waitFor(s: TestServer, sql: string, params: unknown[], n: number, timeoutMs = 600_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if ((await count(s, sql, params)) >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${n}: ${sql}`);
}

async function main() {
  const hook = createHttpServer((_req, res) => res.end('{}'));
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const address = hook.address();
  const webhookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  const s = await startTestServer();
  if (process.env.BENCH_TRACE) traceDb(s.db);
  try {
    const botOrg = await createOrganisation(s, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY'),
    });
    const plainOrg = await createOrganisation(s);
    const botCh = await channelOf(botOrg, webhookUrl);
    const plainCh = await channelOf(plainOrg, webhookUrl);
    await withBot(s, botOrg);

    // Open the dialogs (and the plain chats): each client's first message.
    const t0 = performance.now();
    await drive(DIALOGS, CONCURRENCY, (i) => send(s, botCh, i, 'Hi'));
    await drive(DIALOGS, CONCURRENCY, (i) => send(s, plainCh, i, 'Hi'));
    const botReplies = 'select count(*) as n from messages where organisation_id = $1 and bot_id is not null';
    await waitFor(s, botReplies, [botOrg.id], DIALOGS);
    const open = await count(
      s,
      'select count(*) as n from chat_bot_dialogs where organisation_id = $1 and ended_at is null',
      [botOrg.id],
    );
    console.log(`${open} bot dialogs open (set-up ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

    // Baseline: plain messages into open chats without automation.
    const plainIn = "select count(*) as n from messages where organisation_id = $1 and direction = 'in'";
    const b0 = performance.now();
    await drive(MESSAGES, CONCURRENCY, (i) => send(s, plainCh, i % DIALOGS, `plain ${i}`));
    await waitFor(s, plainIn, [plainOrg.id], DIALOGS + MESSAGES);
    const baseline = MESSAGES / ((performance.now() - b0) / 1000);

    // Bot: every message is one engine step and one reply, alternating between the two nodes.
    const before = await count(s, botReplies, [botOrg.id]);
    trace.clear();
    transactions = 0;
    const m0 = performance.now();
    await drive(MESSAGES, CONCURRENCY, (i) =>
      send(s, botCh, i % DIALOGS, Math.floor(i / DIALOGS) % 2 === 0 ? 'Prices' : 'Back'),
    );
    await waitFor(s, botReplies, [botOrg.id], before + MESSAGES);
    const replies = MESSAGES / ((performance.now() - m0) / 1000);
    printTrace(MESSAGES);

    console.log(
      JSON.stringify({
        db: s.databaseUrl ? 'postgres' : 'pglite',
        dialogs: open,
        messages: MESSAGES,
        concurrency: CONCURRENCY,
        botRepliesPerSecond: Math.round(replies),
        baselineMessagesPerSecond: Math.round(baseline),
        ratio: Number((replies / baseline).toFixed(2)),
      }),
    );
  } finally {
    await s.close();
    hook.close();
  }
}

await main();
