import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Db, openPglite, openPostgres } from '../src/db/index.ts';

/**
 * A fresh, empty database for one test server: in-memory PGlite by default, or, when DATABASE_URL is set,
 * a new database on that PostgreSQL server which is dropped again on close.
 */
export async function freshDatabase(): Promise<{ db: Db; url?: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const db = await openPglite();
    return { db, drop: async () => undefined };
  }
  const name = `sc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString());
  return {
    db,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
