import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './index.ts';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_ID = 4_242_001;

/** Applies the versioned SQL files in migrations/ once each, in name order; safe to run from several instances. */
export async function migrate(db: Db): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return db.tx(async (q) => {
    if (db.kind === 'postgres') await q.query('select pg_advisory_xact_lock($1)', [LOCK_ID]);
    await q.query(
      'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
    const done = new Set(
      (await q.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await q.exec(readFileSync(join(dir, file), 'utf8'));
      await q.query('insert into schema_migrations (name) values ($1)', [file]);
      applied.push(file);
    }
    return applied;
  });
}
