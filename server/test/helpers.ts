import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { BUILT_IN_ROLES, type BuiltInRole, PLAN_OPTIONS, type PlanOption } from '@smartconnect/contracts';
import { solveChallenge } from 'altcha-lib/v1';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/index.ts';
import { type Clock, ManualClock } from '../src/lib/clock.ts';
import type { Mail, Mailer } from '../src/lib/mailer.ts';
import { hashPassword } from '../src/lib/password.ts';
import { insertOrganisation } from '../src/modules/organisations/queries.ts';
import { setUserTeams } from '../src/modules/teams/members.ts';
import { insertUser } from '../src/modules/users/queries.ts';
import { createServer, type Server } from '../src/server.ts';
import { freshDatabase } from './db.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
export type Call = { status: number; body: any; headers: Headers };

/** A client of the HTTP API as a user of it would call it: real requests to a listening server. */
export class Api {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}
  as(token: string | undefined): Api {
    return new Api(this.baseUrl, token);
  }
  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Call> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (this.token) (init.headers as Record<string, string>).authorization = `Bearer ${this.token}`;
    if (body instanceof FormData || body instanceof Uint8Array || typeof body === 'string') {
      init.body = body as RequestInit['body'];
    } else if (body !== undefined) {
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(this.baseUrl + path, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, body: parsed, headers: res.headers };
  }
  get = (path: string) => this.call('GET', path);
  post = (path: string, body?: unknown) => this.call('POST', path, body ?? {});
  patch = (path: string, body?: unknown) => this.call('PATCH', path, body ?? {});
  put = (path: string, body?: unknown) => this.call('PUT', path, body ?? {});
  delete = (path: string) => this.call('DELETE', path);
}

export type TestServer = Server & {
  url: string;
  api: Api;
  clock: ManualClock;
  mails: Mail[];
  db: Db;
  dataDir: string;
  databaseUrl?: string;
};

/** Starts a real server on a random port with its own empty database, a controllable clock and a mail sink. */
export async function startTestServer(
  opts: {
    clock?: Clock;
    env?: Record<string, string>;
    realMailer?: boolean;
    logStream?: NodeJS.WritableStream;
    /** An existing database (a restored backup); dropped on close like a fresh one. */
    database?: Awaited<ReturnType<typeof freshDatabase>>;
    /** An existing data folder, kept on close (the caller's). */
    dataDir?: string;
  } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'sc-test-'));
  const fresh = opts.database ?? (await freshDatabase());
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
    PUBLIC_URL: 'http://localhost:3000',
    // Webhooks and provider fakes of the tests listen on this machine.
    OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8,::1',
    // A light proof of work: tests solve many captchas (sign-up, recovery, throttled logins).
    CAPTCHA_MAX_NUMBER: '1000',
    ...opts.env,
  });
  const clock = (opts.clock as ManualClock) ?? new ManualClock();
  const mails: Mail[] = [];
  const mailer: Mailer = {
    async send(m) {
      mails.push(m);
    },
  };
  const server = await createServer(config, {
    db: fresh.db,
    clock,
    mailer: opts.realMailer ? undefined : mailer,
    logStream: opts.logStream,
  });
  await server.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = server.fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    ...server,
    url,
    api: new Api(url),
    clock,
    mails,
    db: fresh.db,
    dataDir,
    databaseUrl: fresh.url,
    async close() {
      await server.close();
      await fresh.drop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A log destination for startTestServer that keeps every line, for tests that read what was logged. */
export function logSink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, lines };
}

