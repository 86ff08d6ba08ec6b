import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type BatchOutcome, type BatchStore, IngestBatcher, MicroStamps } from './ingest-batcher.ts';

type Item = { client: string; id: string; text: string };
type Result = { id: string; duplicate: boolean; via: 'batch' | 'alone' };

/**
 * A store in memory: `stored` is the committed log, in commit order. Clients in `newClients` have no open chat
 * (the batch misses them until the lone path has stored one of their messages); `commit` lets a test hold or
 * fail the commit of a batch.
 */
function memoryStore(
  opts: {
    newClients?: string[];
    bad?: (item: Item) => boolean;
    commit?: (items: Item[]) => Promise<void>;
  } = {},
) {
  const stored: Item[] = [];
  const published: string[] = [];
  const open = new Set<string>();
  const newClients = new Set(opts.newClients ?? []);
  const calls = { batches: [] as string[][], alone: [] as string[] };
  const store: BatchStore<Item, Result, string> = {
    async append(items) {
      calls.batches.push(items.map((i) => i.id));
      await new Promise((r) => setImmediate(r));
      if (items.some((i) => opts.bad?.(i))) throw new Error('bad message in batch');
      const out: BatchOutcome<Result, string>[] = [];
      const commitLog: Item[] = [];
      for (const i of items) {
        if (stored.some((s) => s.id === i.id))
          out.push({ kind: 'duplicate', result: { id: i.id, duplicate: true, via: 'batch' } });
        else if (newClients.has(i.client) && !open.has(i.client)) out.push({ kind: 'miss' });
        else {
          commitLog.push(i);
          out.push({
            kind: 'appended',
            result: { id: i.id, duplicate: false, via: 'batch' },
            events: [i.id],
          });
        }
      }
      await opts.commit?.(items);
      stored.push(...commitLog);
      return out;
    },
    async alone(item) {
      calls.alone.push(item.id);
      await new Promise((r) => setTimeout(r, 2));
      if (opts.bad?.(item)) throw new Error(`bad message ${item.id}`);
      await opts.commit?.([item]);
      if (stored.some((s) => s.id === item.id)) return { id: item.id, duplicate: true, via: 'alone' };
      open.add(item.client);
      stored.push(item);
      published.push(item.id);
      return { id: item.id, duplicate: false, via: 'alone' };
    },
    async publish(events) {
      published.push(...events);
    },
    duplicateOf: (r) => ({ ...r, duplicate: true }),
  };
  return { store, stored, published, calls };
}

const key = (i: Item) => ({ channelId: 'ch', externalClientId: i.client, externalMessageId: i.id });
const submit = (b: IngestBatcher<Item, Result, string>, i: Item) => b.submit(key(i), () => i);

