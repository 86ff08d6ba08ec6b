/**
 * Event webhooks (issue 34), on PostgreSQL, the server in-process with its job runner as in production:
 * BENCH_RATE (1,000) events a second for BENCH_SECONDS (20), committed by BENCH_TX_EVENTS (10) per transaction
 * through the same `commitWithEvents` + `publishCommitted` path as commands, fanned out to BENCH_ENDPOINTS (10)
 * endpoints (local receivers answering 200 at once). The lag of one delivery is the time from its event's commit
 * to the receiver reading the request; target p99 < 1 s. Also reported: deliveries that never arrived, duplicates.
 *
 * Env: DATABASE_URL (the server to make a fresh database on), BENCH_RATE, BENCH_SECONDS, BENCH_ENDPOINTS,
 * BENCH_TX_EVENTS. Run: `node --import tsx bench/webhooks.ts`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commitWithEvents, publishCommitted } from '../server/src/realtime/emit.ts';
import { startBenchServer } from './bench-server.ts';

const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 10);
const TX_EVENTS = Number(process.env.BENCH_TX_EVENTS ?? 10);

const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

async function main() {
  const committedAt = new Map<string, number>();
  const lags: number[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const at = performance.now();
      const id = String(JSON.parse(body).id);
      const key = `${req.url}:${id}`;
      if (seen.has(key)) duplicates++;
      else {
        seen.add(key);
        const from = committedAt.get(id);
        if (from !== undefined) lags.push(at - from);
      }
      res.writeHead(200).end('ok');
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;

  const bench = await startBenchServer({ pool: 20 });
  const { server, call, orgId } = bench;
  try {
    for (let i = 0; i < ENDPOINTS; i++)
      await call('POST', '/api/integrations/webhooks', {
        url: `http://127.0.0.1:${port}/endpoint-${i}`,
        eventTypes: ['message.created'],
      });
    const app = server.app;
    const perTick = Math.max(1, Math.round(RATE / 100));
    const total = RATE * SECONDS;
    let emitted = 0;
    const started = performance.now();
    const inFlight = new Set<Promise<void>>();
    for (let tick = 0; emitted < total; tick++) {
      // 100 ticks a second, each committing perTick events in transactions of TX_EVENTS.
      const due = started + tick * 10;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      for (let made = 0; made < perTick && emitted < total; made += TX_EVENTS) {
        const n = Math.min(TX_EVENTS, perTick - made, total - emitted);
        emitted += n;
        const p = (async () => {
          const { emitted: events } = await commitWithEvents(app, async (_q, emit) => {
            for (let k = 0; k < n; k++)
              await emit(orgId, 'message.created', { id: `bench-${emitted}-${k}`, text: 'Hello' }, {});
          });
          const at = performance.now();
          for (const e of events) committedAt.set(e.id, at);
          await publishCommitted(app, events);
        })().finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
    }
    await Promise.all(inFlight);
    const emitSeconds = (performance.now() - started) / 1000;
    const expected = total * ENDPOINTS;
    const end = Date.now() + 120_000;
    while (seen.size < expected && Date.now() < end) await sleep(200);
    const drainSeconds = (performance.now() - started) / 1000;
    lags.sort((a, b) => a - b);
    const ms = (v: number | undefined) => `${(v ?? Number.NaN).toFixed(0)} ms`;
    console.log(
      JSON.stringify(
        {
          events: total,
          endpoints: ENDPOINTS,
          eventsPerSecond: Math.round(total / emitSeconds),
          deliveries: expected,
          received: seen.size,
          missing: expected - seen.size,
          duplicates,
          drainSeconds: Number(drainSeconds.toFixed(1)),
          lag: {
            p50: ms(pct(lags, 50)),
            p95: ms(pct(lags, 95)),
            p99: ms(pct(lags, 99)),
            max: ms(lags.at(-1)),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await bench.close();
    receiver.closeAllConnections();
    receiver.close();
  }
}

await main();
