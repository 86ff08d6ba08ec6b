import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Db } from '../../src/db/index.ts';
import { migrate } from '../../src/db/migrate.ts';
import { freshDatabase } from '../db.ts';

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let db: Db;
before(async () => {
  fresh = await freshDatabase();
  db = fresh.db;
  await migrate(db);
});
after(async () => {
  await db.close();
  await fresh.drop();
});

test('uuid_generate_v7: version 7, RFC variant, the Unix milliseconds first; ids made one after another in a session sort in that order', async () => {
  // One transaction (one session), as a write of several rows is; then 5,000 in one statement, past the
  // counter's 4,096 a millisecond.
  const made = await db.tx(async (q) => {
    const rows: { id: string; ms: number }[] = [];
    for (let i = 0; i < 300; i++) {
      const [row] = await q.query<{ id: string; ms: string }>(
        `select uuid_generate_v7()::text as id, floor(extract(epoch from clock_timestamp()) * 1000)::bigint::text as ms`,
      );
      rows.push({ id: row.id, ms: Number(row.ms) });
    }
    const many = await q.query<{ id: string; g: number }>(
      `select uuid_generate_v7()::text as id, g from generate_series(1, 5000) g order by g`,
    );
    const ms = Date.now();
    return [...rows, ...many.map((r) => ({ id: r.id, ms }))];
  });
  for (const { id, ms } of made) {
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, id);
    const stamp = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    // Never ahead of the clock by more than the counter's overflow (a millisecond per 4,096 ids).
    assert.ok(stamp <= ms + 2 && ms - stamp < 5_000, `${id}: ${stamp} vs ${ms}`);
  }
  const ids = made.map((m) => m.id);
  // Many fall in the same millisecond (a statement takes well under one): they still keep their order.
  const sameMs = made.filter((m, i) => i > 0 && m.id.slice(0, 13) === made[i - 1].id.slice(0, 13)).length;
  assert.ok(sameMs > 0, 'some ids share a millisecond');
  assert.deepEqual([...ids].sort(), ids);
  // The database sorts them the same way (uuid order is byte order).
  const sorted = await db.query<{ id: string }>(`select id::text from unnest($1::uuid[]) id order by id`, [
    ids,
  ]);
  assert.deepEqual(
    sorted.map((r) => r.id),
    ids,
  );
});
