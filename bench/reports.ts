/**
 * Reports benchmark (`npm run bench:reports`, not in `npm test`; PostgreSQL only: `DATABASE_URL`, a fresh database
 * is created on it and dropped at the end). The issue's size by default: BENCH_CHATS (1,000,000) chats spread over
 * the last year and BENCH_MESSAGES (10,000,000) messages, BENCH_OPERATORS (10) operators of one team, two API
 * channels, written with `COPY ... FROM STDIN` through the pg driver (bench/copy-in.ts). Each chat: a 'created'
 * history row, its messages (client and operator alternating, 20 s apart), closed 1-60 minutes after its last
 * message (the last few minutes' chats stay In progress), 5% transferred, half of the closed with a request
 * category, a fifth rated 1-5; each operator's presence over the year (In work 09:00, Break 13-14, offline 18:00).
 * Then:
 * - the rollups built from history with `rebuildRollups` (set-based, the `npm run reports:rebuild` path);
 * - every report kind (`GET /api/reports/{kind}`) for 'last 30 days' and an arbitrary 366-day period, BENCH_RUNS
 *   (30) times each, p50/p95, and the ratio to a baseline timed in the same run: `GET /api/organisation` (an
 *   authenticated request reading one row);
 * - the rollup lag at BENCH_LAG_RATE (1,000) messages a second for BENCH_LAG_SECONDS (20): client messages
 *   inserted into the newest chats in SQL (10 per transaction every 10 ms, up to 8 transactions at once) while the server's own
 *   job runner folds; lag = from the transaction's COMMIT answered to the rollup cursor (moved in the same
 *   transaction as the rollup's figures) passing the message.
 * BENCH_KINDS=summary,time picks report kinds.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { rebuildRollups } from '../server/src/modules/reports/rollup-rebuild.ts';
import { createOrganisation, startTestServer } from '../server/test/helpers.ts';
import { chunked, copyIn } from './copy-in.ts';

const CHATS = Number(process.env.BENCH_CHATS ?? 1_000_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000_000);
const OPERATORS = Number(process.env.BENCH_OPERATORS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const LAG_RATE = Number(process.env.BENCH_LAG_RATE ?? 1_000);
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 20);
const DAY = 86_400_000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms`;

/** A uuid v7 of instant `t` (ms), unique by (tag, i, j): the same chat gives the same ids in every table's pass. */
function id7(t: number, tag: number, i: number, j = 0): string {
  const h = Math.floor(t).toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8)}-7${tag}${(j >> 12).toString(16).padStart(2, '0')}-8${(j & 0xfff)
    .toString(16)
    .padStart(3, '0')}-${i.toString(16).padStart(12, '0')}`;
}
/** A deterministic generator per chat (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const iso = (t: number) => new Date(t).toISOString();

type Ctx = { org: string; team: string; ops: string[]; channels: string[]; category: string; now: number };
/** Everything about chat i, the same on each pass. */
function chat(c: Ctx, i: number) {
  const r = rng(i + 1);
  const start = c.now - 365 * DAY;
  const t0 = start + ((i + r()) * (365 * DAY - 3_600_000)) / CHATS;
  const n = Math.floor(((i + 1) * MESSAGES) / CHATS) - Math.floor((i * MESSAGES) / CHATS);
  const times: number[] = [];
  for (let j = 0; j < n; j++) times.push(t0 + 5_000 + j * 20_000 + Math.floor(r() * 15_000));
  const last = times.length ? times[times.length - 1] : t0;
  const closeAt = last + 60_000 + Math.floor(r() * 59 * 60_000);
  const closed = closeAt < c.now - 60_000;
  return {
    r,
    t0,
    times,
    closeAt,
    closed,
    op: c.ops[i % c.ops.length],
    channel: c.channels[i % c.channels.length],
    client: id7(t0, 1, i),
    contact: id7(t0, 2, i),
    chat: id7(t0, 3, i),
  };
}
const N = '\\N';
function* rows(c: Ctx, line: (c: Ctx, i: number) => string) {
  for (let i = 0; i < CHATS; i++) yield line(c, i);
}
const clientLine = (c: Ctx, i: number) => {
  const x = chat(c, i);
  return `${x.client}\t${c.org}\tClient ${i}\n`;
};
const contactLine = (c: Ctx, i: number) => {
  const x = chat(c, i);
  return `${x.contact}\t${c.org}\t${x.channel}\t${x.client}\tc${i}\tClient ${i}\n`;
};
const chatLine = (c: Ctx, i: number) => {
  const x = chat(c, i);
  const lastAt = x.times.length ? x.times[x.times.length - 1] : x.t0;
  return [
    x.chat,
    c.org,
    x.channel,
    x.client,
    x.contact,
    c.team,
    x.closed ? 'closed' : 'in_progress',
    x.op,
    iso(x.t0 + 1_000),
    x.closed ? iso(x.closeAt) : N,
    iso(lastAt),
    'last words',
    iso(x.t0),
    iso(x.closed ? x.closeAt : lastAt),
  ].join('\t');
};
const historyLine = (c: Ctx, i: number) => {
  const x = chat(c, i);
  // id, organisation_id, chat_id, kind, from_user_id, to_user_id, from_team_id, to_team_id, category_id, score, created_at
  const h = (t: number, j: number, kind: string, rest: string[]) =>
    [id7(t, 4, i, j), c.org, x.chat, kind, ...rest, iso(t)].join('\t');
  const out = [h(x.t0, 0, 'created', [N, N, N, c.team, N, N])];
  if (x.r() < 0.05) out.push(h(x.t0 + 10_000, 1, 'transfer', [x.op, x.op, c.team, c.team, N, N]));
  if (x.closed) {
    if (x.r() < 0.5) out.push(h(x.t0 + 30_000, 2, 'category_set', [N, N, N, N, c.category, N]));
    out.push(h(x.closeAt, 3, 'close', [x.op, N, c.team, N, N, N]));
    if (x.r() < 0.2)
      out.push(h(x.closeAt + 30_000, 4, 'rated', [N, N, N, N, N, String(1 + Math.floor(x.r() * 5))]));
  }
  return `${out.join('\n')}\n`;
};
const messageLine = (c: Ctx, i: number) => {
  const x = chat(c, i);
  // id, organisation_id, chat_id, channel_id, direction, text, author_id, created_at
  return x.times
    .map((t, j) =>
      [
        id7(t, 5, i, j),
        c.org,
        x.chat,
        x.channel,
        j % 2 ? 'out' : 'in',
        `bench ${i} ${j}`,
        j % 2 ? x.op : N,
        `${iso(t)}\n`,
      ].join('\t'),
    )
    .join('');
};

async function main() {
  if (!process.env.DATABASE_URL) {
    console.error(
      'bench/reports.ts needs DATABASE_URL (PostgreSQL): COPY and the set-based rebuild are its subject',
    );
    process.exit(2);
  }
  const s = await startTestServer();
  s.clock.advance(Date.now() - s.clock.now().getTime());
  const raw = new pg.Client({ connectionString: s.databaseUrl });
  await raw.connect();
  try {
    const org = await createOrganisation(s);
    const team = await org.admin.api.post('/api/teams', {
      name: 'Bench',
      description: 'Bench',
      memberIds: [],
    });
    const teamId = team.body.entity.id as string;
    const ops: string[] = [];
    for (let k = 0; k < OPERATORS; k++)
      ops.push((await org.user({ teams: [teamId], name: `Operator ${k}` })).id);
    const channels: string[] = [];
    for (const name of ['Site', 'Shop']) {
      const ch = await org.admin.api.post('/api/channels', {
        type: 'api',
        name,
        teamId,
        webhookUrl: 'http://127.0.0.1:9/none',
      });
      channels.push(ch.body.entity.id as string);
    }
    const category = await org.admin.api.post('/api/categories', { name: 'Bench category' });
    const ctx: Ctx = {
      org: org.id,
      team: teamId,
      ops,
      channels,
      category: category.body.entity.id,
      now: Date.now(),
    };
    // The server's job runner folds each second: park the cursors past every id until the rebuild sets them.
    await raw.query(`update report_cursors set last_id = 'ffffffff-ffff-ffff-ffff-ffffffffffff'`);

    // Generation: COPY with the foreign-key triggers off (the rows are consistent by construction) and the message
    // indexes built once afterwards; the full-text search index is left out (not read by reports; see README).
    let t = performance.now();
    const step = (what: string) => console.log(`  ${((performance.now() - t) / 1000).toFixed(1)} s: ${what}`);
    await raw.query(`set session_replication_role = replica`);
    await raw.query(`drop index messages_chat_idx, messages_org_created_idx, messages_fts_idx`);
    const copied: Record<string, number> = {};
    for (const [table, cols, line] of [
      ['clients', 'id, organisation_id, name', clientLine],
      ['contacts', 'id, organisation_id, channel_id, client_id, external_id, name', contactLine],
      [
        'chats',
        'id, organisation_id, channel_id, client_id, contact_id, team_id, status, operator_id, assigned_at, closed_at, last_message_at, last_message_text, created_at, updated_at',
        (c: Ctx, i: number) => `${chatLine(c, i)}\n`,
      ],
      [
        'chat_history',
        'id, organisation_id, chat_id, kind, from_user_id, to_user_id, from_team_id, to_team_id, category_id, score, created_at',
        historyLine,
      ],
      [
        'messages',
        'id, organisation_id, chat_id, channel_id, direction, text, author_id, created_at',
        messageLine,
      ],
    ] as const) {
      copied[table] = await copyIn(raw, `copy ${table} (${cols}) from stdin`, chunked(rows(ctx, line)));
      step(`${table}: ${copied[table]} rows`);
    }
    await raw.query(`set session_replication_role = origin`);
    const copyMs = performance.now() - t;
    await raw.query(`create index messages_chat_idx on messages (chat_id, created_at, id)`);
    await raw.query(`create index messages_org_created_idx on messages (organisation_id, created_at, id)`);
    step('message indexes');
    for (const op of ops)
      await raw.query(
        `insert into presence_history (organisation_id, user_id, presence, previous, previous_at, created_at)
         select $1, $2, x.presence, x.previous, d + x.prev_h * interval '1 hour' - case when x.prev_h > x.h
                  then interval '1 day' else interval '0' end, d + x.h * interval '1 hour'
           from generate_series(date_trunc('day', now()) - interval '365 days',
                                date_trunc('day', now()) - interval '1 day', interval '1 day') d
          cross join (values ('online', 'offline', 9, 18), ('break', 'online', 13, 9), ('online', 'break', 14, 13),
                             ('offline', 'online', 18, 14)) x(presence, previous, h, prev_h)`,
        [org.id, op],
      );
    await raw.query('analyze');
    step('presence, analyze');
    const generateMs = performance.now() - t;

    t = performance.now();
    await rebuildRollups(s.db);
    const rebuildMs = performance.now() - t;
    const size = async (table: string) =>
      (await raw.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0].n;
    const rollupRows = {
      dialogs: await size('report_dialog_hourly'),
      durations: await size('report_duration_hist'),
      presence: await size('report_presence_hourly'),
      categories: await size('report_category_hourly'),
    };

    const time = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${org.admin.token}` } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
      return performance.now() - t0;
    };
    const today = new Date().toISOString().slice(0, 10);
    const yearAgo = new Date(Date.now() - 365 * DAY).toISOString().slice(0, 10);
    const kinds = [
      'dialogs',
      'summary',
      'summary/export',
      'channels',
      'employees',
      'teams',
      'time',
      'categories',
    ];
    const only = process.env.BENCH_KINDS?.split(',');
    const paths: [string, string][] = [['baseline: GET /api/organisation', '/api/organisation']];
    paths.push(['dialogs, last 30 days by hour', '/api/reports/dialogs?period=last30&groupBy=hour']);
    for (const kind of kinds.filter((k) => !only || only.includes(k))) {
      const extra = kind === 'categories' ? '&includeWithoutCategory=true' : '';
      paths.push([`${kind}, last 30 days`, `/api/reports/${kind}?period=last30${extra}`]);
      paths.push([`${kind}, arbitrary year`, `/api/reports/${kind}?from=${yearAgo}&to=${today}${extra}`]);
    }
    const results: [string, number[]][] = [];
    for (const [name, path] of paths) {
      await time(path);
      const xs: number[] = [];
      for (let i = 0; i < RUNS; i++) xs.push(await time(path));
      results.push([name, xs]);
    }

    const lag = await measureLag(s.databaseUrl as string, org.id, channels[0]);

    console.log(
      `reports bench on PostgreSQL: ${CHATS} chats, ${MESSAGES} messages over a year, ${OPERATORS} operators`,
    );
    console.log(
      `  generation (COPY): ${(copyMs / 1000).toFixed(1)} s; with message indexes, presence and analyze ${(generateMs / 1000).toFixed(1)} s; rows ${JSON.stringify(copied)}`,
    );
    console.log(
      `  rollups from history (rebuildRollups): ${(rebuildMs / 1000).toFixed(1)} s, ${Math.round(((copied.chat_history + copied.messages) / rebuildMs) * 1000)} rows/s -> ${JSON.stringify(rollupRows)}`,
    );
    const base = pct(results[0][1], 50);
    for (const [name, xs] of results)
      console.log(`  ${name}: ${fmt(xs)} (p50 x${(pct(xs, 50) / base).toFixed(1)} baseline)`);
    console.log(
      `  rollup lag at ${lag.rate.toFixed(0)} msg/s for ${LAG_SECONDS} s (${lag.sent} messages, ${lag.behind} ticks skipped): ${fmt(lag.lags)}, max ${Math.max(...lag.lags).toFixed(0)} ms; commit ${fmt(lag.commits)} (baseline)`,
    );
  } catch (err) {
    console.error('reports bench failed:', err);
    process.exitCode = 1;
  } finally {
    await raw.end().catch(() => undefined);
    await s.close().catch((err) => console.error('close:', err.message));
  }
}

