#!/usr/bin/env node
/**
 * `npm run cluster` (issue 31): N SmartConnect instances on one PostgreSQL and one Redis behind Debian's nginx, on this
 * machine, the way a production cluster runs (docs/operations.md):
 *
 *   node scripts/cluster.mjs [--instances=2] [--port=3000] [--host=127.0.0.1] [--dir=data/cluster] [--source]
 *
 * - DATABASE_URL (default postgres://postgres@127.0.0.1:5432/smartconnect; the database is created when missing),
 *   REDIS_URL (default redis://127.0.0.1:6379); any other variable of the README is passed to every instance.
 * - The instances listen on port+101, port+102, ... (another free port when one is taken); nginx on `port` spreads requests and websockets over them with
 *   no stickiness (a socket resumes on any instance from its last event id), and passes a request to the next
 *   instance when one is down. Files are shared through one DATA_DIR (`--dir`; S3_BUCKET for several machines), and
 *   so is the installation key.
 * - The release is built first (scripts/release.mjs) and started with node; `--source` runs the TypeScript sources
 *   through tsx instead (tests, development).
 * - nginx is installed with apt-get when missing and this runs as root; otherwise the script says what to install.
 * - `<dir>/cluster.json` lists the instances (port, pid) and nginx; Ctrl+C or SIGTERM stops them all gracefully.
 * - SIGHUP (`kill -HUP <pid of this script>`, e.g. after an upgrade) restarts the instances one at a time, a rolling
 *   restart: the release is rebuilt when the sources changed (not with `--source`); then for each instance in turn:
 *   SIGTERM (it drains and tells its sockets to reconnect elsewhere, close code 1012), wait for it to exit, start it
 *   again on the same port with the same environment, wait for `/api/ready` to answer 200, update cluster.json, then
 *   the next one. nginx keeps sending traffic to the others meanwhile. A SIGHUP during a rolling restart queues one
 *   more round after it; a failed build or an instance that does not become ready ends the round (logged).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const count = Number(args.get('instances') ?? 2);
const port = Number(args.get('port') ?? process.env.PORT ?? 3000);
const host = args.get('host') ?? '127.0.0.1';
const dir = resolve(root, args.get('dir') ?? 'data/cluster');
const fromSource = args.has('source');
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/smartconnect';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (line) => console.log(`[cluster] ${line}`);
// Until the cluster is up there is nothing to restart (and SIGHUP's default would end this script).
let onHangup = () => log('SIGHUP before the cluster is up: ignored');
process.on('SIGHUP', () => onHangup());

function findNginx() {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx']) if (existsSync(p)) return p;
  return undefined;
}

function ensureNginx() {
  let nginx = findNginx();
  if (nginx) return nginx;
  if (process.getuid?.() !== 0) {
    console.error('nginx is not installed: apt-get install nginx-light (as root), then run this again');
    process.exit(1);
  }
  log('installing nginx-light (apt-get)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const r = spawnSync('apt-get', ['install', '-y', '-qq', 'nginx-light'], { stdio: 'inherit', env });
  nginx = findNginx();
  if (r.status !== 0 || !nginx) {
    console.error('could not install nginx');
    process.exit(1);
  }
  return nginx;
}

async function ensureDatabase() {
  const pg = (await import('pg')).default;
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  try {
    const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`database name ${name}: letters, digits and _ only`);
      await c.query(`create database ${name}`);
      log(`created database ${name}`);
    }
  } finally {
    await c.end();
  }
}

/** nginx's configuration: round robin over the instances, websockets upgraded, the next instance when one is down. */
function nginxConfig({ prefix, listen, ports }) {
  return `# Generated by scripts/cluster.mjs: SmartConnect behind nginx (see docs/operations.md).
worker_processes auto;
# Two connections per proxied socket (the client's and the instance's): 20,000 for 10,000 live sockets; where
# raising the open-file limit is not allowed (a container), a worker per core shares them out.
worker_rlimit_nofile 65536;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 32768; }
http {
  access_log off;
  client_max_body_size 64m;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream smartconnect {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen ${listen};
    location / {
      proxy_pass http://smartconnect;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_buffering off;
      # An instance that is down or draining (503) passes the request on (a POST only when it was never sent).
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 3;
    }
  }
}
`;
}

/** port+100+i when free (predictable on a quiet machine), else any free port. */
function instancePortOf(i) {
  const tryListen = (p) =>
    new Promise((ok) => {
      const srv = createNetServer();
      srv.once('error', () => ok(undefined));
      srv.listen(p, '127.0.0.1', () => {
        const a = srv.address();
        srv.close(() => ok(typeof a === 'object' && a ? a.port : undefined));
      });
    });
  return tryListen(port + 100 + i).then((p) => p ?? tryListen(0));
}

/** Polls `url + path` until it answers 200 (false after `ms`, or as soon as `child` exits). */
async function answers(url, path, ms, child) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && child?.exitCode == null && child?.signalCode == null) {
    const res = await fetch(`${url}${path}`).catch(() => undefined);
    await res?.arrayBuffer().catch(() => undefined);
    if (res?.ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
const healthy = (url, ms, child) => answers(url, '/api/health', ms, child);

/** Runs scripts/release.mjs (it builds only what changed); resolves to its exit code. */
function build() {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'scripts/release.mjs')], {
      cwd: root,
      stdio: 'inherit',
    });
    child.once('exit', (code) => done(code ?? 1));
    child.once('error', () => done(1));
  });
}

