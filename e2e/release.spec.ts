import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

/*
 * The release (issue 31): `scripts/release.mjs --standalone` builds a folder with the compiled server, the bundles,
 * the migrations and the production packages; copied anywhere, `node server/src/main.js` serves the product without
 * the repository, TypeScript or dev packages. Built outside the repository (so no node_modules above it), copied to
 * another clean folder, started from a third.
 */
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const made: string[] = [];
let child: ChildProcess | undefined;
after(() => {
  child?.kill('SIGKILL');
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const tmp = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `sc-release-${name}-`));
  made.push(d);
  return d;
};

const freePort = () =>
  new Promise<number>((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => ok(typeof address === 'object' && address ? address.port : 0));
    });
  });

test('the standalone release starts with node from a clean folder: login page, /api/health, /widget.js, a clean SIGTERM', async () => {
  const built = tmp('built');
  const build = spawnSync(
    process.execPath,
    ['scripts/release.mjs', '--standalone', `--out=${built}`, '--quiet'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  assert.equal(build.status, 0, build.stderr);
  // No TypeScript and no dev tooling in it.
  assert.ok(existsSync(join(built, 'server/src/main.js')));
  assert.ok(!existsSync(join(built, 'server/src/main.ts')));
  for (const dev of ['typescript', 'tsx', 'vite', 'playwright-core', '@biomejs'])
    assert.ok(!existsSync(join(built, 'node_modules', dev)), `${dev} is not shipped`);
  // The container image is this folder and nothing else: the Dockerfile copies it and starts what this test starts.
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  assert.match(dockerfile, /RUN npm ci [^\n]*&& npm run release/);
  assert.match(dockerfile, /COPY --from=build --chown=node:node \/src\/release\/ \/app\//);
  assert.match(dockerfile, /^USER node$/m);
  assert.match(dockerfile, /^HEALTHCHECK .*\n?.*\/api\/ready/m);
  assert.match(dockerfile, /^CMD \["node", "server\/src\/main\.js"\]$/m);
  const release = JSON.parse(readFileSync(join(built, 'package.json'), 'utf8'));
  for (const script of Object.values(release.scripts) as string[]) {
    const file = script.split(' ')[1];
    assert.ok(existsSync(join(built, file)), `${script}: ${file} is in the release`);
  }

  const shipped = tmp('shipped');
  cpSync(built, shipped, { recursive: true });
  rmSync(built, { recursive: true, force: true });
  const cwd = tmp('run');
  const port = await freePort();
  const output: string[] = [];
  const started = Date.now();
  child = spawn(process.execPath, [join(shipped, 'server/src/main.js')], {
    cwd,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(cwd, 'data'),
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'Release-check-1!',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => output.push(String(c)));
  child.stderr?.on('data', (c) => output.push(String(c)));
  const base = `http://127.0.0.1:${port}`;
  let health: Response | undefined;
  while (Date.now() - started < 120_000) {
    health = await fetch(`${base}/api/health`).catch(() => undefined);
    if (health?.ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(health?.ok, `healthy within 2 minutes; output:\n${output.join('')}`);
  assert.deepEqual(await health.json(), { status: 'ok', database: 'pglite' });

  const login = await fetch(`${base}/login`);
  assert.equal(login.status, 200);
  assert.match(await login.text(), /<title>SmartConnect/);
  const widget = await fetch(`${base}/widget.js`);
  assert.equal(widget.status, 200);
  assert.ok((await widget.text()).length > 1000);
  // The demo organisation is there to use at once: its administrator signs in.
  const signIn = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.local', password: 'Release-check-1!' }),
  });
  assert.equal(signIn.status, 200, await signIn.clone().text());

  const exited = new Promise<number | null>((ok) => child?.once('exit', (code) => ok(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0, output.join(''));
  child = undefined;
});
