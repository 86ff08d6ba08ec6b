/**
 * Reports benchmark (`npm run bench:reports`, not in `npm test`): BENCH_CHATS chats (100,000) over 30 days, each with
 * a 'created' history row, half closed (a 'close' row), and BENCH_MESSAGES messages (900,000; in and operators'
 * replies alternating), seeded in SQL; then
 * - the rollup fold of all of it from scratch (`rebuildRollups`, the same code the job runner runs), rows per second;
 * - `GET /api/reports/dialogs` for last 30 days by day and by hour, and an arbitrary 366-day period, p50/p95.
 *
 * Env: BENCH_CHATS, BENCH_MESSAGES, BENCH_RUNS (30), DATABASE_URL (PostgreSQL; unset: embedded PGlite).
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
      const res = await org.admin.api.get(path);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return performance.now() - t0;
    };
    const today = new Date().toISOString().slice(0, 10);
    const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
    const results: [string, number[]][] = [];
    for (const [name, path] of [
      ['last 30 days by day', '/api/reports/dialogs?period=last30&timeZone=Europe/Moscow'],
      ['last 30 days by hour', '/api/reports/dialogs?period=last30&groupBy=hour&timeZone=Europe/Moscow'],
      ['arbitrary year by day', `/api/reports/dialogs?from=${yearAgo}&to=${today}&timeZone=Europe/Moscow`],
    ]) {
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
