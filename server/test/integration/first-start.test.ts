import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { freshDatabase } from '../db.ts';
import { Api, loginToken, solveCaptcha } from '../helpers.ts';

const root = new URL('../../..', import.meta.url).pathname;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

type Started = { child: ChildProcess; api: Api; output: () => string; stop(): Promise<void> };

/** Starts the server as `npm start` does (server/src/main.ts), with nothing but environment variables. */
async function start(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const api = new Api(`http://127.0.0.1:${port}`);
  // A cold start compiles the server (tsx) and runs every migration on a new embedded database: a loaded CI
  // machine needs more than a minute for it.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${out}`);
    const ok = await api.get('/api/health').then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    api,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The password printed beside an e-mail in the first-start banner. */
const printedPassword = (out: string, email: string) =>
  out
    .split('\n')
    .find((l) => l.includes(` ${email} `))
    ?.trim()
    .split(/\s+/)
    .at(-1);

describe('first start of the real server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sc-first-start-'));
  let drop: () => Promise<void> = async () => undefined;
  after(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('seeds Demo once with printed passwords, mails to the log without SMTP_URL, never re-seeds', async () => {
    const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    delete process.env.SMTP_URL;
    if (process.env.DATABASE_URL) {
      const fresh = await freshDatabase();
      await fresh.db.close();
      drop = fresh.drop;
      env.DATABASE_URL = fresh.url!;
    }
    const first = await start(env);
    let adminPassword: string | undefined;
    try {
      const health = await first.api.get('/api/health');
      assert.equal(health.body.database, process.env.DATABASE_URL ? 'postgres' : 'pglite');
      adminPassword = printedPassword(first.output(), 'admin@demo.local');
      assert.ok(adminPassword, `the admin's generated password is printed:\n${first.output()}`);
      for (const email of ['supervisor@demo.local', 'operator1@demo.local', 'operator2@demo.local']) {
        const password = printedPassword(first.output(), email);
        assert.ok(password, email);
        await loginToken(first.api, email, password);
      }
      const admin = first.api.as(await loginToken(first.api, 'admin@demo.local', adminPassword));
      assert.equal((await admin.get('/api/auth/user')).body.entity.organisation.name, 'Demo');
      assert.equal((await admin.get('/api/teams')).body.entity.total, 2);
      // Platform staff manage plans and licences of customer organisations.
      const staffPassword = printedPassword(first.output(), 'staff@smartconnect.local');
      assert.ok(staffPassword, 'the platform staff password is printed');
      const staff = first.api.as(await loginToken(first.api, 'staff@smartconnect.local', staffPassword));
      const orgs = (await staff.get('/api/organisations')).body.entity.items;
      assert.deepEqual(
        orgs.map((o: { name: string }) => o.name),
        ['Demo'],
      );

      // No SMTP_URL: the recovery mail, with its link, is in the server log.
      const rec = await first.api.post('/api/auth/recovery', {
        email: 'operator1@demo.local',
        captcha: await solveCaptcha(first.api),
      });
      assert.equal(rec.status, 200);
      const deadline = Date.now() + 5_000;
      while (!/restore\?token=/.test(first.output()) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.match(first.output(), /MAIL to operator1@demo\.local[\s\S]*\/restore\?token=[\w%-]+/);
    } finally {
      await first.stop();
    }

    const second = await start(env);
    try {
      assert.equal(printedPassword(second.output(), 'admin@demo.local'), undefined, 'nothing printed again');
      // The first start's password still works: nothing was overwritten.
      await loginToken(second.api, 'admin@demo.local', adminPassword!);
      const admin = second.api.as(await loginToken(second.api, 'admin@demo.local', adminPassword!));
      assert.equal((await admin.get('/api/users')).body.entity.total, 4);
    } finally {
      await second.stop();
    }
  });
});
