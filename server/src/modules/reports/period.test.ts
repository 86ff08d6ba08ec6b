import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localDate, offsetMs, resolvePeriod, zonedMidnight } from './period.ts';
import { DURATION_BOUNDS_S, durationBucket, quantileFromBuckets, uuidV7Floor } from './rollup.ts';

const iso = (d: Date) => d.toISOString();

test('local midnight in zones with whole-hour, half-hour and DST offsets', () => {
  assert.equal(iso(zonedMidnight('2026-03-29', 'UTC')), '2026-03-29T00:00:00.000Z');
  assert.equal(iso(zonedMidnight('2026-03-29', 'Europe/London')), '2026-03-29T00:00:00.000Z');
  assert.equal(iso(zonedMidnight('2026-03-30', 'Europe/London')), '2026-03-29T23:00:00.000Z');
  assert.equal(iso(zonedMidnight('2026-10-25', 'Europe/London')), '2026-10-24T23:00:00.000Z');
  assert.equal(iso(zonedMidnight('2026-10-26', 'Europe/London')), '2026-10-26T00:00:00.000Z');
  assert.equal(iso(zonedMidnight('2026-07-01', 'Europe/Moscow')), '2026-06-30T21:00:00.000Z');
  assert.equal(iso(zonedMidnight('2026-07-01', 'Asia/Kolkata')), '2026-06-30T18:30:00.000Z');
  assert.equal(iso(zonedMidnight('2026-07-01', 'America/New_York')), '2026-07-01T04:00:00.000Z');
  // Santiago skips midnight at its spring change (2026-09-06 00:00 -> 01:00): the day starts at 01:00 local.
  assert.equal(iso(zonedMidnight('2026-09-06', 'America/Santiago')), '2026-09-06T04:00:00.000Z');
  assert.equal(localDate(Date.parse('2026-09-06T04:00:00Z'), 'America/Santiago'), '2026-09-06');
  assert.equal(offsetMs(Date.parse('2026-07-01T00:00:00Z'), 'Asia/Kathmandu'), 5.75 * 3_600_000);
});

test('named periods: today, yesterday, last 7 and 30 days, a custom range and a date; DST days are 23 and 25 hours', () => {
  const now = new Date('2026-03-29T23:30:00Z'); // 00:30 on 30 March in London (BST), still 29 March in UTC
  const today = resolvePeriod('today', now, 'Europe/London');
  assert.deepEqual(
    [today.from, iso(today.start), iso(today.end)],
    ['2026-03-30', '2026-03-29T23:00:00.000Z', '2026-03-30T23:00:00.000Z'],
  );
  assert.equal(resolvePeriod('today', now, 'UTC').from, '2026-03-29');
  const y = resolvePeriod('yesterday', now, 'Europe/London');
  assert.equal(y.from, '2026-03-29');
  assert.equal((y.end.getTime() - y.start.getTime()) / 3_600_000, 23);
  const last7 = resolvePeriod('last7', now, 'Europe/London');
  assert.deepEqual([last7.from, last7.to], ['2026-03-24', '2026-03-30']);
  assert.deepEqual([resolvePeriod('last30', now, 'UTC').from], ['2026-02-28']);
  const autumn = resolvePeriod('date', now, 'Europe/London', '2026-10-25');
  assert.equal((autumn.end.getTime() - autumn.start.getTime()) / 3_600_000, 25);
  const custom = resolvePeriod('custom', now, 'America/New_York', '2026-01-01', '2026-01-31');
  assert.deepEqual(
    [iso(custom.start), iso(custom.end)],
    ['2026-01-01T05:00:00.000Z', '2026-02-01T05:00:00.000Z'],
  );
});

test('duration buckets and quantiles', () => {
  assert.equal(durationBucket(0), 0);
  assert.equal(durationBucket(4_999), 0);
  assert.equal(durationBucket(5_000), 1);
  assert.equal(durationBucket(90_000), DURATION_BOUNDS_S.indexOf(120));
  assert.equal(durationBucket(10 ** 10), DURATION_BOUNDS_S.length);
  assert.equal(quantileFromBuckets(new Map(), 0.5), null);
  // One value in [60, 90): the median is the bucket's middle.
  assert.equal(quantileFromBuckets(new Map([[DURATION_BOUNDS_S.indexOf(90), 1]]), 0.5), 75);
  // 9 fast and 1 slow: the median is fast, p90 is at the fast bucket's top.
  const m = new Map([
    [0, 9],
    [DURATION_BOUNDS_S.indexOf(3600), 1],
  ]);
  assert.equal(quantileFromBuckets(m, 0.5), 2.8);
  assert.equal(quantileFromBuckets(m, 0.9), 5);
  assert.equal(uuidV7Floor(0), '00000000-0000-0000-0000-000000000000');
  assert.equal(uuidV7Floor(0x0123456789ab), '01234567-89ab-0000-0000-000000000000');
});
