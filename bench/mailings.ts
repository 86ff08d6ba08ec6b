/**
 * Mailings (issue 33), on PostgreSQL, the server in-process with its job runner as in production:
 * 1. planning: BENCH_RECIPIENTS (100,000) contacts of an API channel; the live count, then the start (the audience
 *    query, one contact per client, the skip rules, the recipients' rows in one statement), timed, with the server's
 *    RSS before and after (planning is streamed by the database, nothing is loaded in the process);
 * 2. sending with no rate limit: for BENCH_SECONDS (15) the channel's sender writes and delivers to the API
 *    channel's webhook (a local endpoint answering 200): messages a second received there; then the mailing is
 *    cancelled. Baseline in the same run: the same number of those messages' outbox rows made due again and
 *    delivered by the plain outbox dispatcher (drainOutbox): rows a second;
 * 3. with a rate: mailings at 30/s (Telegram's documented limit) and 80/s (WhatsApp's) for BENCH_RATE_SECONDS (10)
 *    each: the average rate received and the most in any one-second window, against the limit.
 *
 * Env: DATABASE_URL (the server to make a fresh database on), BENCH_RECIPIENTS, BENCH_SECONDS, BENCH_RATE_SECONDS,
 * BENCH_POOL (10).
 */
import { performance } from 'node:perf_hooks';
import { drainOutbox } from '../server/src/jobs/outbox.ts';
import { startWebhookReceiver } from '../server/test/fakes/webhook.ts';
import { startBenchServer } from './bench-server.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 10);
const POOL = Number(process.env.BENCH_POOL ?? 10);

const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

/** The most arrivals in any one-second window. */
function busiestSecond(times: number[]): number {
  let most = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while (times[i] - times[j] >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

async function main() {
  const hook = await startWebhookReceiver();
  // No limit for the API channel (the tenant's own endpoint): each phase sets its mailing's rate.
  const bench = await startBenchServer({ env: { MAILING_RATE_LIMITS: 'api=0' }, pool: POOL });
  const { db, server } = bench;
  const call = (_base: string, method: string, path: string, _token: string, body?: unknown) =>
    bench.call(method, path, body);
  const base = bench.base;
  const token = bench.token;
  const org = { id: bench.orgId };
  try {
    const team = await call(base, 'POST', '/api/teams', token, { name: 'Bench', description: 'bench' });
    const channel = await call(base, 'POST', '/api/channels', token, {
      type: 'api',
      name: 'Bench API',
      teamId: team.id,
      webhookUrl: hook.url,
    });
    // The audience: RECIPIENTS clients, each with a contact on the channel (as many clients who once wrote).
    let t = performance.now();
    await db.query(
      `with c as (
         insert into clients (id, organisation_id, name)
         select uuid_generate_v7(), $1, 'Client ' || i from generate_series(1, $3::int) i returning id, name
       )
       insert into contacts (organisation_id, channel_id, client_id, external_id, name)
       select $1, $2, c.id, 'ext-' || c.name, c.name from c`,
      [org.id, channel.id, RECIPIENTS],
    );
    await db.query('analyze');
    console.log(
      `${RECIPIENTS} clients and contacts made in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    // 1. Planning.
    t = performance.now();
    const count = await call(base, 'POST', '/api/mailings/audience-count', token, { channelId: channel.id });
    console.log(`live count: ${count.total} contacts in ${((performance.now() - t) / 1000).toFixed(2)} s`);
    const mailing = await call(base, 'POST', '/api/mailings', token, {
      name: 'Bench',
      channelId: channel.id,
      marketingType: 'service',
      text: 'Hello {client_name}',
    });
    // The sender starts at once; pause it on the same instant so phase 2 times sending alone.
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    t = performance.now();
    await call(base, 'POST', `/api/mailings/${mailing.id}/start`, token);
    const planned = (performance.now() - t) / 1000;
    await call(base, 'POST', `/api/mailings/${mailing.id}/pause`, token);
    const rssAfter = process.memoryUsage().rss;
    const { n: recipients } = (
      await db.query<{ n: number }>(
        'select count(*)::int as n from mailing_recipients where mailing_id = $1',
        [mailing.id],
      )
    )[0];
    console.log(
      `planning ${recipients} recipients (start): ${planned.toFixed(2)} s (target < 10 s: ${planned < 10 ? 'met' : 'NOT met'}); RSS ${mb(rssBefore)} -> ${mb(rssAfter)}`,
    );
    await sleep(1500);

    // 2. Sending with no limit.
    const from = hook.hits.length;
    await call(base, 'POST', `/api/mailings/${mailing.id}/resume`, token);
    await sleep(SECONDS * 1000);
    await call(base, 'POST', `/api/mailings/${mailing.id}/pause`, token);
    await sleep(2000);
    const sent = hook.hits.slice(from);
    const span = (sent.at(-1)!.at - sent[0].at) / 1000;
    const mailingRate = sent.length / span;
    console.log(
      `sending, no limit: ${sent.length} received in ${span.toFixed(1)} s = ${mailingRate.toFixed(0)}/s`,
    );
    await call(base, 'POST', `/api/mailings/${mailing.id}/cancel`, token);

    // Baseline: the same messages' outbox rows due again, delivered by the plain dispatcher.
    const rows = sent.length;
    await db.query(
      `update outbox set status = 'pending', attempts = 0, next_attempt_at = now() - interval '1 second'
        where id in (select o.id from outbox o join mailing_recipients r on r.message_id = o.message_id
                      where r.mailing_id = $1 limit $2)`,
      [mailing.id, rows],
    );
    const baseFrom = hook.hits.length;
    t = performance.now();
    await drainOutbox(server.app);
    const baseSeconds = (performance.now() - t) / 1000;
    const baseRate = (hook.hits.length - baseFrom) / baseSeconds;
    console.log(
      `baseline, plain outbox dispatch of ${hook.hits.length - baseFrom} rows: ${baseSeconds.toFixed(1)} s = ${baseRate.toFixed(0)}/s`,
    );
    console.log(
      `ratio mailing/outbox: ${(mailingRate / baseRate).toFixed(2)}; target >= 1,000/s: ${mailingRate >= 1000 ? 'met' : 'NOT met'}`,
    );

    // 3. With a rate.
    for (const rate of [30, 80]) {
      const m = await call(base, 'POST', '/api/mailings', token, {
        name: `Rate ${rate}`,
        channelId: channel.id,
        marketingType: 'service',
        text: 'Hi',
        ratePerSecond: rate,
        audience: { list: Array.from({ length: rate * RATE_SECONDS * 2 }, (_, i) => `ext-Client ${i + 1}`) },
      });
      const start = hook.hits.length;
      await call(base, 'POST', `/api/mailings/${m.id}/start`, token);
      await sleep(RATE_SECONDS * 1000);
      await call(base, 'POST', `/api/mailings/${m.id}/cancel`, token);
      await sleep(1500);
      const times = hook.hits.slice(start).map((h) => h.at);
      const avg = (times.length - 1) / ((times.at(-1)! - times[0]) / 1000);
      const most = busiestSecond(times);
      console.log(
        `rate ${rate}/s: ${times.length} sent, average ${avg.toFixed(1)}/s (${((avg / rate) * 100).toFixed(1)}% of the limit; target 95-100%: ${avg >= rate * 0.95 && avg <= rate ? 'met' : 'NOT met'}), busiest second ${most} (never above: ${most <= rate ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await bench.close();
    await hook.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
