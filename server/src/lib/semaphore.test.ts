import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSemaphore } from './semaphore.ts';

test('at most `limit` run at once, the rest in arrival order; a failure frees its place', async () => {
  const sem = createSemaphore(2);
  let running = 0;
  let peak = 0;
  const order: number[] = [];
  const job = (i: number) =>
    sem.run(async () => {
      running++;
      peak = Math.max(peak, running);
      order.push(i);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (i === 1) throw new Error('boom');
      return i;
    });
  const results = await Promise.allSettled([0, 1, 2, 3, 4].map(job));
  assert.equal(peak, 2);
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
  assert.equal(results[1].status, 'rejected');
  assert.deepEqual(
    results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value),
    [0, 2, 3, 4],
  );
  assert.equal(sem.active, 0);
  assert.equal(sem.waiting, 0);
  assert.throws(() => createSemaphore(0));
});
