/**
 * Reports benchmark (`npm run bench:reports`, not in `npm test`): BENCH_CHATS chats (100,000) over 30 days, each with
 * a 'created' history row, half closed (a 'close' row), and BENCH_MESSAGES messages (900,000; in and operators'
 * replies alternating), seeded in SQL; then
 * - the rollup fold of all of it from scratch (`rebuildRollups`, the same code the job runner runs), rows per second;
 * - every report kind (`GET /api/reports/{kind}`: dialogs, summary, channels, employees, teams, time, categories, and
 *   the summary's CSV) for last 30 days and an arbitrary 366-day period, p50/p95. Half the closed chats get a
 *   request category; the operator changes presence 6 times a day over the year (the working-time log).
 *
 * Env: BENCH_CHATS, BENCH_MESSAGES, BENCH_RUNS (30), DATABASE_URL (PostgreSQL; unset: embedded PGlite). The issue's
 * full size is BENCH_CHATS=1000000 BENCH_MESSAGES=10000000 (slow on a shared two-core machine: hours of folding).
 */
import { performance } from 'node:perf_hooks';
import { rebuildRollups } from '../server/src/modules/reports/rollup.ts';
import { startTestServer } from '../server/test/helpers.ts';
import { seedWorkspace } from './seed-chats.ts';

const CHATS = Number(process.env.BENCH_CHATS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 900_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms`;

async function main() {
  const s = await startTestServer();
  s.clock.advance(Date.now() - s.clock.now().getTime());
  const target = s.databaseUrl ? 'PostgreSQL' : 'PGlite';
  try {
    let t = performance.now();
    const step = (what: string) => console.log(`  ${((performance.now() - t) / 1000).toFixed(1)} s: ${what}`);
    const { org, op } = await seedWorkspace(s, CHATS);
    step('chats');
    // Each chat starts at a random moment of the last 30 days; the closed ones close 1..60 minutes later.
    await s.db.query(
      `update chats set created_at = now() - random() * interval '30 days' where organisation_id = $1`,
      [org.id],
    );
    await s.db.query(
      `insert into chat_history (organisation_id, chat_id, kind, to_team_id, created_at)
       select organisation_id, id, 'created', team_id, created_at from chats where organisation_id = $1`,
      [org.id],
    );
    await s.db.query(
      `insert into chat_history (organisation_id, chat_id, kind, from_user_id, created_at)
       select organisation_id, id, 'close', operator_id, created_at + (1 + random() * 59) * interval '1 minute'
         from chats where organisation_id = $1 and status = 'closed'`,
      [org.id],
    );
    const category = await org.admin.api.post('/api/categories', { name: 'Bench category' });
    await s.db.query(
      `insert into chat_history (organisation_id, chat_id, kind, category_id, created_at)
       select organisation_id, id, 'category_set', $2, created_at + interval '30 seconds'
         from chats where organisation_id = $1 and status = 'closed' and random() < 0.5`,
      [org.id, category.body.entity.id],
    );
    // The operator's presence over the year: In work at 09:00, Break 13:00-14:00, offline at 18:00 (UTC).
    await s.db.query(
      `insert into presence_history (organisation_id, user_id, presence, previous, previous_at, created_at)
       select $1, $2, x.presence, x.previous, d + x.prev_h * interval '1 hour' - case when x.prev_h > x.h
                then interval '1 day' else interval '0' end, d + x.h * interval '1 hour'
         from generate_series(date_trunc('day', now()) - interval '365 days', date_trunc('day', now()) - interval '1 day',
                              interval '1 day') d
        cross join (values ('online', 'offline', 9, 18), ('break', 'online', 13, 9), ('online', 'break', 14, 13),
                           ('offline', 'online', 18, 14)) x(presence, previous, h, prev_h)`,
      [org.id, op.id],
    );
    for (let done = 0; done < MESSAGES; done += 100_000) {
      await s.db.query(
        `with c as (select id, channel_id, created_at, row_number() over (order by id) - 1 as k
                      from chats where organisation_id = $1)
         insert into messages (organisation_id, chat_id, channel_id, direction, text, author_id, created_at)
         select $1, c.id, c.channel_id, case when g % 2 = 0 then 'in' else 'out' end, 'bench ' || g,
                case when g % 2 = 0 then null else $2::uuid end, c.created_at + (g % 9) * interval '20 seconds'
           from generate_series($3::int, $4::int) g join c on c.k = g % $5`,
        [org.id, op.id, done + 1, Math.min(done + 100_000, MESSAGES), CHATS],
      );
    }
    await s.db.query('analyze');
    step('messages');
    const seed = performance.now() - t;
    const rows = (await s.db.query<{ n: number }>(`select count(*)::int as n from chat_history`))[0].n;

    t = performance.now();
    await rebuildRollups(s.db, { lagMs: 0 });
    const fold = performance.now() - t;
    const hourly = (await s.db.query<{ n: number }>(`select count(*)::int as n from report_dialog_hourly`))[0]
      .n;

    const time = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${org.admin.token}` } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
      return performance.now() - t0;
    };
    const today = new Date().toISOString().slice(0, 10);
    const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
    const results: [string, number[]][] = [];
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
    const paths: [string, string][] = [
      [
        'dialogs, last 30 days by hour',
        '/api/reports/dialogs?period=last30&groupBy=hour&timeZone=Europe/Moscow',
      ],
    ];
    for (const kind of kinds.filter((k) => !only || only.includes(k))) {
      const extra = kind === 'categories' ? '&includeWithoutCategory=true' : '';
      paths.push([`${kind}, last 30 days`, `/api/reports/${kind}?period=last30${extra}`]);
      paths.push([`${kind}, arbitrary year`, `/api/reports/${kind}?from=${yearAgo}&to=${today}${extra}`]);
    }
    for (const [name, path] of paths) {
      await time(path);
      const xs: number[] = [];
      for (let i = 0; i < RUNS; i++) xs.push(await time(path));
      results.push([name, xs]);
    }
    console.log(`reports bench on ${target}: ${CHATS} chats, ${rows} history rows, ${MESSAGES} messages`);
    console.log(`  seed ${(seed / 1000).toFixed(1)} s`);
    console.log(
      `  fold from scratch: ${(fold / 1000).toFixed(1)} s, ${Math.round(((rows + MESSAGES) / fold) * 1000)} rows/s -> ${hourly} hourly rows`,
    );
    for (const [name, xs] of results) console.log(`  ${name}: ${fmt(xs)}`);
  } catch (err) {
    console.error('reports bench failed:', err);
    process.exitCode = 1;
  } finally {
    await s.close().catch((err) => console.error('close:', err.message));
  }
}

await main();
