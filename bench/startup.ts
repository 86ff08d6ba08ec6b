/**
 * Start-up benchmark (`npm run bench:startup`, issue 31): how long from `node` starting to `/api/health` answering
 * 200, and the resident memory once idle, for the compiled release (`node dist/server/src/main.js`, built first by
 * scripts/release.mjs) against the previous way in the same run (`node --import tsx server/src/main.ts`, TypeScript
 * transpiled at run time), on the embedded database with an existing data folder and on PostgreSQL with an existing
 * database. Each way is started BENCH_RUNS times (default 5) per database, alternating; medians are printed with
 * the ratio release / previous. Targets: < 2 s on PostgreSQL, < 3 s embedded, idle RSS < 250 MB on PostgreSQL.
 *
 * Env: BENCH_RUNS (5), DATABASE_URL (admin connection; default postgres://postgres@127.0.0.1:5432/test),
 * BENCH_IDLE_SECONDS (how long after healthy the RSS is read; default 5).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const WAYS = {
  previous: ['--import', 'tsx', join(root, 'server/src/main.ts')],
  release: [join(root, 'dist/server/src/main.js')],
} as const;
type Way = keyof typeof WAYS;

const freePort = () =>
  new Promise<number>((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });

const rssOf = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
};

async function startOnce(way: Way, env: Record<string, string>): Promise<{ ms: number; rssMb: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, WAYS[way], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (performance.now() - t0 > 120_000) throw new Error(`${way}: not healthy within 2 minutes`);
      const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
      if (res?.ok) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = performance.now() - t0;
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    return { ms, rssMb: rssOf(child.pid ?? 0) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(label: string, env: Record<string, string>) {
  // The first start creates the database (migrations, demo seed): not counted.
  await startOnce('release', env);
  const times: Record<Way, number[]> = { previous: [], release: [] };
  const rss: Record<Way, number[]> = { previous: [], release: [] };
  for (let i = 0; i < RUNS; i++)
    for (const way of (i % 2 ? ['release', 'previous'] : ['previous', 'release']) as Way[]) {
      const r = await startOnce(way, env);
      times[way].push(r.ms);
      rss[way].push(r.rssMb);
    }
  const p = median(times.previous);
  const r = median(times.release);
  console.log(
    `${label}: start to healthy, median of ${RUNS}: release ${(r / 1000).toFixed(2)} s, previous way ${(p / 1000).toFixed(2)} s ` +
      `(ratio ${(r / p).toFixed(2)}); idle RSS after ${IDLE_SECONDS} s: release ${median(rss.release).toFixed(0)} MB, ` +
      `previous ${median(rss.previous).toFixed(0)} MB`,
  );
}

const build = spawnSync(process.execPath, [join(root, 'scripts/release.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(1);
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`load average at the start: ${load}`);

const dataDir = mkdtempSync(join(tmpdir(), 'sc-bench-startup-'));
try {
  await measure('embedded (PGlite, existing data folder)', {
    DATA_DIR: dataDir,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
  });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const name = `sc_bench_startup_${process.pid}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
try {
  await admin.connect();
} catch (err) {
  console.log(`PostgreSQL not reachable at ${ADMIN_URL} (${(err as Error).message}); skipped.`);
  process.exit(0);
}
await admin.query(`create database ${name}`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const pgData = mkdtempSync(join(tmpdir(), 'sc-bench-startup-pg-'));
try {
  await measure('PostgreSQL (existing database)', {
    DATABASE_URL: url.toString(),
    DATA_DIR: pgData,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
  });
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  rmSync(pgData, { recursive: true, force: true });
}
