import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Row = Record<string, unknown>;

/**
 * A statement with a fixed text run very often (the ingest batch): on PostgreSQL each connection parses and plans
 * it once, by its name, and then only binds and runs it. A long statement's planning otherwise costs about as much
 * as running it (bench/README.md). PGlite runs its text as usual.
 */
export type Statement = { readonly name: string; readonly text: string };
const declared = new Map<string, string>();
/**
 * Declares a prepared statement (Statement) at module load. A name is the server's: PostgreSQL refuses one name for
 * two texts on a connection, so a second declaration of a name with another text throws here, at start-up.
 */
export function statement(name: string, text: string): Statement {
  const before = declared.get(name);
  if (before !== undefined && before !== text)
    throw new Error(`prepared statement '${name}' is declared twice with different texts`);
  declared.set(name, text);
  return { name, text };
}
/** The SQL text of a query, prepared or not (for traces and logs). */
export const sqlText = (sql: string | Statement): string => (typeof sql === 'string' ? sql : sql.text);

/** Anything that runs SQL: the database itself or an open transaction. */
export type Queryable = {
  query<T = Row>(sql: string | Statement, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
};

export type Db = Queryable & {
  kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>, options?: TxOptions): Promise<T>;
  close(): Promise<void>;
};

export type TxOptions = {
  /**
   * PostgreSQL: the transaction's statements are cancelled past this many milliseconds (SET LOCAL
   * statement_timeout, sent with BEGIN in one round trip). PGlite, one connection in this process, has no timer.
   */
  statementTimeoutMs?: number;
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
    async query<T>(sql: string | Statement, params?: unknown[]) {
      const res = await q.query<T>(sqlText(sql), params as unknown[]);
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
    async query<T>(sql: string | Statement, params?: unknown[]) {
      const res =
        typeof sql === 'string'
          ? await c.query(sql, params as unknown[])
          : await c.query({ name: sql.name, text: sql.text, values: params as unknown[] });
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
    async tx(fn, options) {
      const timeout = options?.statementTimeoutMs;
      if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 0))
        throw new Error(`statementTimeoutMs must be a whole number of milliseconds, not ${timeout}`);
      const client = await pool.connect();
      try {
        // Without parameters the two statements go as one simple query: one round trip.
        await client.query(
          timeout === undefined ? 'begin' : `begin; set local statement_timeout = ${timeout}`,
        );
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

export async function one<T = Row>(q: Queryable, sql: string | Statement, params?: unknown[]): Promise<T> {
  const rows = await q.query<T>(sql, params);
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
  return rows[0];
}

export async function maybe<T = Row>(
  q: Queryable,
  sql: string | Statement,
  params?: unknown[],
): Promise<T | undefined> {
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
