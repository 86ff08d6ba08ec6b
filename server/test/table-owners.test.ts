// Table ownership (docs/ARCHITECTURE.md, "Table owners"): every table is written only by the files under its owner's
// path. The scan reads the server's sources (tests excluded) for INSERT INTO / UPDATE / DELETE FROM of a known table.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

/** The owner table of docs/ARCHITECTURE.md: table -> the path (folder ending in '/', or a file) that owns it. */
function readOwners(markdown: string): Map<string, string> {
  const section = markdown.split('## Table owners')[1]?.split('\n## ')[0] ?? '';
  const owners = new Map<string, string>();
  for (const line of section.split('\n')) {
    const m = /^\|\s*([a-z_][a-z0-9_]*)\s*\|\s*(server\/\S+)\s*\|$/.exec(line.trim());
    if (m) owners.set(m[1], m[2]);
  }
  return owners;
}

/** The tables the migrations create, and the migration runner's own. */
function readTables(): Set<string> {
  const dir = join(root, 'server/src/db/migrations');
  const tables = new Set(['schema_migrations']);
  const dropped = new Set<string>();
  for (const file of readdirSync(dir).sort()) {
    const sql = readFileSync(join(dir, file), 'utf8').toLowerCase();
    for (const m of sql.matchAll(/create\s+table\s+(?:if\s+not\s+exists\s+)?([a-z_][a-z0-9_]*)/g)) {
      tables.add(m[1]);
      dropped.delete(m[1]);
    }
    for (const m of sql.matchAll(/drop\s+table\s+(?:if\s+exists\s+)?([a-z_][a-z0-9_]*)/g)) dropped.add(m[1]);
  }
  for (const t of dropped) tables.delete(t);
  return tables;
}

export type Write = { file: string; table: string };

/** The writes of known tables in one source text (comment lines skipped). */
export function writesIn(file: string, source: string, tables: ReadonlySet<string>): Write[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('//'))
    .join('\n');
  const out: Write[] = [];
  for (const m of code.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)\b/gi)) {
    const table = m[1].toLowerCase();
    if (tables.has(table)) out.push({ file, table });
  }
  return out;
}

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

const owns = (owner: string, file: string) => (owner.endsWith('/') ? file.startsWith(owner) : file === owner);

/** The writes no owner allows. */
export function violations(writes: Write[], owners: ReadonlyMap<string, string>): Write[] {
  return writes.filter((w) => {
    const owner = owners.get(w.table);
    return !owner || !owns(owner, w.file);
  });
}

describe('table owners (docs/ARCHITECTURE.md)', () => {
  const owners = readOwners(readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8'));
  const tables = readTables();

  test('every table has exactly one owner, and every owner row names a table and a path that exist', () => {
    assert.ok(owners.size > 20, 'the owner table was not found in docs/ARCHITECTURE.md');
    assert.deepEqual(
      [...tables].filter((t) => !owners.has(t)),
      [],
      'tables without an owner row',
    );
    assert.deepEqual(
      [...owners.keys()].filter((t) => !tables.has(t)),
      [],
      'owner rows for tables no migration creates',
    );
    for (const [table, owner] of owners) {
      let exists = true;
      try {
        statSync(join(root, owner));
      } catch {
        exists = false;
      }
      assert.ok(exists, `${table}: owner ${owner} does not exist`);
    }
  });

  test('no file writes a table it does not own', () => {
    const writes = sources(join(root, 'server/src')).flatMap((file) =>
      writesIn(file, readFileSync(join(root, file), 'utf8'), tables),
    );
    assert.ok(writes.length > 50, `only ${writes.length} writes found: the scan is broken`);
    assert.deepEqual(
      violations(writes, owners)
        .map((w) => `${w.file} ${w.table}`)
        .sort(),
      [],
      'writes outside the owner: call the owner module instead, or change the owner in docs/ARCHITECTURE.md',
    );
  });

  test('a planted write outside the owner is caught; comments are not writes', () => {
    const planted = writesIn(
      'server/src/modules/templates/queries.ts',
      "// update chats in a comment\nawait q.query(`UPDATE contacts SET name = $1`);\nawait q.query('insert into templates (id) values ($1)');",
      tables,
    );
    assert.deepEqual(violations(planted, owners), [
      { file: 'server/src/modules/templates/queries.ts', table: 'contacts' },
    ]);
    assert.deepEqual(
      violations([{ file: 'server/src/modules/templates/queries.ts', table: 'a_new_table' }], owners),
      [{ file: 'server/src/modules/templates/queries.ts', table: 'a_new_table' }],
    );
  });
});
