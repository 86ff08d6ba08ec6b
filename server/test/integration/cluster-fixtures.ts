import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Db } from '../../src/db/index.ts';
import { Api, createOrganisation } from '../helpers.ts';

/** Shared by the tests that run several server processes (scale-out, cluster): PostgreSQL and Redis on this machine. */
export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why PostgreSQL or Redis cannot be reached, or undefined when both answer. */
export async function unreachable(): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
  } catch (err) {
    return `PostgreSQL not reachable at ${ADMIN_URL}: ${(err as Error).message}`;
  }
  const r = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0 });
  r.on('error', () => undefined);
  try {
    await r.connect();
    await r.ping();
    r.disconnect();
  } catch (err) {
    r.disconnect();
    return `Redis not reachable at ${REDIS_URL}: ${(err as Error).message}`;
  }
  return undefined;
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => res(port));
    });
  });
}

export async function until<T>(
  fn: () => Promise<T | undefined | false>,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A new organisation with users made straight in the database (helpers.ts createOrganisation), each signed in through
 * `loginUrl`: the instance of a cluster the test talks to.
 */
export async function organisationIn(db: Db, loginUrl: string) {
  const org = await createOrganisation({ app: { db }, api: new Api(loginUrl) });
  const user = (role: 'ADMINISTRATOR' | 'OPERATOR', teams: string[]) => org.user({ role, teams, name: role });
  return { org, user };
}

/** A new, empty database on the PostgreSQL server for several processes to share; `drop` removes it. */
export async function sharedDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
