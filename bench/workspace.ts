/**
 * Workspace benchmark (`npm run bench:workspace`, not in `npm test`): an organisation with BENCH_CHATS chats (10,000)
 * and BENCH_MESSAGES messages (200,000) seeded in SQL, then over HTTP against an in-process server:
 * - the chat lists: first page and cursor pages (`GET /api/chats?filter=...&limit=50`) for a supervisor (every chat)
 *   and an operator (their own), p50/p95;
 * - extended search (`GET /api/search/messages?q=`) for a common word, a rare word and a Russian word form, p50/p95;
 * - the chat list's quick search over whole conversations (`GET /api/chats?filter=...&q=`) for the same words.
 *
 * Env: BENCH_CHATS, BENCH_MESSAGES, BENCH_RUNS (30), DATABASE_URL (PostgreSQL; unset: embedded PGlite).
 */
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../server/test/helpers.ts';
import { seedWorkspace } from './seed-chats.ts';

const CHATS = Number(process.env.BENCH_CHATS ?? 10_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms`;

async function main() {
  const s = await startTestServer();
  const target = s.databaseUrl ? 'PostgreSQL' : 'PGlite';
  try {
    let t = performance.now();
    const { org, op, channelId } = await seedWorkspace(s, CHATS);
    const seedChats = performance.now() - t;
    t = performance.now();
    const words = `array['заказ', 'заказы', 'доставка', 'доставку', 'оплата', 'возврат', 'спасибо', 'здравствуйте',
      'order', 'orders', 'delivery', 'refund', 'payment', 'hello', 'thanks', 'parcel', 'tracking', 'invoice']`;
    for (let done = 0; done < MESSAGES; done += 100_000) {
      await s.db.query(
        `with a as (select array_agg(id order by id) as ids from chats where organisation_id = $1)
         insert into messages (organisation_id, chat_id, channel_id, direction, text, created_at)
         select $1, a.ids[1 + (g % array_length(a.ids, 1))], $2, case when g % 2 = 0 then 'in' else 'out' end,
                (${words})[1 + (random() * 17)::int] || ' ' || (${words})[1 + (random() * 17)::int] || ' ' ||
                (${words})[1 + (random() * 17)::int] || ' номер ' || g ||
                case when g % 50000 = 7 then ' kaleidoscope' else '' end,
                now() - random() * interval '30 days'
           from a, generate_series($3::int, $4::int) g`,
        [org.id, channelId, done + 1, Math.min(done + 100_000, MESSAGES)],
      );
    }
    await s.db.query('analyze');
    const seedMessages = performance.now() - t;

    const time = async (api: typeof org.admin.api, path: string) => {
      const t0 = performance.now();
      const res = await api.get(path);
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return { ms, entity: res.body.entity };
    };
    const lists: [string, number[], number[]][] = [];
    for (const [who, api] of [
      ['supervisor (all chats)', org.admin.api],
      ['operator (own)', op.api],
    ] as const) {
      for (const filter of ['assigned', 'waiting', 'closed']) {
        const first: number[] = [];
        for (let i = 0; i < RUNS; i++)
          first.push((await time(api, `/api/chats?filter=${filter}&limit=50`)).ms);
        const pages: number[] = [];
        let cursor: string | null = (await time(api, `/api/chats?filter=${filter}&limit=50`)).entity
          .nextCursor;
        for (let i = 0; i < RUNS && cursor; i++) {
          const r = await time(
            api,
            `/api/chats?filter=${filter}&limit=50&cursor=${encodeURIComponent(cursor)}`,
          );
          pages.push(r.ms);
          cursor = r.entity.nextCursor;
        }
        lists.push([`${who}, ${filter}`, first, pages]);
      }
    }
    const searches: [string, number[], number][] = [];
    for (const q of ['order', 'заказы', 'kaleidoscope', 'доставка refund']) {
      const xs: number[] = [];
      let hits = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await time(org.admin.api, `/api/search/messages?q=${encodeURIComponent(q)}`);
        xs.push(r.ms);
        hits = r.entity.items.length;
      }
      searches.push([q, xs, hits]);
    }
    const quick: [string, number[], number][] = [];
    for (const q of ['order', 'заказы', 'kaleidoscope', 'доставка refund']) {
      const xs: number[] = [];
      let hits = 0;
      for (const filter of ['assigned', 'waiting', 'closed'])
        for (let i = 0; i < RUNS / 3; i++) {
          const r = await time(
            org.admin.api,
            `/api/chats?filter=${filter}&limit=50&q=${encodeURIComponent(q)}`,
          );
          xs.push(r.ms);
          hits = Math.max(hits, r.entity.items.length);
        }
      quick.push([q, xs, hits]);
    }
    console.log(`\n## ${target}: ${CHATS} chats, ${MESSAGES} messages`);
    console.log(
      `seed: chats ${(seedChats / 1000).toFixed(1)} s, messages ${(seedMessages / 1000).toFixed(1)} s`,
    );
    console.log('\n| list | first page | next pages (cursor) |\n|---|---|---|');
    for (const [name, first, pages] of lists)
      console.log(`| ${name} | ${fmt(first)} | ${pages.length ? fmt(pages) : '-'} |`);
    console.log('\n| search q | latency | hits on the first page |\n|---|---|---|');
    for (const [q, xs, hits] of searches) console.log(`| ${q} | ${fmt(xs)} | ${hits} |`);
    console.log('\n| chat-list quick search q | latency | most chats on a first page |\n|---|---|---|');
    for (const [q, xs, hits] of quick) console.log(`| ${q} | ${fmt(xs)} | ${hits} |`);
  } finally {
    await s.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
