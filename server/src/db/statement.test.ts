import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPglite, openPostgres, sqlText, statement } from './index.ts';

test('a prepared statement name stands for one text: declaring it again with another text throws', () => {
  const a = statement('statement_test_one', 'select $1::int as n');
  assert.deepEqual(statement('statement_test_one', 'select $1::int as n'), a);
  assert.throws(
    () => statement('statement_test_one', 'select $1::int + 1 as n'),
    /'statement_test_one' is declared twice/,
  );
  assert.equal(sqlText(a), 'select $1::int as n');
  assert.equal(sqlText('select 1'), 'select 1');
});

test('a prepared statement runs again with other parameters (PGlite; PostgreSQL when DATABASE_URL is set)', async () => {
  const s = statement('statement_test_two', 'select $1::int * 2 as n, $2::text as t');
  const dbs = [await openPglite()];
  if (process.env.DATABASE_URL) dbs.push(await openPostgres(process.env.DATABASE_URL, 2));
  for (const db of dbs) {
    try {
      for (const n of [1, 2, 3, 4, 5, 6, 7]) {
        const [row] = await db.query<{ n: number; t: string }>(s, [n, `x${n}`]);
        assert.deepEqual({ ...row }, { n: n * 2, t: `x${n}` }, db.kind);
      }
      // In a transaction too, on the same pooled connections.
      const inTx = await db.tx((q) => q.query<{ n: number }>(s, [21, 'tx']));
      assert.equal(inTx[0].n, 42);
    } finally {
      await db.close();
    }
  }
});