let seq = 0;
const unique = () =>
  `${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
export const TEST_PASSWORD = 'Passw0rd!';

export type TestUser = { id: string; email: string; password: string; token: string; api: Api };
export type TestOrg = {
  id: string;
  roles: Record<BuiltInRole, string>;
  admin: TestUser;
  /** Adds a user with a built-in role or a role id, in the given teams, logged in. */
  user(opts?: { role?: BuiltInRole | string; teams?: string[]; name?: string }): Promise<TestUser>;
};

/** A new organisation with an Administrator, logged in through the API. */
export async function createOrganisation(
  s: { app: Pick<TestServer['app'], 'db'>; api: Api },
  opts: { options?: PlanOption[] } = {},
): Promise<TestOrg> {
  const login = `org-${unique()}`;
  const org = await s.app.db.tx((q) =>
    insertOrganisation(q, {
      login,
      name: `Org ${login}`,
      adminEmail: `admin@${login}.test`,
      options: opts.options ?? [...PLAN_OPTIONS],
    }),
  );
  const hash = await hashPassword(TEST_PASSWORD);
  const user: TestOrg['user'] = async (o = {}) => {
    const role = o.role ?? 'OPERATOR';
    const roleId = (BUILT_IN_ROLES as readonly string[]).includes(role)
      ? org.roles[role as BuiltInRole]
      : role;
    const email = `${(o.name ?? role).toLowerCase().replace(/[^a-z0-9]/g, '')}-${unique()}@${login}.test`;
    const id = await s.app.db.tx(async (q) => {
      const userId = await insertUser(q, {
        organisationId: org.id,
        roleId,
        name: o.name ?? `User ${email}`,
        email,
        phone: null,
        passwordHash: hash,
        breakTimeoutMinutes: null,
        language: 'eng',
        active: true,
      });
      await setUserTeams(q, org.id, userId, o.teams ?? []);
      return userId;
    });
    const token = await loginToken(s.api, email, TEST_PASSWORD);
    return { id, email, password: TEST_PASSWORD, token, api: s.api.as(token) };
  };
  const admin = await user({ role: 'ADMINISTRATOR', name: 'Admin' });
  return { id: org.id, roles: org.roles, admin, user };
}

/** Platform staff: the Administrator of a platform organisation, holding RIGHT_OBSERVER, logged in. */
export async function createPlatformStaff(s: TestServer): Promise<Api> {
  const login = `platform-${unique()}`;
  const platform = await s.app.db.tx((q) =>
    insertOrganisation(q, {
      login,
      name: 'Platform',
      adminEmail: `admin@${login}.test`,
      options: [...PLAN_OPTIONS],
      isPlatform: true,
    }),
  );
  const email = `staff@${login}.test`;
  const passwordHash = await hashPassword(TEST_PASSWORD);
  await s.app.db.tx((q) =>
    insertUser(q, {
      organisationId: platform.id,
      roleId: platform.roles.ADMINISTRATOR,
      name: 'Staff',
      email,
      phone: null,
      passwordHash,
      breakTimeoutMinutes: null,
      language: 'eng',
      active: true,
    }),
  );
  return s.api.as(await loginToken(s.api, email, TEST_PASSWORD));
}

export async function loginToken(api: Api, email: string, password: string): Promise<string> {
  const res = await api.post('/api/auth/login', { email, password });
  if (res.status !== 200 || !res.body.entity.token)
    throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return res.body.entity.token;
}

/** A solved captcha (GET /api/signup/challenge, the ALTCHA proof of work): what sign-up, recovery and a throttled login send. */
export async function solveCaptcha(api: Api): Promise<string> {
  const c = (await api.get('/api/signup/challenge')).body.entity;
  const found = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!found) throw new Error('the captcha challenge has no solution');
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number: found.number,
    salt: c.salt,
    signature: c.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** A 1x1 PNG, the smallest image the upload routes take. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads TINY_PNG through POST /api/files of `baseUrl`; answers the file's path (/api/files/...) to download it. */
export async function uploadTinyPng(baseUrl: string, token: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([TINY_PNG], { type: 'image/png' }), 'dot.png');
  const res = await fetch(`${baseUrl}/api/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return new URL(((await res.json()) as { entity: { url: string } }).entity.url).pathname;
}
