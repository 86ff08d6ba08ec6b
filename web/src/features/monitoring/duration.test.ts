import assert from 'node:assert/strict';
import { test } from 'node:test';
import { durationParts, formatDuration } from './duration.ts';

const t = (key: string, o?: Record<string, unknown>) =>
  ({
    'monitoring.units.sec': `${o?.n} sec`,
    'monitoring.units.min': `${o?.n} min`,
    'monitoring.units.h': `${o?.n} h`,
    'monitoring.units.moreThanDay': 'more than 1 day',
  })[key] ?? key;

test('durations in sec, min, h and more than 1 day', () => {
  assert.equal(formatDuration(t, 0), '0 sec');
  assert.equal(formatDuration(t, -5_000), '0 sec');
  assert.equal(formatDuration(t, 59_999), '59 sec');
  assert.equal(formatDuration(t, 60_000), '1 min');
  assert.equal(formatDuration(t, 5 * 60_000 + 3_000), '5 min 3 sec');
  assert.equal(formatDuration(t, 3_600_000), '1 h');
  assert.equal(formatDuration(t, 2 * 3_600_000 + 10 * 60_000 + 59_000), '2 h 10 min');
  assert.equal(formatDuration(t, 86_399_000), '23 h 59 min');
  assert.equal(formatDuration(t, 86_400_000), 'more than 1 day');
  assert.deepEqual(durationParts(90_061_000), { unit: 'moreThanDay' });
});
