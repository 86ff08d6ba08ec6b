import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Row = Record<string, unknown>;

/** Anything that runs SQL: the database itself or an open transaction. */
export type Queryable = {
  query<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
};

export type Db = Queryable & {
  kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

// int8 and numeric come back as numbers where they fit; ids are uuids, never int8.
pg.types.setTypeParser(20, (v) => Number(v));

/** Serialises work on PGlite, which is one connection: a transaction must not interleave with other queries. */
class Mutex {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(fn, fn);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}

export async function openPglite(dataDir?: string): Promise<Db> {
  const db = await PGlite.create(dataDir);
  const lock = new Mutex();
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await q.query<T>(sql, params as unknown[]);
      return res.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    query: (sql, params) => lock.run(() => wrap(db).query(sql, params)),
    exec: (sql) => lock.run(() => wrap(db).exec(sql)),
    tx: (fn) => lock.run(() => db.transaction((t) => fn(wrap(t)))),
    close: () => db.close(),
  };
}

export async function openPostgres(url: string, max = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await c.query(sql, params as unknown[]);
      return res.rows as T[];
    },
    async exec(sql: string) {
      await c.query(sql);
    },
  });
  return {
    kind: 'postgres',
    query: (sql, params) => wrap(pool).query(sql, params),
    exec: (sql) => wrap(pool).exec(sql),
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const out = await fn(wrap(client));
        await client.query('commit');
        return out;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export async function one<T = Row>(q: Queryable, sql: string, params?: unknown[]): Promise<T> {
  const rows = await q.query<T>(sql, params);
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
  return rows[0];
}

export async function maybe<T = Row>(q: Queryable, sql: string, params?: unknown[]): Promise<T | undefined> {
  const rows = await q.query<T>(sql, params);
  return rows[0];
}

/** An ILIKE pattern that finds `text` anywhere, with its own %, _ and \ taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The `column = $n, …` list of an UPDATE: one entry per field of `patch` that is set (undefined leaves the
 * column as it is; null writes NULL), its column named by `columns`, its value appended to `params`.
 * Empty when nothing changes.
 */
export function setList<K extends string>(
  columns: Readonly<Record<K, string>>,
  patch: Partial<Record<K, unknown>>,
  params: unknown[],
): string {
  const sets: string[] = [];
  for (const key of Object.keys(columns) as K[]) {
    if (patch[key] === undefined) continue;
    params.push(patch[key]);
    sets.push(`${columns[key]} = $${params.length}`);
  }
  return sets.join(', ');
}
