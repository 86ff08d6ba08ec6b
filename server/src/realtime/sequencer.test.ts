import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StoredEvent } from './bus.ts';
import { Sequencer, type SequencerSource } from './sequencer.ts';

const ev = (id: number): StoredEvent => ({
  id: String(id),
  organisationId: 'org',
  type: 'message.created',
  payload: { id },
  audience: {},
  createdAt: new Date().toISOString(),
});
const options = { gapCheckMs: 10, gapTimeoutMs: 60, recentSize: 100 };
const none: SequencerSource = { between: async () => [] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function make(start: number, source: SequencerSource = none) {
  const out: number[] = [];
  const seq = new Sequencer(start, (e) => out.push(Number(e.id)), source, options);
  return { seq, out };
}

describe('Sequencer', () => {
  test('delivers in id order whatever the arrival order, each id once', () => {
    const { seq, out } = make(10);
    for (const id of [13, 12, 12, 14, 11, 13]) seq.accept(ev(id));
    assert.deepEqual(out, [11, 12, 13, 14]);
    assert.equal(seq.watermark, 14);
    seq.accept(ev(12));
    assert.deepEqual(out, [11, 12, 13, 14]);
    seq.close();
  });

  test('holds events above a hole until it fills', () => {
    const { seq, out } = make(0);
    seq.accept(ev(2));
    seq.accept(ev(3));
    assert.deepEqual(out, []);
    assert.equal(seq.held, 2);
    seq.accept(ev(1));
    assert.deepEqual(out, [1, 2, 3]);
    seq.close();
  });

  test('a discarded id (rolled back) is stepped over at once', () => {
    const { seq, out } = make(0);
    seq.accept(ev(2));
    seq.discard(['1']);
    assert.deepEqual(out, [2]);
    seq.close();
  });

  test('a hole is filled from the log when the bus lost the event', async () => {
    const { seq, out } = make(0, {
      between: async (after, before) => (after < 1 && before > 1 ? [ev(1)] : []),
    });
    seq.accept(ev(2));
    await sleep(40);
    assert.deepEqual(out, [1, 2]);
    seq.close();
  });

  test('a hole that never fills is stepped over after the timeout; the late event is still delivered once', async () => {
    const { seq, out } = make(0);
    seq.accept(ev(2));
    await sleep(20);
    assert.deepEqual(out, []);
    await sleep(120);
    assert.deepEqual(out, [2]);
    seq.accept(ev(1));
    seq.accept(ev(1));
    assert.deepEqual(out, [2, 1]);
    seq.close();
  });

  test('catchUp takes in what committed after the watermark', async () => {
    const { seq, out } = make(5, { between: async (after) => [ev(after + 1), ev(after + 2)] });
    await seq.catchUp();
    assert.deepEqual(out, [6, 7]);
    assert.equal(seq.watermark, 7);
    seq.close();
  });

  test('a hole is stepped over as soon as the writers in flight when it appeared have finished', async () => {
    let writers = ['tx-a', 'tx-b'];
    const out: number[] = [];
    const seq = new Sequencer(
      0,
      (e) => out.push(Number(e.id)),
      { between: async () => [], writers: async () => writers },
      { ...options, gapCheckMs: 60_000, gapTimeoutMs: 60_000 },
    );
    seq.accept(ev(2));
    await seq.checkGaps();
    assert.deepEqual(out, [], 'tx-a or tx-b may still commit id 1');
    writers = ['tx-b', 'tx-c'];
    await seq.checkGaps();
    assert.deepEqual(out, []);
    writers = ['tx-c'];
    seq.accept(ev(5));
    await seq.checkGaps();
    // 1 is dead; 3 and 4 were taken after the first look (tx-c may hold them): 5 waits.
    assert.deepEqual(out, [2]);
    writers = [];
    await seq.checkGaps();
    await seq.checkGaps();
    assert.deepEqual(out, [2, 5]);
    seq.close();
  });

  test('with no writer in flight a hole is stepped over at the first look, after reading the log', async () => {
    const out: number[] = [];
    const seq = new Sequencer(
      0,
      (e) => out.push(Number(e.id)),
      {
        between: async (after, before) =>
          [ev(3)].filter((e) => Number(e.id) > after && Number(e.id) < before),
        writers: async () => [],
      },
      { ...options, gapCheckMs: 60_000, gapTimeoutMs: 60_000 },
    );
    seq.accept(ev(2));
    seq.accept(ev(6));
    await seq.checkGaps();
    assert.deepEqual(out, [2, 3, 6]);
    seq.close();
  });
});
