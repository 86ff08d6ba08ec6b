import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { TimerKind } from '../../src/jobs/queries.ts';
import { registerTimer, runDueTimers, TIMERS } from '../../src/jobs/timers.ts';
import { createOrganisation, logSink, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';

type Row = { claimed_by: string | null; lease_until: Date | null; due_at: Date };

/** The timer registry: modules register what fires each kind; a kind nobody registered is kept, not lost. */
describe('timer registry', () => {
  let s: TestServer;
  let org: TestOrg;
  const { stream, lines: logs } = logSink();
  before(async () => {
    s = await startTestServer({ logStream: stream });
    org = await createOrganisation(s);
  });
  after(() => s.close());

  const addTimer = async (kind: string, dueAt: Date) => {
    const subjectId = randomUUID();
    await s.app.db.query(
      'insert into timers (organisation_id, kind, subject_id, due_at) values ($1, $2, $3, $4)',
      [org.id, kind, subjectId, dueAt],
    );
    return subjectId;
  };
  const timerOf = async (kind: string, subjectId: string) =>
    (
      await s.app.db.query<Row>(
        'select claimed_by, lease_until, due_at from timers where kind = $1 and subject_id = $2',
        [kind, subjectId],
      )
    )[0];

  test('a due timer of a kind with no handler is released for later with a logged error, not lost', async () => {
    const now = s.clock.now();
    const subjectId = await addTimer('nobody_knows', now);
    await runDueTimers(s.app);
    const row = await timerOf('nobody_knows', subjectId);
    assert.ok(row, 'the timer is still there');
    assert.equal(row.claimed_by, null);
    assert.equal(row.lease_until, null);
    assert.equal(new Date(row.due_at).getTime(), now.getTime() + TIMERS.retryFailedMs);
    assert.ok(logs.some((l) => l.includes('no handler registered for this timer kind')));

    // Once its module registers the kind, the timer fires at its next due time.
    const kind = 'nobody_knows' as TimerKind;
    const fired: string[] = [];
    registerTimer(kind, {
      lock: async () => undefined,
      fire: async (_tx, orgId, id) => void fired.push(`${orgId}:${id}`),
    });
    s.clock.advance(TIMERS.retryFailedMs);
    await runDueTimers(s.app);
    assert.deepEqual(fired, [`${org.id}:${subjectId}`]);
    assert.equal(await timerOf('nobody_knows', subjectId), undefined);
  });

  test('registering a kind again replaces its handler', async () => {
    const kind = 'replaced_kind' as TimerKind;
    const fired: string[] = [];
    registerTimer(kind, { lock: async () => undefined, fire: async () => void fired.push('first') });
    registerTimer(kind, { lock: async () => undefined, fire: async () => void fired.push('second') });
    const subjectId = await addTimer('replaced_kind', s.clock.now());
    await runDueTimers(s.app);
    assert.deepEqual(fired, ['second']);
    assert.equal(await timerOf('replaced_kind', subjectId), undefined);
  });
});
