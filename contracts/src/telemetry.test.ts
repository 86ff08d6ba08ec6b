import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rateVital, TELEMETRY, WEB_VITAL_THRESHOLDS, WEB_VITALS } from './telemetry.ts';

test('web vitals are rated with the spec thresholds, at their edges', () => {
  const edges: [string, number, number, number][] = [
    // name, good, poor, a step past an edge
    ['FCP', 1800, 3000, 1],
    ['LCP', 2500, 4000, 1],
    ['CLS', 0.1, 0.25, 0.001],
    ['INP', 200, 500, 1],
    ['FID', 100, 300, 1],
    ['TTFB', 800, 1800, 1],
  ];
  assert.deepEqual(
    edges.map((e) => e[0]),
    [...WEB_VITALS],
  );
  for (const [name, good, poor, step] of edges) {
    const n = name as (typeof WEB_VITALS)[number];
    assert.deepEqual(WEB_VITAL_THRESHOLDS[n], [good, poor]);
    assert.equal(rateVital(n, 0), 'good', name);
    assert.equal(rateVital(n, good), 'good', `${name} at good`);
    assert.equal(rateVital(n, good + step), 'needs-improvement', `${name} past good`);
    assert.equal(rateVital(n, poor), 'needs-improvement', `${name} at poor`);
    assert.equal(rateVital(n, poor + step), 'poor', `${name} past poor`);
  }
});

test('telemetry constants are the spec values', () => {
  assert.equal(TELEMETRY.bufferSize, 30);
  assert.equal(TELEMETRY.concurrency, 5);
  assert.equal(TELEMETRY.backoffMs, 5000);
  assert.equal(TELEMETRY.keepaliveLimit, 60000);
  assert.equal(TELEMETRY.traceBatch, 30);
  assert.equal(TELEMETRY.traceDelayMs, 1000);
  assert.equal(TELEMETRY.userActionQuietMs, 100);
  assert.equal(TELEMETRY.pendingRequestTimeoutMs, 10000);
});
