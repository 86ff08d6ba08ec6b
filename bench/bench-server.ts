import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import pg from 'pg';
import { loadConfig } from '../server/src/config.ts';
import { type Db, openPostgres } from '../server/src/db/index.ts';
import { hashPassword } from '../server/src/lib/password.ts';
import { insertOrganisation } from '../server/src/modules/organisations/queries.ts';
import { insertUser } from '../server/src/modules/users/queries.ts';
import { createServer } from '../server/src/server.ts';

/**
 * A server in-process with its job runner as in production, on a fresh PostgreSQL database (made on DATABASE_URL's
 * server, dropped at close), with one organisation holding every option and its signed-in administrator.
 */
export type BenchServer = {
  db: Db;
  server: Awaited<ReturnType<typeof createServer>>;
  base: string;
  token: string;
  orgId: string;
  call(method: string, path: string, body?: unknown): Promise<Record<string, unknown> & { id: string }>;
  close(): Promise<void>;
};

export async function startBenchServer(opts: { env?: Record<string, string>; pool?: number } = {}) {
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `sc_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), opts.pool ?? 10);
  const dataDir = mkdtempSync(join(tmpdir(), 'sc-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    SEED_DEMO: 'false',
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
    ...opts.env,
  });
  const server = await createServer(config, { db });
  await server.fastify.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(server.fastify.server.address() as AddressInfo).port}`;
  const close = async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
  try {
    const login = `bench-${randomBytes(3).toString('hex')}`;
    const email = `admin@${login}.test`;
    const org = await db.tx((q) =>
      insertOrganisation(q, { login, name: login, adminEmail: email, options: [...PLAN_OPTIONS] }),
    );
    const passwordHash = await hashPassword('Passw0rd!');
    await db.tx((q) =>
      insertUser(q, {
        organisationId: org.id,
        roleId: org.roles.ADMINISTRATOR,
        name: 'Admin',
        email,
        phone: null,
        passwordHash,
        breakTimeoutMinutes: null,
        language: 'eng',
        active: true,
      }),
    );
    const loginRes = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Passw0rd!' }),
    });
    const token = String(((await loginRes.json()) as { entity: { token: string } }).entity.token);
    const call: BenchServer['call'] = async (method, path, body) => {
      const form = body instanceof FormData;
      const res = await fetch(base + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body && !form ? { 'content-type': 'application/json' } : {}),
        },
        body: form ? body : body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
      return JSON.parse(text).entity as Record<string, unknown> & { id: string };
    };
    return { db, server, base, token, orgId: org.id, call, close } satisfies BenchServer;
  } catch (err) {
    await close();
    throw err;
  }
}