const nginx = ensureNginx();
if (!fromSource && (await build()) !== 0) process.exit(1);
await ensureDatabase();
mkdirSync(dir, { recursive: true });
const keyFile = join(dir, 'secret.key');
if (!process.env.SECRET_KEY && !existsSync(keyFile))
  writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
const secretKey = process.env.SECRET_KEY ?? readFileSync(keyFile, 'utf8').trim();

/** Each instance: its name, port and the process now serving it (replaced by a rolling restart). */
const instances = [];
const entry = fromSource
  ? ['--import', 'tsx', join(root, 'server/src/main.ts')]
  : [join(root, 'dist/server/src/main.js')];
const instanceEnv = (instancePort) => ({
  ...process.env,
  PORT: String(instancePort),
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  DATA_DIR: dir,
  SECRET_KEY: secretKey,
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`,
  TRUST_PROXY: process.env.TRUST_PROXY ?? '127.0.0.1',
});
let stopping = false;
let lb;
/** The instance being restarted by a rolling restart: its exit is expected. */
let restarting;

function launch(instance) {
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: instanceEnv(instance.port),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  instance.child = child;
  // One that exits on its own is reported (under a process manager it would be started again); nginx passes its
  // share to the others meanwhile.
  child.on('exit', (code, signal) => {
    if (!stopping && restarting !== instance) log(`${instance.name} exited (${code ?? signal})`);
  });
}

const exited = (child) =>
  new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) r(undefined);
    else child.once('exit', r);
  });

/** Written whole then renamed: a reader (a bench sampling the pids) never sees half a file. */
function writeState() {
  const list = instances.map((i) => ({ name: i.name, port: i.port, pid: i.child.pid }));
  const file = join(dir, 'cluster.json');
  writeFileSync(
    `${file}.tmp`,
    `${JSON.stringify({ url: lbUrl, instances: list, nginx: { pid: lb.pid, config: conf } }, null, 2)}\n`,
  );
  renameSync(`${file}.tmp`, file);
}

for (let i = 1; i <= count; i++) {
  const instance = { name: `instance-${i}`, port: await instancePortOf(i) };
  instances.push(instance);
  launch(instance);
  // The first one alone: it migrates and seeds; the others start on a ready database.
  if (!(await healthy(`http://127.0.0.1:${instance.port}`, 120_000, instance.child))) {
    console.error(`instance ${i} did not become healthy`);
    for (const x of instances) x.child.kill('SIGTERM');
    process.exit(1);
  }
  log(`instance ${i} on 127.0.0.1:${instance.port} (pid ${instance.child.pid})`);
}

const prefix = join(dir, 'nginx');
for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
  mkdirSync(join(prefix, 'tmp', t), { recursive: true });
const conf = join(prefix, 'nginx.conf');
writeFileSync(conf, nginxConfig({ prefix, listen: `${host}:${port}`, ports: instances.map((i) => i.port) }));
lb = spawn(nginx, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
lb.on('exit', (code, signal) => {
  if (!stopping) log(`nginx exited (${code ?? signal})`);
});
const lbUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
if (!(await healthy(lbUrl, 15_000))) {
  console.error(`nginx did not answer on ${lbUrl}; see ${join(prefix, 'error.log')}`);
  lb.kill('SIGTERM');
  for (const x of instances) x.child.kill('SIGTERM');
  process.exit(1);
}
writeState();
log(`${count} instances behind nginx on ${lbUrl} (${join(dir, 'cluster.json')}); Ctrl+C stops them`);

/** One instance after the other: stopped gracefully, started again on its port, ready before the next. */
async function rollingRestart() {
  if (!fromSource) {
    log('rolling restart: building the release');
    if ((await build()) !== 0) return log('rolling restart: the build failed, the instances keep running');
  }
  for (const instance of instances) {
    if (stopping) return;
    const old = instance.child;
    restarting = instance;
    log(`rolling restart: stopping ${instance.name} (pid ${old.pid})`);
    old.kill('SIGTERM');
    await exited(old);
    if (stopping) return;
    log(`rolling restart: ${instance.name} exited (${old.exitCode ?? old.signalCode}), starting it again`);
    launch(instance);
    restarting = undefined;
    const ready = await answers(`http://127.0.0.1:${instance.port}`, '/api/ready', 120_000, instance.child);
    if (stopping) return;
    writeState();
    if (!ready) return log(`rolling restart: ${instance.name} did not become ready, stopping the round`);
    log(`rolling restart: ${instance.name} ready on 127.0.0.1:${instance.port} (pid ${instance.child.pid})`);
  }
  log('rolling restart: done');
}

let rolling;
let again = false;
onHangup = () => {
  if (stopping) return;
  if (rolling) {
    again = true;
    return log('SIGHUP during a rolling restart: one more round after this one');
  }
  log('SIGHUP: rolling restart');
  rolling = (async () => {
    do {
      again = false;
      await rollingRestart().catch((err) => log(`rolling restart failed: ${err.message}`));
    } while (again && !stopping);
    rolling = undefined;
  })();
};

const stop = async () => {
  if (stopping) return;
  stopping = true;
  log('stopping');
  lb.kill('SIGQUIT');
  const all = [lb, ...instances.map((i) => i.child)];
  for (const c of all) if (c !== lb && c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  await Promise.all(all.map(exited));
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