describe('ingest batcher (group commit)', () => {
  test('messages arriving together are written by one statement, each answered after it', async () => {
    const m = memoryStore();
    const b = new IngestBatcher(m.store);
    const items = Array.from({ length: 30 }, (_, n) => ({ client: `c${n % 5}`, id: `m${n}`, text: 't' }));
    const results = await Promise.all(items.map((i) => submit(b, i)));
    assert.deepEqual(m.calls.batches, [items.map((i) => i.id)]);
    assert.ok(results.every((r, n) => r.id === `m${n}` && !r.duplicate));
    assert.deepEqual(
      m.published,
      items.map((i) => i.id),
    );
  });

  test('20 parallel copies of one message: stored once, every copy answered, 19 as duplicates', async () => {
    const m = memoryStore();
    const b = new IngestBatcher(m.store);
    const item = { client: 'c', id: 'same', text: 't' };
    const results = await Promise.all(Array.from({ length: 20 }, () => submit(b, item)));
    assert.equal(m.stored.length, 1);
    assert.equal(results.filter((r) => !r.duplicate).length, 1);
    assert.equal(results.filter((r) => r.duplicate).length, 19);
    // also when the copies are spread over several batches, and for a client without a chat yet
    const m2 = memoryStore({ newClients: ['n'] });
    const b2 = new IngestBatcher(m2.store, { maxBatch: 3 });
    const fresh = { client: 'n', id: 'first', text: 't' };
    const r2 = await Promise.all(Array.from({ length: 20 }, () => submit(b2, fresh)));
    assert.equal(m2.stored.length, 1);
    assert.equal(r2.filter((r) => !r.duplicate).length, 1);
  });

  for (const lanes of [1, 3])
    test(`messages of one client keep their arrival order, also behind the first message of a new chat (${lanes} lane(s))`, async () => {
      const m = memoryStore({ newClients: ['a'] });
      const b = new IngestBatcher(m.store, { maxBatch: 4, lanes });
      const items = Array.from({ length: 12 }, (_, n) => ({
        client: n % 3 ? 'a' : 'b',
        id: `m${n}`,
        text: 't',
      }));
      const pending = items.slice(0, 6).map((i) => submit(b, i));
      await new Promise((r) => setTimeout(r, 1));
      pending.push(...items.slice(6).map((i) => submit(b, i)));
      await Promise.all(pending);
      const order = (client: string) => m.stored.filter((s) => s.client === client).map((s) => s.id);
      assert.deepEqual(
        order('a'),
        items.filter((i) => i.client === 'a').map((i) => i.id),
      );
      assert.deepEqual(
        order('b'),
        items.filter((i) => i.client === 'b').map((i) => i.id),
      );
      assert.ok(m.calls.alone.includes('m1'), 'the new chat was opened on the lone path');
    });

  test('a message that fails its batch fails alone; its batch-mates are stored and answered', async () => {
    const m = memoryStore({ bad: (i) => i.text === 'bad' });
    const b = new IngestBatcher(m.store);
    const items = Array.from({ length: 8 }, (_, n) => ({
      client: `c${n % 2}`,
      id: `m${n}`,
      text: n === 3 ? 'bad' : 't',
    }));
    const settled = await Promise.allSettled(items.map((i) => submit(b, i)));
    assert.deepEqual(
      settled.map((s) => s.status),
      items.map((i) => (i.text === 'bad' ? 'rejected' : 'fulfilled')),
    );
    assert.deepEqual(
      m.stored.map((s) => s.id),
      items.filter((i) => i.text !== 'bad').map((i) => i.id),
    );
  });

  test('nothing is answered before its commit; a failed commit is an error, never a success', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const m = memoryStore({ commit: () => held });
    const b = new IngestBatcher(m.store);
    let answered = 0;
    const p = Promise.all(
      [1, 2, 3].map((n) =>
        submit(b, { client: 'c', id: `m${n}`, text: 't' }).then((r) => {
          answered++;
          return r;
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(answered, 0, 'answered while the commit was still pending');
    release();
    await p;
    assert.equal(answered, 3);

    const failing = memoryStore({
      commit: async () => {
        throw new Error('commit failed');
      },
    });
    const fb = new IngestBatcher(failing.store);
    const out = await Promise.allSettled(
      [1, 2, 3].map((n) => submit(fb, { client: `c${n}`, id: `f${n}`, text: 't' })),
    );
    assert.deepEqual(
      out.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.equal(failing.stored.length, 0);
    assert.equal(failing.published.length, 0);
  });
});

describe('MicroStamps', () => {
  test('strictly increasing within one millisecond, the first on the bare millisecond', () => {
    const s = new MicroStamps();
    const t = new Date('2026-01-02T03:04:05.678Z');
    assert.equal(s.next(t), '2026-01-02T03:04:05.678000Z');
    assert.equal(s.next(t), '2026-01-02T03:04:05.678001Z');
    assert.equal(s.next(t), '2026-01-02T03:04:05.678002Z');
    assert.equal(s.next(new Date(t.getTime() + 1)), '2026-01-02T03:04:05.679000Z');
  });
});
