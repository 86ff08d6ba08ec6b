import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isComplete, periodParams } from './use-period.ts';

test('a period is complete with a name, a date, or an ordered range; its query names only what it needs', () => {
  assert.equal(isComplete({ period: 'last7', from: '', to: '' }), true);
  assert.equal(isComplete({ period: 'date', from: '', to: '' }), false);
  assert.equal(isComplete({ period: 'custom', from: '2026-03-02', to: '2026-03-01' }), false);
  assert.equal(isComplete({ period: 'custom', from: '2026-03-01', to: '2026-03-02' }), true);
  assert.equal(periodParams({ period: 'today', from: 'x', to: 'y' }).toString(), 'period=today');
  assert.equal(
    periodParams({ period: 'date', from: '2026-03-29', to: '' }, { format: 'csv' }).toString(),
    'period=date&format=csv&from=2026-03-29',
  );
  assert.equal(
    periodParams({ period: 'custom', from: '2026-03-01', to: '2026-03-31' }).toString(),
    'period=custom&from=2026-03-01&to=2026-03-31',
  );
});
