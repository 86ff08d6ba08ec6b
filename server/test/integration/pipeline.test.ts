import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  PIPELINE,
  registerStage,
  runJobsNow,
  runPipeline,
  type StageResult,
} from '../../src/jobs/pipeline.ts';
import { PIPELINE_HANDOVER_SECONDS, pendingJobCount } from '../../src/jobs/pipeline-queries.ts';
import { setAutomationNeed } from '../../src/modules/organisations/automation.ts';
import { createServer } from '../../src/server.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

/**
 * The conversation pipeline (ARCHITECTURE.md): ingest stores and enqueues; the job runs its stages in order in one
 * transaction; a stage that throws rolls the run back and the job runs again later, never losing or doubling
 * anything; a claim whose instance died is taken over; 'stop' ends the chain.
 */
describe('conversation pipeline', () => {
  let s: TestServer;
  // What the test's own stage (the 'bot' slot) does, per organisation: the other organisations pass through.
  const plans = new Map<string, { failures: number; result: StageResult; seen: string[] }>();
  before(async () => {
    s = await startTestServer();
    registerStage('bot', async (_tx, job) => {
      const plan = plans.get(job.organisation_id);
      if (!plan) return 'continue';
      plan.seen.push(job.message_id);
      if (plan.failures > 0) {
        plan.failures--;
        throw new Error('bot stage failed on purpose');
      }
      return plan.result;
    });
  });
  after(() => s.close());

  async function setup(plan: { failures?: number; result?: StageResult } = {}) {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    const teamId = await makeTeam(org, { memberIds: [op.id] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const state = { failures: plan.failures ?? 0, result: plan.result ?? 'continue', seen: [] as string[] };
    plans.set(org.id, state);
    return { org, op, teamId, ch, state };
  }

  /** Waits until no job is left (a poller may be finishing one). */
  const jobsDone = async () => {
    for (let i = 0; i < 100 && (await pendingJobCount(s.db)) > 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(await pendingJobCount(s.db), 0);
  };

  const messagesOf = async (org: TestOrg, chatId: string) =>
    (await org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items as { id: string }[];

  test('a new chat is routed by the queue stage after the ingest commit', async () => {
    const { org, op, ch, state } = await setup();
    const res = await inbound(s, ch, { client: 'c-route' });
    assert.equal(res.status, 200);
    const chat = await chatOf(org.admin, res.body.entity.chatId);
    assert.equal(chat.status, 'in_progress');
    assert.equal(chat.operator?.id, op.id);
    assert.deepEqual(state.seen, [res.body.entity.messageId]);
    assert.equal(await pendingJobCount(s.db), 0);
    // A message into the open chat needs no decision: no job, the bot slot does not see it.
    await inbound(s, ch, { client: 'c-route', text: 'again' });
    assert.equal(state.seen.length, 1);
  });

  test('a stage that throws is retried later; the message is neither lost nor doubled', async () => {
    const { org, op, ch, state } = await setup({ failures: 2 });
    const rec = recordEvents(s);
    const res = await inbound(s, ch, { client: 'c-fail' });
    // Acknowledged: the message is committed even though its decision failed.
    assert.equal(res.status, 200);
    const { chatId, messageId } = res.body.entity;
    assert.equal((await chatOf(org.admin, chatId)).status, 'waiting');
    assert.equal(await pendingJobCount(s.db), 1);
    // Left to the pollers: due once the storing instance's turn is over, then retried with backoff.
    assert.equal(await runPipeline(s.app), 0);
    s.clock.advance(PIPELINE_HANDOVER_SECONDS * 1000);
    assert.equal(await runPipeline(s.app), 0, 'second failure');
    assert.equal(await runPipeline(s.app), 0, 'not due before its backoff');
    assert.equal((await chatOf(org.admin, chatId)).status, 'waiting');
    s.clock.advance(PIPELINE.maxDelayMs);
    // Due now: this call or the server's own poller (every second) runs it; either way exactly once.
    await runPipeline(s.app);
    await jobsDone();
    const chat = await chatOf(org.admin, chatId);
    assert.equal(chat.status, 'in_progress');
    assert.equal(chat.operator?.id, op.id);
    assert.equal(await pendingJobCount(s.db), 0);
    assert.deepEqual(state.seen, [messageId, messageId, messageId]);
    // Done once: one assignment event, one message; a further run finds nothing.
    assert.equal(await runPipeline(s.app), 0);
    rec.stop();
    const assigned = rec.events.filter((e) => e.type === 'chat.assigned');
    assert.equal(assigned.length, 1);
    assert.deepEqual(
      (await messagesOf(org, chatId)).map((m) => m.id),
      [messageId],
    );
  });

  test("'stop' ends the chain: the queue stage does not run", async () => {
    const { org, ch } = await setup({ result: 'stop' });
    const res = await inbound(s, ch, { client: 'c-stop' });
    const chat = await chatOf(org.admin, res.body.entity.chatId);
    assert.equal(chat.status, 'waiting');
    assert.equal(chat.operator, null);
    assert.equal(await pendingJobCount(s.db), 0);
  });

  test('inbound automation is on while any module needs it, and only then', async () => {
    const { org } = await setup();
    const flag = async () =>
      (
        await s.db.query<{ on: boolean }>(
          'select inbound_automation as on from organisations where id = $1',
          [org.id],
        )
      )[0]?.on;
    assert.equal(await flag(), false);
    await setAutomationNeed(s.db, org.id, 'routing_rules', true);
    await setAutomationNeed(s.db, org.id, 'auto_replies', true);
    await setAutomationNeed(s.db, org.id, 'auto_replies', true);
    assert.equal(await flag(), true);
    await setAutomationNeed(s.db, org.id, 'routing_rules', false);
    assert.equal(await flag(), true, 'auto-replies still need it');
    await setAutomationNeed(s.db, org.id, 'auto_replies', false);
    assert.equal(await flag(), false);
  });

  test('with inbound automation every message of an open chat goes through the stages, in order', async () => {
    const { org, ch, state } = await setup();
    await setAutomationNeed(s.db, org.id, 'routing_rules', true);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await inbound(s, ch, { client: 'c-auto', text: `m${i}` })).body.entity.messageId);
    // Sent together, they are written by one batch statement and still each pass once.
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => inbound(s, ch, { client: `c-burst-${i % 3}`, text: `b${i}` })),
    );
    ids.push(...burst.map((r) => r.body.entity.messageId));
    // A message into an open chat is answered on its commit; its job runs right after.
    await jobsDone();
    assert.deepEqual([...state.seen].sort(), [...ids].sort());
    assert.equal(new Set(state.seen).size, ids.length);
    assert.deepEqual(
      state.seen.filter((id) => ids.slice(0, 5).includes(id)),
      ids.slice(0, 5),
    );
    // A provider's retry of a stored message enqueues nothing new.
    const again = await inbound(s, ch, { client: 'c-auto', externalMessageId: 'fixed-1' });
    await inbound(s, ch, { client: 'c-auto', externalMessageId: 'fixed-1' });
    await jobsDone();
    assert.equal(state.seen.filter((id) => id === again.body.entity.messageId).length, 1);
    assert.equal(await pendingJobCount(s.db), 0);
  });

  test("a burst of one chat's messages, written by one statement, passes the stages in the order they were stored", async () => {
    const { org, ch, state } = await setup();
    await s.db.query('update organisations set inbound_automation = true where id = $1', [org.id]);
    const first = await inbound(s, ch, { client: 'c-burst-order', text: 'open' });
    const { chatId } = first.body.entity;
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => inbound(s, ch, { client: 'c-burst-order', text: `b${i}` })),
    );
    await jobsDone();
    const stored = (await messagesOf(org, chatId)).map((m) => m.id);
    assert.equal(stored.length, 13);
    assert.deepEqual(
      state.seen.filter((id) => stored.includes(id)),
      stored,
    );
  });

  test("a chat's later message waits while an earlier job of the chat is failing, then passes after it", async () => {
    const { org, op, ch, state } = await setup({ failures: 1 });
    await s.db.query('update organisations set inbound_automation = true where id = $1', [org.id]);
    const first = await inbound(s, ch, { client: 'c-wait' });
    const { chatId, messageId: m0 } = first.body.entity;
    assert.deepEqual(state.seen, [m0], 'the first run failed');
    const second = await inbound(s, ch, { client: 'c-wait', text: 'second' });
    const m1 = second.body.entity.messageId;
    // Its run right after the commit does not take it: the chat's earlier job is still pending.
    await runJobsNow(s.app, [m1]);
    assert.deepEqual(state.seen, [m0]);
    assert.equal(await pendingJobCount(s.db), 2);
    // The pollers: not before the earlier job's retry is due, then both, in order.
    s.clock.advance(PIPELINE_HANDOVER_SECONDS * 1000 + PIPELINE.maxDelayMs);
    await runPipeline(s.app);
    await jobsDone();
    assert.deepEqual(state.seen, [m0, m0, m1]);
    const chat = await chatOf(org.admin, chatId);
    assert.equal(chat.operator?.id, op.id);
  });

  test('a job whose instance died is run by another instance once its lease ends', async () => {
    const { org, op, ch, state } = await setup({ failures: 1 });
    const res = await inbound(s, ch, { client: 'c-dead' });
    const { chatId } = res.body.entity;
    // An instance claims it and dies before it runs: the claim stays, with its lease.
    await s.db.query(
      `update pipeline_jobs set claimed_by = gen_random_uuid(), lease_until = $2, due_at = $3 where chat_id = $1`,
      [chatId, new Date(s.clock.now().getTime() + PIPELINE.leaseMs), s.clock.now()],
    );
    // A second instance on the same database (a restart): nothing while the lease holds, the job after it.
    // Its close leaves the shared database open for the first instance.
    const other = await createServer(s.app.config, {
      db: { ...s.db, close: async () => undefined },
      clock: s.clock,
    });
    try {
      assert.equal(await runPipeline(other.app), 0);
      s.clock.advance(PIPELINE.leaseMs + 1);
      // Taken over: by this instance, or by a poller (every second) that got there first.
      await runPipeline(other.app);
      await jobsDone();
    } finally {
      await other.close();
    }
    const chat = await chatOf(org.admin, chatId);
    assert.equal(chat.operator?.id, op.id);
    assert.equal(state.seen.length, 2);
  });
});
