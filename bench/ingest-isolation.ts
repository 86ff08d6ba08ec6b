/**
 * Ingest isolation (`npm run bench:ingest-isolation`, issue 29 finding 1): one organisation's clients send names of
 * 10,000 and 200,000 letters through a signed Viber bot webhook while another organisation's API channel sends
 * ordinary messages; prints the other organisation's answer times (p50/p99) before and during the attack and their
 * ratio, on PGlite and (when reachable) PostgreSQL. Then the clients' name key function itself: the previous one
 * (migration 082, created here under another name) against today's, on the same database, per word length.
 *
 * Env: BENCH_TARGETS (pglite,postgres), BENCH_MESSAGES (200: the other organisation's messages per phase),
 * BENCH_ATTACKERS (20 hostile messages per size), DATABASE_URL (PostgreSQL admin URL; default
 * postgres://postgres@127.0.0.1:5432/test).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeViber } from '../server/test/fakes/viber.ts';
import { createOrganisation, startTestServer, type TestServer } from '../server/test/helpers.ts';
import { inbound, makeChannel, makeTeam } from '../server/test/integration/chats-fixtures.ts';

const TARGETS = (process.env.BENCH_TARGETS ?? 'pglite,postgres').split(',');
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200);
const ATTACKERS = Number(process.env.BENCH_ATTACKERS ?? 20);
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((s.length * p) / 100) - 1)];
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function otherOrganisation(s: TestServer, count: number, tag: string): Promise<number[]> {
  const org = await createOrganisation(s);
  const ch = await makeChannel(org, await makeTeam(org));
  const took: number[] = [];
  let next = 0;
  // Four clients writing one after the other, as a small shop's traffic.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const res = await inbound(s, ch, { client: `${tag}-${i % 4}`, text: `${tag} ${i}` });
        if (res.status !== 200) throw new Error(`other organisation: ${res.status}`);
        took.push(performance.now() - t0);
      }
    }),
  );
  return took;
}

async function run(target: string) {
  if (target === 'postgres') process.env.DATABASE_URL = ADMIN_URL;
  else delete process.env.DATABASE_URL;
  const vb = await startFakeViber();
  const s = await startTestServer({ env: { VIBER_API_BASE_URL: vb.baseUrl } });
  vb.reach = (url) => url.replace('http://localhost:3000', s.url);
  try {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const created = await org.admin.api.post('/api/channels', {
      type: 'viber_bot',
      name: 'Viber',
      teamId,
      token: vb.token,
    });
    if (created.status !== 200) throw new Error(JSON.stringify(created.body));
    const hook = `${s.url}/api/webhooks/viber_bot/${created.body.entity.id}`;
    await otherOrganisation(s, 20, 'warm');
    const base = await otherOrganisation(s, MESSAGES, 'base');
    console.log(
      `\n[${target}] other organisation alone: p50 ${fmt(pct(base, 50))}, p99 ${fmt(pct(base, 99))}`,
    );
    for (const letters of [10_000, 200_000]) {
      let answered = 0;
      const t0 = performance.now();
      const attack = (async () => {
        for (let i = 0; i < ATTACKERS; i++) {
          const status = await vb.deliver(
            hook,
            vb.message(
              { id: `hostile-${letters}-${i}=`, name: 'ж'.repeat(letters) },
              { type: 'text', text: 'hi' },
            ),
          );
          if (status === 200) answered++;
        }
      })();
      const during = await otherOrganisation(s, MESSAGES, `during-${letters}`);
      await attack;
      const attackMs = performance.now() - t0;
      console.log(
        `[${target}] ${ATTACKERS} names of ${letters} letters (${answered} answered 200 in ${fmt(attackMs)}): ` +
          `other organisation p50 ${fmt(pct(during, 50))}, p99 ${fmt(pct(during, 99))}; ` +
          `p99 ratio to alone ${(pct(during, 99) / pct(base, 99)).toFixed(2)}`,
      );
    }
    const t1 = performance.now();
    const merge = await org.admin.api.get('/api/clients/merge/suggestions');
    console.log(
      `[${target}] merge suggestions afterwards: ${merge.status} in ${fmt(performance.now() - t1)}`,
    );

    // The name key function alone: migration 082's against today's, per word length.
    const previous = readFileSync(
      join(import.meta.dirname, '../server/src/db/migrations/082_client_name_key.sql'),
      'utf8',
    )
      .replace('create function client_name_key(', 'create or replace function client_name_key_082(')
      .replace(/create index[^;]*;/, '');
    await s.db.exec(previous);
    for (const letters of [1_000, 8_000]) {
      const word = Array.from(
        { length: letters },
        (_, i) => 'абвгдежзиклмнопрстуфхцчшщыэюя'[(i * 7) % 29],
      ).join('');
      const time = async (fn: string) => {
        const t = performance.now();
        await s.db.query(`select ${fn}($1)`, [word]);
        return performance.now() - t;
      };
      const old = await time('client_name_key_082');
      const now = await time('client_name_key');
      console.log(
        `[${target}] name key of one ${letters}-letter word: previous ${fmt(old)}, now ${fmt(now)} (ratio ${(now / old).toFixed(3)})`,
      );
    }
  } finally {
    await s.close();
    await vb.close();
  }
}

for (const target of TARGETS) {
  try {
    await run(target);
  } catch (err) {
    console.log(`[${target}] not run: ${(err as Error).message}`);
  }
}
