import { createOrganisation, startTestServer } from '../server/test/helpers.ts';

/**
 * Monitoring snapshots over a large organisation: `BENCH_CHATS` chats (default 1,000,000; 99 % closed, the rest
 * Waiting or In progress), then each `GET /api/monitoring/{view}` BENCH_RUNS times (default 30): p50 and p95, and
 * the plan of the channels query (it must read the open chats by index, not the closed ones).
 * Runs on DATABASE_URL (PostgreSQL) or, without it, PGlite.
 */
const CHATS = Number(process.env.BENCH_CHATS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const s = await startTestServer();
try {
  const org = await createOrganisation(s);
  const team = await org.admin.api.post('/api/teams', { name: 'Bench', description: 'Bench', memberIds: [] });
  const teamId = team.body.entity.id as string;
  const op = await org.user({ teams: [teamId], name: 'Operator' });
  const channels: string[] = [];
  for (let i = 0; i < 20; i++) {
    const ch = await org.admin.api.post('/api/channels', {
      type: 'api',
      name: `Bench ${i}`,
      teamId,
      webhookUrl: 'http://127.0.0.1:9/none',
    });
    channels.push(ch.body.entity.id);
  }
  const t0 = performance.now();
  await s.db.query(
    `with c as (
       insert into clients (id, organisation_id, name)
       select uuid_generate_v7(), $1, 'Client ' || g from generate_series(1, $4::int) g returning id, name
     ), ct as (
       insert into contacts (organisation_id, channel_id, client_id, external_id, name)
       select $1, ($2::uuid[])[1 + abs(hashtext(c.name)) % 20], c.id, c.name, c.name from c
       returning id, client_id, channel_id
     )
     insert into chats (organisation_id, channel_id, client_id, contact_id, team_id, status, operator_id, assigned_at,
                        closed_at, unanswered_since, created_at)
     select $1, ct.channel_id, ct.client_id, ct.id, $3, st, case when st = 'waiting' then null else $5::uuid end,
            case when st = 'waiting' then null else now() end, case when st = 'closed' then now() end,
            case when st = 'waiting' then now() - random() * interval '2 hours' end, now() - interval '31 days'
       from (select ct.*, case when r < 0.005 then 'waiting' when r < 0.01 then 'in_progress' else 'closed' end as st
               from (select ct.*, random() as r from ct) ct) ct`,
    [org.id, channels, teamId, CHATS, op.id],
  );
  await s.db.query('analyze chats');
  console.log(`seeded ${CHATS} chats in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const plan = await s.db.query<{ 'QUERY PLAN': string }>(
    `explain select count(*) from chats c where c.organisation_id = $1 and c.status in ('waiting', 'in_progress')`,
    [org.id],
  );
  console.log(plan.map((r) => r['QUERY PLAN']).join('\n'));
  for (const view of ['channels', 'teams', 'operators', 'abonents']) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const res = await org.admin.api.get(`/api/monitoring/${view}`);
      times.push(performance.now() - start);
      rows = res.body.entity.rows.length;
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
    console.log(`${view}: ${rows} rows, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms`);
  }
} finally {
  await s.close();
}
