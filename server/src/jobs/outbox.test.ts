import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffMs, OUTBOX } from './outbox.ts';

test('outbox backoff doubles from the base delay and is capped', () => {
  assert.equal(backoffMs(1), OUTBOX.baseDelayMs);
  assert.equal(backoffMs(2), OUTBOX.baseDelayMs * 2);
  assert.equal(backoffMs(4), OUTBOX.baseDelayMs * 8);
  assert.equal(backoffMs(40), OUTBOX.maxDelayMs);
});
