import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Candidate, chooseOperator } from './routing-choose.ts';

const c = (userId: string, load: number, lastTurn: number | null): Candidate => ({ userId, load, lastTurn });

describe('chooseOperator', () => {
  test('round-robin gives the turn to whoever waited longest, never-served first', () => {
    const list = [c('a', 0, 5), c('b', 3, 2), c('c', 1, null)];
    assert.equal(chooseOperator('round_robin', list, { dialogLimit: 5 }), 'c');
    assert.equal(chooseOperator('round_robin', list.slice(0, 2), { dialogLimit: 5 }), 'b');
  });

  test('least-loaded picks the fewest open chats, ties by turn', () => {
    assert.equal(
      chooseOperator('least_loaded', [c('a', 2, 1), c('b', 1, 9), c('c', 1, 3)], { dialogLimit: 5 }),
      'c',
    );
  });

  test('nobody at or over the dialog limit receives a chat', () => {
    assert.equal(chooseOperator('round_robin', [c('a', 2, null), c('b', 3, null)], { dialogLimit: 2 }), null);
    assert.equal(chooseOperator('least_loaded', [c('a', 2, null), c('b', 1, 7)], { dialogLimit: 2 }), 'b');
  });

  test('the preferred operator wins only when eligible; excluded ones never', () => {
    const list = [c('a', 0, 1), c('b', 4, 0)];
    assert.equal(chooseOperator('round_robin', list, { dialogLimit: 5, preferUserId: 'b' }), 'b');
    assert.equal(chooseOperator('round_robin', list, { dialogLimit: 4, preferUserId: 'b' }), 'a');
    assert.equal(chooseOperator('round_robin', list, { dialogLimit: 5, preferUserId: 'z' }), 'b');
    assert.equal(chooseOperator('round_robin', list, { dialogLimit: 5, excludeUserIds: ['b'] }), 'a');
  });

  test('manual leaves chats waiting but for a returning client whose last operator qualifies', () => {
    assert.equal(chooseOperator('manual', [c('a', 0, null)], { dialogLimit: 5 }), null);
    assert.equal(chooseOperator('manual', [c('a', 0, null)], { dialogLimit: 5, preferUserId: 'a' }), 'a');
    assert.equal(chooseOperator('manual', [c('a', 5, null)], { dialogLimit: 5, preferUserId: 'a' }), null);
    assert.equal(chooseOperator('manual', [c('a', 0, null)], { dialogLimit: 5, preferUserId: 'b' }), null);
    const excluded = { dialogLimit: 5, preferUserId: 'a', excludeUserIds: ['a'] };
    assert.equal(chooseOperator('manual', [c('a', 0, null)], excluded), null);
  });
});
