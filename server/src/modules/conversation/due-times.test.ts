import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { DUE } from './due-times.ts';

// Each rule's SQL (armed for many chats at once) and TypeScript (its timer's check) must name the same moment.
let db: PGlite;
before(async () => {
  db = new PGlite();
});
after(() => db.close());

const viaSql = async (expr: string, from: string, amount: number) => {
  const { rows } = await db.query<{ due: Date }>(
    `select ${expr.replace('$from', '$1::timestamptz').replace('$amount', '$2::int')} as due`,
    [from, amount],
  );
  return new Date(rows[0].due).toISOString();
};

test('each due-time rule gives the same moment in SQL and in TypeScript', async () => {
  const from = '2026-03-29T00:30:00.000Z';
  const cases = [
    [DUE.autoClose.sql('$from', '$amount'), DUE.autoClose.at(from, 90)],
    [DUE.inactivityClose.sql('$from', '$amount'), DUE.inactivityClose.at(from, 90)],
    [DUE.overdue.sql('$from', '$amount'), DUE.overdue.at(from, 90)],
  ] as const;
  for (const [sql, at] of cases) assert.equal(await viaSql(sql, from, 90), at.toISOString(), sql);
  assert.equal(DUE.autoClose.at(from, 90).toISOString(), '2026-03-29T02:00:00.000Z');
  assert.equal(DUE.inactivityClose.at(from, 2).toISOString(), '2026-03-29T02:30:00.000Z');
  assert.equal(DUE.redistribute.at(new Date(from), 5).toISOString(), '2026-03-29T00:35:00.000Z');
});
