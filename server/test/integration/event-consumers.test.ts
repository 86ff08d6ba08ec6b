import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StoredEvent } from '../../src/realtime/bus.ts';
import { onEvent } from '../../src/realtime/consumers.ts';
import { withEvents } from '../../src/realtime/emit.ts';
import { createOrganisation, logSink, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';

/** Event consumers (`onEvent`): after the commit, once per committed event, best effort. */
describe('event consumers', () => {
  let s: TestServer;
  let org: TestOrg;
  const { stream, lines: logs } = logSink();
  before(async () => {
    s = await startTestServer({ logStream: stream });
    org = await createOrganisation(s);
  });
  after(() => s.close());

  /** Consumes the test's own events only (the server may emit others of the same type). */
  function consume(marker: string, fn: (e: StoredEvent) => void = () => undefined) {
    const seen: StoredEvent[] = [];
    const off = onEvent('chat.updated', (_app, e) => {
      if ((e.payload as { marker?: string } | null)?.marker !== marker) return;
      seen.push(e);
      fn(e);
    });
    return { seen, off };
  }

  const emitOne = (marker: string) =>
    withEvents(s.app, async (_q, emit) => {
      await emit(org.id, 'chat.updated', { marker }, { userIds: [org.admin.id] });
      return 'done';
    });

  test('an event committed through withEvents reaches its consumer once, after the commit', async () => {
    const visible: number[] = [];
    const c = consume('committed');
    // The event is committed by the time the consumer runs: a query outside the transaction sees its row.
    const check = onEvent('chat.updated', async (app, e) => {
      if ((e.payload as { marker?: string } | null)?.marker !== 'committed') return;
      visible.push((await app.db.query('select id from events where id = $1', [e.id])).length);
    });
    const other = onEvent('chat.closed', () => assert.fail('a consumer of another type must not run'));
    try {
      assert.equal(await emitOne('committed'), 'done');
      assert.equal(c.seen.length, 1);
      assert.equal(c.seen[0].organisationId, org.id);
      assert.deepEqual(c.seen[0].payload, { marker: 'committed' });
      assert.deepEqual(visible, [1]);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(c.seen.length, 1);
    } finally {
      c.off();
      check();
      other();
    }
  });

  test('an event of a rolled-back transaction never reaches a consumer', async () => {
    const c = consume('rolled-back');
    try {
      await assert.rejects(
        withEvents(s.app, async (_q, emit) => {
          await emit(org.id, 'chat.updated', { marker: 'rolled-back' }, { userIds: [org.admin.id] });
          throw new Error('roll back');
        }),
        /roll back/,
      );
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(c.seen.length, 0);
    } finally {
      c.off();
    }
  });

  test('a consumer that throws fails neither the caller, nor the bus, nor the other consumers', async () => {
    const failing = consume('throws', () => {
      throw new Error('consumer boom');
    });
    const fine = consume('throws');
    const published: StoredEvent[] = [];
    const unsubscribe = s.app.bus.subscribe((e) => {
      if ((e.payload as { marker?: string } | null)?.marker === 'throws') published.push(e);
    });
    try {
      assert.equal(await emitOne('throws'), 'done');
      assert.equal(failing.seen.length, 1);
      assert.equal(fine.seen.length, 1);
      assert.equal(published.length, 1);
      assert.ok(logs.some((l) => l.includes('event consumer failed') && l.includes('consumer boom')));
    } finally {
      failing.off();
      fine.off();
      unsubscribe();
    }
  });
});