/** Inserts client messages into the newest chats at LAG_RATE a second; the server's runner folds them meanwhile. */
async function measureLag(url: string, org: string, channel: string) {
  const pool = new pg.Pool({ connectionString: url, max: 9 });
  const open = (
    await pool.query<{ id: string }>(
      `select id from chats where organisation_id = $1 and channel_id = $2 order by created_at desc limit 1000`,
      [org, channel],
    )
  ).rows.map((r) => r.id);
  try {
    return await ingest(pool, org, channel, open);
  } finally {
    await pool.end();
  }
}

async function ingest(pool: pg.Pool, org: string, channel: string, open: string[]) {
  const PER_TX = 10;
  const tickMs = (1000 * PER_TX) / LAG_RATE;
  const pending: { id: string; at: number }[] = [];
  const lags: number[] = [];
  const commits: number[] = [];
  let sent = 0;
  let behind = 0;
  let inFlight = 0;
  let stop = false;
  let stopAt = 0;
  const watcher = (async () => {
    while (!stop || pending.length) {
      const { rows } = await pool.query<{ last_id: string }>(
        `select last_id from report_cursors where source = 'messages'`,
      );
      const now = performance.now();
      while (pending.length && pending[0].id <= rows[0].last_id)
        lags.push(now - (pending.shift()?.at ?? now));
      await new Promise((r) => setTimeout(r, 20));
      if (stop && performance.now() - stopAt > 30_000) break;
    }
  })();
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let k = 0; performance.now() - started < LAG_SECONDS * 1000 && open.length; k++) {
    const due = started + k * tickMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (inFlight >= 8) {
      behind++;
      continue;
    }
    inFlight++;
    const chats = Array.from({ length: PER_TX }, (_, j) => open[(k * PER_TX + j) % open.length]);
    sends.push(
      (async () => {
        const t0 = performance.now();
        const { rows } = await pool.query<{ id: string }>(
          `insert into messages (organisation_id, chat_id, channel_id, direction, text)
           select $1, unnest($2::uuid[]), $3, 'in', 'lag probe' returning id`,
          [org, chats, channel],
        );
        const at = performance.now();
        commits.push(at - t0);
        sent += rows.length;
        const last = rows.map((r) => r.id).sort()[rows.length - 1];
        // Kept in id order: the cursor passes ids in order.
        let i = pending.length;
        while (i > 0 && pending[i - 1].id > last) i--;
        pending.splice(i, 0, { id: last, at });
        inFlight--;
      })(),
    );
  }
  await Promise.all(sends);
  const rate = sent / ((performance.now() - started) / 1000);
  stop = true;
  stopAt = performance.now();
  await watcher;
  if (pending.length) console.log(`  ${pending.length} probes not folded within 30 s`);
  return { lags, commits, sent, behind, rate };
}

await main();
