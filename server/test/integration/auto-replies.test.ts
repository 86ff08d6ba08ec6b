import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS, type PlanOption } from '@smartconnect/contracts';
import { loadConfig } from '../../src/config.ts';
import { openPglite, openPostgres } from '../../src/db/index.ts';
import { registerStage } from '../../src/jobs/pipeline.ts';
import { pendingJobCount } from '../../src/jobs/pipeline-queries.ts';
import { runDueTimers } from '../../src/jobs/timers.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { ratingReplyText } from '../../src/modules/auto-replies/service.ts';
import { queueStage } from '../../src/modules/conversation/queue-stage.ts';
import { createServer } from '../../src/server.ts';
import { freshDatabase } from '../db.ts';
import {
  Api,
  createOrganisation,
  createPlatformStaff,
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestUser,
} from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, type TestChannel } from './chats-fixtures.ts';

const MIN = 60_000;
/** Without OPTION_CATEGORY a chat closes without a request category (the tests close sessions). */
const OPTIONS = PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY');

type Replies = {
  online?: { enabled: boolean; text: string };
  offline?: { enabled: boolean; text: string };
  rating?: { enabled: boolean; text: string };
  holding?: { enabled: boolean; text: string; waitMinutes: number };
};
const OFF = { enabled: false, text: '' };
const body = (r: Replies) => ({
  online: r.online ?? OFF,
  offline: r.offline ?? OFF,
  rating: r.rating ?? OFF,
  holding: r.holding ?? { ...OFF, waitMinutes: 2 },
});

