import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { runDueTimers } from '../../src/jobs/timers.ts';
import { type Call, createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

const MIN = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Timers firing while operations change the same chats (and users) at the same moment, on PostgreSQL's real
 * concurrency. A statement trigger makes every statement on `timers` pause, so each operation is caught
 * holding its chat (or user) lock just before it writes the chat's timer rows, and the runner reaches the same
 * timer meanwhile: with the runner locking timer then chat and operations chat then timer, PostgreSQL breaks
 * that cycle by failing one side. Every operation must answer 200 and no timer may fail.
 */
describe('timers against concurrent chat operations', {
  skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL: PGlite runs one transaction at a time',
}, () => {
  let s: TestServer;
  const errors: unknown[] = [];
  /** Statements PostgreSQL failed to break a lock cycle (some callers retry them quietly). */
  let deadlocks = 0;
  // A server (database, clock) per test: no other test's due timers stand in the runner's way.
  beforeEach(async () => {
    errors.length = 0;
    deadlocks = 0;
    s = await startTestServer();
    await s.db.exec(`
      create table test_slow_timers (on_ boolean not null);
      insert into test_slow_timers values (false);
      create function test_slow_timers() returns trigger as $$
      begin
        if (select on_ from test_slow_timers) then perform pg_sleep(0.4); end if;
        return null;
      end $$ language plpgsql;
      create trigger test_slow_timers before insert or update or delete on timers
        for each statement execute function test_slow_timers();`);
    const count = (err: unknown) => {
      if ((err as { code?: string }).code === '40P01') deadlocks++;
      throw err;
    };
    const { query, tx } = s.db;
    s.db.query = ((sql: string, params?: unknown[]) => query(sql, params).catch(count)) as typeof s.db.query;
    s.db.tx = (fn) => tx(fn).catch(count);
    const log = s.app.log;
    const original = log.error.bind(log);
    log.error = ((...args: Parameters<typeof log.error>) => {
      errors.push(args[0]);
      return original(...args);
    }) as typeof log.error;
  });
  afterEach(() => s.close());

  const slow = (on: boolean) => s.db.query('update test_slow_timers set on_ = $1', [on]);

  /** Until the operation sits paused at its timer statement, its chat (or user) lock held (not a runner's). */
  async function operationPaused() {
    const end = Date.now() + 10_000;
    for (;;) {
      const rows = await s.db.query(
        `select 1 from pg_stat_activity
          where datname = current_database() and wait_event = 'PgSleep'
            and query not like 'update timers set claimed_by%' and query not like 'delete from timers where id = $1%'`,
      );
      if (rows.length) return;
      if (Date.now() > end) throw new Error('the operation never reached its timer statement');
      await sleep(10);
    }
  }

  /**
   * Starts `op`, waits until it holds its locks and is about to write its timers, moves the clock by `advanceMs`
   * (making the timer due) and runs the timers alongside; answers the operation's response once both are done.
   */
  async function race(op: () => Promise<Call>, advanceMs: number): Promise<Call> {
    await slow(true);
    try {
      const pending = op();
      await operationPaused();
      s.clock.advance(advanceMs);
      const fired = runDueTimers(s.app);
      const res = await pending;
      await fired;
      return res;
    } finally {
      await slow(false);
    }
  }

  async function setup(opts: { categories?: boolean } = {}) {
    const options = PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY' || opts.categories);
    const org = await createOrganisation(s, { options });
    const teamId = await makeTeam(org, {
      method: 'least_loaded',
      dialogLimit: 20,
      autoRedistributionMinutes: 5,
      autoCloseMinutes: 60,
    });
    const a = await org.user({ teams: [teamId] });
    const b = await org.user({ teams: [teamId] });
    await goOnline(a);
    await goOnline(b);
    const ch = await makeChannel(org, teamId);
    const open = async (client: string) => {
      const chatId: string = (await inbound(s, ch, { client })).body.entity.chatId;
      const chat = await chatOf(org.admin, chatId);
      const holder = chat.operator.id === a.id ? a : b;
      const other = holder === a ? b : a;
      return { chatId, holder, other };
    };
    return { org, teamId, a, b, ch, open };
  }

  const timersOf = async (subjectId: string) =>
    s.db.query<{ kind: string; due_at: Date }>(
      'select kind, due_at from timers where subject_id = $1 order by kind',
      [subjectId],
    );

  test('an operator reply while the redistribution timer fires', async () => {
    const { org, open } = await setup();
    const { chatId, holder } = await open('send');
    const res = await race(
      () => holder.api.post(`/api/chats/${chatId}/messages`, { text: 'On it' }),
      5 * MIN,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(errors, []);
    assert.equal(deadlocks, 0, 'no lock cycle');
    // The reply came first: the chat stays with its operator.
    assert.equal((await chatOf(org.admin, chatId)).operator.id, holder.id);
    assert.deepEqual(
      (await timersOf(chatId)).map((t) => t.kind),
      ['auto_close'],
    );
  });

  test('a close while the redistribution timer fires', async () => {
    const { org, open } = await setup();
    const { chatId, holder } = await open('close');
    const res = await race(() => holder.api.post(`/api/chats/${chatId}/close`), 5 * MIN);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(errors, []);
    assert.equal(deadlocks, 0, 'no lock cycle');
    assert.equal((await chatOf(org.admin, chatId)).status, 'closed');
    assert.deepEqual(await timersOf(chatId), []);
  });

  test('a transfer to a colleague while the redistribution timer fires', async () => {
    const { org, open } = await setup();
    const { chatId, holder, other } = await open('transfer');
    s.clock.advance(1 * MIN);
    const res = await race(
      () => holder.api.post(`/api/chats/${chatId}/transfer`, { operatorId: other.id }),
      4 * MIN,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(errors, []);
    assert.equal(deadlocks, 0, 'no lock cycle');
    // The transfer re-armed redistribution for the new operator: the old timer is void.
    assert.equal((await chatOf(org.admin, chatId)).operator.id, other.id);
  });

  test('a transfer to another team while the redistribution timer fires', async () => {
    const { org, open } = await setup();
    const sales = await makeTeam(org, { method: 'manual' });
    const { chatId, holder } = await open('to-team');
    const res = await race(
      () => holder.api.post(`/api/chats/${chatId}/transfer`, { teamId: sales }),
      5 * MIN,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(errors, []);
    assert.equal(deadlocks, 0, 'no lock cycle');
    const chat = await chatOf(org.admin, chatId);
    assert.equal(chat.team.id, sales);
    assert.equal(chat.status, 'waiting');
  });

  test('client messages into the open chat (the batch statement) while its auto-close timer fires', async () => {
    const { org, ch, open } = await setup();
    const { chatId } = await open('batch');
    s.clock.advance(1 * MIN);
    const res = await race(() => inbound(s, ch, { client: 'batch', text: 'still here' }), 59 * MIN);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.entity.chatId, chatId);
    assert.deepEqual(errors, []);
    assert.equal(deadlocks, 0, 'no lock cycle');
    // The client wrote a minute after opening: auto-close moved with it and the chat stays open.
    assert.notEqual((await chatOf(org.admin, chatId)).status, 'closed');
    const autoClose = (await timersOf(chatId)).find((t) => t.kind === 'auto_close');
    assert.ok(autoClose && new Date(autoClose.due_at) > s.clock.now());
  });

  test('a presence toggle while the auto-break timer fires', async () => {
    const { org, a } = await setup();
    assert.equal((await org.admin.api.patch(`/api/users/${a.id}`, { breakTimeoutMinutes: 10 })).status, 200);
    await goOnline(a, 'break');
    await goOnline(a);
    s.clock.advance(1 * MIN);
    const res = await race(() => a.api.patch('/api/presence', { status: 'offline' }), 9 * MIN);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(errors, []);
    assert.equal(deadlocks, 0, 'no lock cycle');
    const rows = await s.db.query<{ presence: string }>('select presence from users where id = $1', [a.id]);
    assert.equal(rows[0].presence, 'offline');
    assert.deepEqual(await timersOf(a.id), []);
  });

  test('many timers firing while operations run on the same chats: nothing fails, each timer fires once', async () => {
    const { org, ch, open } = await setup();
    const sales = await makeTeam(org, { method: 'manual' });
    const chats = [];
    for (let i = 0; i < 8; i++) chats.push(await open(`many-${i}`));
    s.clock.advance(5 * MIN);
    // An administrator acts (AUTHORITY_ALL_CHATS): whichever runs first, timer or operation, both are valid.
    const admin = org.admin.api;
    const ops: Promise<Call>[] = [];
    const runners: Promise<number>[] = [];
    for (const [i, c] of chats.entries()) {
      if (i % 4 === 0) ops.push(admin.post(`/api/chats/${c.chatId}/messages`, { text: 'hi' }));
      if (i % 4 === 1) ops.push(inbound(s, ch, { client: `many-${i}`, text: 'more' }));
      if (i % 4 === 2) ops.push(admin.post(`/api/chats/${c.chatId}/close`));
      if (i % 4 === 3) ops.push(admin.post(`/api/chats/${c.chatId}/transfer`, { teamId: sales }));
      runners.push(runDueTimers(s.app));
    }
    const results = await Promise.all(ops);
    await Promise.all(runners);
    await runDueTimers(s.app);
    for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(errors, []);
    assert.equal(deadlocks, 0, 'no lock cycle');
    for (const c of chats) {
      const kinds = (await admin.get(`/api/chats/${c.chatId}/history`)).body.entity.items.map(
        (h: { kind: string }) => h.kind,
      );
      assert.ok(kinds.filter((k: string) => k === 'redistribution').length <= 1, kinds.join());
    }
  });
});