async function waitFor(check: () => Promise<boolean> | boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The automation messages (no author) the chat's client was sent, oldest first. */
const sentTo = async (s: TestServer, chatId: string) =>
  (
    await s.db.query<{ text: string }>(
      `select text from messages where chat_id = $1 and direction = 'out' and author_id is null
        order by created_at, id`,
      [chatId],
    )
  ).map((r) => r.text);

/**
 * Channel automatic replies (§3 Auto-replies, issue 13): online and offline once per waiting period (online only
 * before the session's first operator answer), the holding phrase after 1, 2 or 5 minutes once per waiting period
 * through a durable timer, never to a client who blocked us, nothing without OPTION_AUTO_REPLY; the API's rights,
 * validation and isolation.
 */
describe('automatic replies', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  /** Every pipeline job done (the ingest answer waits only for a chat's first message). */
  const jobsDone = () => waitFor(async () => (await pendingJobCount(s.db)) === 0);

  /** Moves the clock and fires what is due (the server's own poller may fire some first: same result). */
  async function advance(ms: number) {
    s.clock.advance(ms);
    await runDueTimers(s.app);
    await waitFor(
      async () => (await s.db.query('select 1 from timers where due_at <= $1', [s.clock.now()])).length === 0,
    );
  }

  type Setup = { org: TestOrg; op: TestUser; ch: TestChannel; teamId: string };
  async function setup(replies: Replies, options: PlanOption[] = OPTIONS): Promise<Setup> {
    const org = await createOrganisation(s, { options });
    const op = await org.user({ teams: [] });
    const teamId = await makeTeam(org, { memberIds: [op.id] });
    const ch = await makeChannel(org, teamId);
    if (options.includes('OPTION_AUTO_REPLY')) {
      const res = await org.admin.api.put(`/api/channels/${ch.id}/auto-replies`, body(replies));
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    return { org, op, ch, teamId };
  }
  async function write(x: Setup, client: string, text = 'Hello') {
    const res = await inbound(s, x.ch, { client, text });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await jobsDone();
    return res.body.entity.chatId as string;
  }
  async function answer(user: TestUser, chatId: string) {
    const res = await user.api.post(`/api/chats/${chatId}/messages`, { text: 'Operator here' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  test('the settings: all off until saved, saved as sent, and the organisation’s pipeline need follows them', async () => {
    const x = await setup({});
    const fresh = await x.org.admin.api.get(`/api/channels/${x.ch.id}/auto-replies`);
    assert.equal(fresh.status, 200);
    assert.deepEqual(fresh.body.entity, { channelId: x.ch.id, ...body({}) });
    const automation = async () =>
      (
        await s.db.query<{ inbound_automation: boolean }>(
          'select inbound_automation from organisations where id = $1',
          [x.org.id],
        )
      )[0].inbound_automation;
    assert.equal(await automation(), false);
    const replies = {
      online: { enabled: true, text: '  We are here  ' },
      offline: { enabled: false, text: 'Kept while off' },
      rating: { enabled: true, text: 'Rate us' },
      holding: { enabled: true, text: 'Still with you', waitMinutes: 5 },
    };
    const saved = await x.org.admin.api.put(`/api/channels/${x.ch.id}/auto-replies`, replies);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const expected = { channelId: x.ch.id, ...replies, online: { enabled: true, text: 'We are here' } };
    assert.deepEqual(saved.body.entity, expected);
    assert.deepEqual(
      (await x.org.admin.api.get(`/api/channels/${x.ch.id}/auto-replies`)).body.entity,
      expected,
    );
    assert.equal(await automation(), true);
    // The rating reply needs no client message: alone it does not send every message through the pipeline.
    await x.org.admin.api.put(`/api/channels/${x.ch.id}/auto-replies`, body({ rating: replies.rating }));
    assert.equal(await automation(), false);
    assert.equal(await ratingReplyText(s.db, x.org.id, x.ch.id), 'Rate us');
  });

  test('bad input: §5 field messages, nothing saved', async () => {
    const x = await setup({ online: { enabled: true, text: 'Original' } });
    const put = (b: unknown) => x.org.admin.api.put(`/api/channels/${x.ch.id}/auto-replies`, b);
    for (const waitMinutes of [3, 0, 10, '2', null, 1.5]) {
      const res = await put({ ...body({}), holding: { enabled: true, text: 'Wait', waitMinutes } });
      assert.equal(res.status, 400, `waitMinutes ${waitMinutes}`);
      assert.equal(res.body.code, 'validationException');
      assert.deepEqual(res.body.error.fields, { 'holding.waitMinutes': 'Time specified incorrectly' });
    }
    const empty = await put(
      body({ online: { enabled: true, text: '   ' }, offline: { enabled: true, text: '' } }),
    );
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body.error.fields, {
      'online.text': 'Please fill in all required fields',
      'offline.text': 'Please fill in all required fields',
    });
    const long = await put(body({ rating: { enabled: false, text: 'x'.repeat(1001) } }));
    assert.equal(long.status, 400);
    assert.deepEqual(long.body.error.fields, { 'rating.text': 'Value specified incorrectly' });
    const missing = await put({ online: { enabled: true, text: 'x' } });
    assert.equal(missing.status, 400);
    assert.ok(missing.body.error.fields.offline && missing.body.error.fields.holding);
    // The longest text is taken.
    assert.equal((await put(body({ rating: { enabled: true, text: 'y'.repeat(1000) } }))).status, 200);
    const now = (await x.org.admin.api.get(`/api/channels/${x.ch.id}/auto-replies`)).body.entity;
    assert.equal(now.rating.text.length, 1000);
    assert.equal(now.online.enabled, false);
  });

  test('online: once per session while an operator of the team is in work, not again in the session', async () => {
    const x = await setup({
      online: { enabled: true, text: 'An operator will answer shortly' },
      offline: { enabled: true, text: 'We are offline' },
    });
    await goOnline(x.op);
    const chatId = await write(x, 'on-1');
    assert.deepEqual(await sentTo(s, chatId), ['An operator will answer shortly']);
    await write(x, 'on-1', 'more');
    await write(x, 'on-1', 'and more');
    assert.deepEqual(await sentTo(s, chatId), ['An operator will answer shortly']);
    // The operator answered: the session is greeted already, the next client message gets nothing.
    await answer(x.op, chatId);
    await write(x, 'on-1', 'thanks');
    assert.deepEqual(await sentTo(s, chatId), ['An operator will answer shortly']);
    // A new session is greeted again.
    assert.equal((await x.op.api.post(`/api/chats/${chatId}/close`)).status, 200);
    const next = await write(x, 'on-1', 'back again');
    assert.notEqual(next, chatId);
    assert.deepEqual(await sentTo(s, next), ['An operator will answer shortly']);
  });

  test('offline: when nobody of the chat’s team is in work, once until an operator answers', async () => {
    const x = await setup({
      online: { enabled: true, text: 'Online reply' },
      offline: { enabled: true, text: 'We are offline, we answer at 9:00' },
    });
    // Someone of another team is in work: it does not count.
    const other = await x.org.user({ teams: [await makeTeam(x.org)] });
    await goOnline(other);
    const chatId = await write(x, 'off-1');
    assert.deepEqual(await sentTo(s, chatId), ['We are offline, we answer at 9:00']);
    await write(x, 'off-1', 'anyone?');
    assert.deepEqual(await sentTo(s, chatId), ['We are offline, we answer at 9:00']);
    // The operator comes, gets the chat, answers and leaves: the client writes into an empty room again.
    await goOnline(x.op);
    await waitFor(
      async () => (await x.op.api.get(`/api/chats/${chatId}`)).body.entity?.operator?.id === x.op.id,
    );
    await answer(x.op, chatId);
    await goOnline(x.op, 'offline');
    await write(x, 'off-1', 'one more question');
    await write(x, 'off-1', 'hello?');
    assert.deepEqual(await sentTo(s, chatId), [
      'We are offline, we answer at 9:00',
      'We are offline, we answer at 9:00',
    ]);
  });

  for (const waitMinutes of [1, 2, 5]) {
    test(`holding after ${waitMinutes} min without an operator answer, once per waiting period`, async () => {
      const x = await setup({
        holding: { enabled: true, text: `Please wait (${waitMinutes})`, waitMinutes },
      });
      await goOnline(x.op);
      const chatId = await write(x, `hold-${waitMinutes}`);
      await advance(waitMinutes * MIN - 1000);
      await write(x, `hold-${waitMinutes}`, 'hello?');
      assert.deepEqual(await sentTo(s, chatId), [], 'not before the wait from the first unanswered message');
      await advance(1000);
      assert.deepEqual(await sentTo(s, chatId), [`Please wait (${waitMinutes})`]);
      await write(x, `hold-${waitMinutes}`, 'still waiting');
      await advance(10 * MIN);
      assert.deepEqual(await sentTo(s, chatId), [`Please wait (${waitMinutes})`], 'once per waiting period');
      // An answer ends the period; a later client message starts a new one.
      await answer(x.op, chatId);
      await advance(10 * MIN);
      await write(x, `hold-${waitMinutes}`, 'another question');
      await advance(waitMinutes * MIN);
      assert.deepEqual(await sentTo(s, chatId), [
        `Please wait (${waitMinutes})`,
        `Please wait (${waitMinutes})`,
      ]);
    });
  }

  test('holding: an operator answer within the wait cancels it', async () => {
    const x = await setup({ holding: { enabled: true, text: 'Hold on', waitMinutes: 2 } });
    await goOnline(x.op);
    const chatId = await write(x, 'hold-cancel');
    await advance(MIN);
    await answer(x.op, chatId);
    await advance(5 * MIN);
    assert.deepEqual(await sentTo(s, chatId), []);
    // The client writes again after the answer: a new waiting period, its own phrase.
    await write(x, 'hold-cancel', 'ok, and?');
    await advance(2 * MIN);
    assert.deepEqual(await sentTo(s, chatId), ['Hold on']);
  });

  test('holding: nothing while nobody of the team is in work (the offline reply speaks then)', async () => {
    const x = await setup({
      offline: { enabled: true, text: 'Offline' },
      holding: { enabled: true, text: 'Hold on', waitMinutes: 1 },
    });
    const chatId = await write(x, 'nobody');
    await advance(5 * MIN);
    assert.deepEqual(await sentTo(s, chatId), ['Offline']);
    // Someone comes to work: the period's phrase is not sent late; the next period's is.
    await goOnline(x.op);
    await advance(5 * MIN);
    assert.deepEqual(await sentTo(s, chatId), ['Offline']);
    await waitFor(
      async () => (await x.op.api.get(`/api/chats/${chatId}`)).body.entity?.operator?.id === x.op.id,
    );
    await answer(x.op, chatId);
    await write(x, 'nobody', 'and now?');
    await advance(MIN);
    assert.deepEqual(await sentTo(s, chatId), ['Offline', 'Hold on']);
  });

  test('never to a client who blocked the bot', async () => {
    const x = await setup({
      online: { enabled: true, text: 'Online' },
      holding: { enabled: true, text: 'Hold on', waitMinutes: 1 },
    });
    await goOnline(x.op);
    const block = (client: string) =>
      s.db.query('update contacts set opted_out_at = now() where external_id = $1 and channel_id = $2', [
        client,
        x.ch.id,
      ]);
    const chatId = await write(x, 'blocker');
    assert.deepEqual(await sentTo(s, chatId), ['Online']);
    // The opt-out a provider reports (Telegram's my_chat_member 'kicked', telegram.test.ts) marks the contact so.
    await block('blocker');
    await advance(5 * MIN);
    assert.deepEqual(await sentTo(s, chatId), ['Online'], 'no holding phrase after the block');
    // A blocked client's new session gets nothing either.
    assert.equal((await x.op.api.post(`/api/chats/${chatId}/close`)).status, 200);
    const next = await write(x, 'blocker', 'I am back');
    assert.notEqual(next, chatId);
    await advance(5 * MIN);
    assert.deepEqual(await sentTo(s, next), []);
  });

  test('the plan without OPTION_AUTO_REPLY: 403 on the API and nothing is sent', async () => {
    const x = await setup({
      online: { enabled: true, text: 'Online' },
      offline: { enabled: true, text: 'Offline' },
      rating: { enabled: true, text: 'Rate us' },
      holding: { enabled: true, text: 'Hold on', waitMinutes: 1 },
    });
    await goOnline(x.op);
    const staff = await createPlatformStaff(s);
    const cut = OPTIONS.filter((o) => o !== 'OPTION_AUTO_REPLY');
    assert.equal((await staff.patch(`/api/organisations/${x.org.id}`, { options: cut })).status, 200);
    const admin = x.org.admin.api;
    for (const res of [
      await admin.get(`/api/channels/${x.ch.id}/auto-replies`),
      await admin.put(`/api/channels/${x.ch.id}/auto-replies`, body({})),
    ]) {
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'optionUnavailableException');
    }
    const chatId = await write(x, 'no-plan');
    await advance(5 * MIN);
    assert.deepEqual(await sentTo(s, chatId), []);
    assert.equal(await ratingReplyText(s.db, x.org.id, x.ch.id), null);
    // Back in the plan, the saved settings are as they were.
    await staff.patch(`/api/organisations/${x.org.id}`, { options: OPTIONS });
    const kept = await admin.get(`/api/channels/${x.ch.id}/auto-replies`);
    assert.equal(kept.body.entity.offline.text, 'Offline');
  });

  test('rights: only AUTHORITY_SERVICE_ACCOUNT (who edits channels) reads and changes them', async () => {
    const x = await setup({ online: { enabled: true, text: 'Hello' } });
    const supervisor = await x.org.user({ role: 'SUPERVISOR' });
    for (const who of [x.op, supervisor]) {
      const read = await who.api.get(`/api/channels/${x.ch.id}/auto-replies`);
      assert.equal(read.status, 403);
      assert.equal(read.body.code, 'accessDeniedException');
      const write = await who.api.put(`/api/channels/${x.ch.id}/auto-replies`, body({}));
      assert.equal(write.status, 403);
    }
    const now = (await x.org.admin.api.get(`/api/channels/${x.ch.id}/auto-replies`)).body.entity;
    assert.deepEqual(now.online, { enabled: true, text: 'Hello' });
    assert.equal((await s.api.get(`/api/channels/${x.ch.id}/auto-replies`)).status, 401);
  });

  test('another organisation’s channel, a deleted or unknown one: 404 autoReplyNotFoundException, nothing changes', async () => {
    const x = await setup({ online: { enabled: true, text: 'Mine' } });
    const stranger = await createOrganisation(s, { options: OPTIONS });
    for (const res of [
      await stranger.admin.api.get(`/api/channels/${x.ch.id}/auto-replies`),
      await stranger.admin.api.put(`/api/channels/${x.ch.id}/auto-replies`, body({})),
      await x.org.admin.api.get('/api/channels/0190a0a0-0000-7000-8000-000000000000/auto-replies'),
    ]) {
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'autoReplyNotFoundException');
    }
    assert.equal(await ratingReplyText(s.db, stranger.id, x.ch.id), null);
    const mine = (await x.org.admin.api.get(`/api/channels/${x.ch.id}/auto-replies`)).body.entity;
    assert.deepEqual(mine.online, { enabled: true, text: 'Mine' });
    assert.equal((await x.org.admin.api.delete(`/api/channels/${x.ch.id}`)).status, 200);
    assert.equal((await x.org.admin.api.get(`/api/channels/${x.ch.id}/auto-replies`)).status, 404);
  });

  test('a retried pipeline job sends nothing twice (the reply rolls back with a failed run)', async () => {
    const x = await setup({ offline: { enabled: true, text: 'Offline once' } });
    let failures = 1;
    registerStage('queue', async (tx, job, run) => {
      if (job.organisation_id === x.org.id && failures > 0) {
        failures--;
        throw new Error('queue stage failed on purpose');
      }
      return queueStage(tx, job, run);
    });
    try {
      const res = await inbound(s, x.ch, { client: 'retry' });
      const chatId = res.body.entity.chatId;
      assert.deepEqual(await sentTo(s, chatId), [], 'the failed run left nothing');
      s.clock.advance(10 * 60_000);
      await jobsDone();
      assert.deepEqual(await sentTo(s, chatId), ['Offline once']);
    } finally {
      registerStage('queue', queueStage);
    }
  });
});

describe('automatic replies across a restart', () => {
  test('a holding phrase armed before a restart is sent by the restarted instance', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sc-autoreply-'));
    const fresh = process.env.DATABASE_URL ? await freshDatabase() : null;
    const open = async () => (fresh?.url ? openPostgres(fresh.url) : openPglite(join(dataDir, 'pglite')));
    if (fresh) await fresh.db.close();
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
      OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
    });
    const clock = new ManualClock();
    const boot = async () => {
      const server = await createServer(config, { db: await open(), clock });
      await server.fastify.listen({ port: 0, host: '127.0.0.1' });
      const address = server.fastify.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      return { ...server, api: new Api(url) } as unknown as TestServer;
    };
    try {
      const first = await boot();
      const org = await createOrganisation(first, { options: OPTIONS });
      const op = await org.user();
      const teamId = await makeTeam(org, { memberIds: [op.id] });
      await goOnline(op);
      const ch = await makeChannel(org, teamId);
      const put = await org.admin.api.put(
        `/api/channels/${ch.id}/auto-replies`,
        body({ holding: { enabled: true, text: 'Thanks for waiting', waitMinutes: 5 } }),
      );
      assert.equal(put.status, 200);
      const chatId = (await inbound(first, ch, { client: 'restart' })).body.entity.chatId;
      await first.close();

      clock.advance(5 * MIN);
      const second = await boot();
      try {
        await runDueTimers(second.app);
        const rows = await second.app.db.query<{ text: string }>(
          "select text from messages where chat_id = $1 and direction = 'out'",
          [chatId],
        );
        assert.deepEqual(
          rows.map((r) => r.text),
          ['Thanks for waiting'],
        );
      } finally {
        await second.close();
      }
    } finally {
      await fresh?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
