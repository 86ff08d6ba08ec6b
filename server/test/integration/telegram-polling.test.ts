import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';
import { until } from './cluster-fixtures.ts';

/**
 * A Telegram channel behind a firewall: its bot's updates are read with getUpdates long polling by the job runner,
 * against a fake Bot API whose getUpdates follows the documents (offsets confirm, long polls answer on arrival,
 * 409 beside a webhook or another poller). One channel polls the bot at a time: each test ends by deleting its own.
 */
describe('Telegram channel by getUpdates polling', () => {
  let s: TestServer;
  let tg: FakeTelegram;
  before(async () => {
    tg = await startFakeTelegram();
    // PUBLIC_URL is http://localhost:3000 (helpers.ts): no address Telegram could post to.
    s = await startTestServer({ env: { TELEGRAM_API_BASE_URL: tg.baseUrl } });
  });
  after(async () => {
    await s.close();
    await tg.close();
  });

  type Setup = { org: TestOrg; channelId: string; teamId: string };
  async function connect(extra: Record<string, unknown> = {}, server = s): Promise<Setup> {
    const org = await createOrganisation(server);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'telegram',
      name: `Bot ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      token: tg.token,
      ...extra,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { org, teamId, channelId: res.body.entity.id };
  }
  /** Deletes the channel and waits until its poll has let go of the bot (no getUpdates waiting). */
  async function retire({ org, channelId }: Setup) {
    assert.equal((await org.admin.api.delete(`/api/channels/${channelId}`)).status, 200);
    // Its session ends at once: no long poll is left waiting on the bot.
    await until(async () => !tg.polling.waiting || undefined, 'the poll of a deleted channel to end', 3_000);
  }
  const chatsOf = async (org: TestOrg) =>
    (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items as {
      id: string;
      client: { name: string };
    }[];
  const textsOf = async (org: TestOrg, chatId: string) =>
    ((await org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items as { text: string }[]).map(
      (m) => m.text,
    );
  const getUpdatesCalls = () => tg.expect.calls('getUpdates');
  // Each test's channel is deleted after it, passed or failed, so the next test's channel polls the bot alone.
  const cleanup: Setup[] = [];
  afterEach(async () => {
    for (const setup of cleanup.splice(0)) await retire(setup);
  });

  test('without a public address a new bot polls: no webhook is set, messages, edits and button presses arrive, each update confirmed once stored', async () => {
    const before = tg.requests.length;
    const setup = await connect();
    cleanup.push(setup);
    const { org, channelId } = setup;
    assert.deepEqual(
      tg.requests.slice(before).map((r) => r.method),
      ['getMe', 'deleteWebhook'],
      'polling: the webhook is deleted, never set',
    );
    const channel = (await org.admin.api.get(`/api/channels/${channelId}`)).body.entity;
    assert.equal(channel.settings.updatesVia, 'polling');
    assert.equal(tg.webhook, null);

    await until(async () => tg.polling.waiting || undefined, 'a long poll to wait');
    const first = getUpdatesCalls().at(-1);
    assert.ok(first);
    assert.equal(Number(first.params.timeout), 25, 'a long poll');
    assert.equal(
      Number(getUpdatesCalls()[0].params.timeout),
      0,
      'the first request of a session answers at once',
    );
    assert.deepEqual(first.params.allowed_updates, [
      'message',
      'edited_message',
      'callback_query',
      'my_chat_member',
    ]);

    const hello = tg.updates.text(
      { id: 601, first_name: 'Ann', last_name: 'Lee' },
      'Hello from behind a firewall',
    );
    tg.queue(hello);
    const [chat] = await until(async () => {
      const list = await chatsOf(org);
      return list.length ? list : undefined;
    }, 'the polled message to open a chat');
    assert.equal(chat.client.name, 'Ann Lee');
    assert.deepEqual(await textsOf(org, chat.id), ['Hello from behind a firewall']);
    // The next request confirms it: its offset is past the update, and Telegram forgets it.
    await until(
      async () => getUpdatesCalls().some((c) => Number(c.params.offset) === hello.update_id + 1) || undefined,
      'the update to be confirmed',
    );
    await until(async () => tg.polling.pending.length === 0 || undefined, 'the queue to be empty');

    // An edit, a press of one of our buttons (answered, so it stops spinning), a group post (no dialog).
    tg.queue(tg.updates.edited(hello, 'Hello, edited'));
    const press = tg.updates.callback({ id: 601, first_name: 'Ann' }, 'order:42');
    tg.queue(press);
    tg.queue(tg.updates.groupText({ id: -100, type: 'group', title: 'G' }, 9, 'hi all'));
    await until(
      async () =>
        tg.expect
          .calls('answerCallbackQuery')
          .some((c) => c.params.callback_query_id === press.callback_query?.id) || undefined,
      'the press to be answered',
    );
    const texts = await textsOf(org, chat.id);
    assert.ok(texts.includes('Hello, edited'), JSON.stringify(texts));
    assert.ok(texts.includes('order:42'), JSON.stringify(texts));
    assert.equal((await chatsOf(org)).length, 1, 'the group post opened no dialog');

    // An update Telegram sends again (not confirmed before a crash) is stored once.
    tg.queue(hello);
    const again = tg.updates.text({ id: 601, first_name: 'Ann' }, 'after the repeat');
    tg.queue(again);
    await until(
      async () => (await textsOf(org, chat.id)).includes('after the repeat') || undefined,
      'the next',
    );
    assert.equal((await textsOf(org, chat.id)).filter((t) => t.startsWith('Hello')).length, 1);

    // The operator's reply goes out as usual.
    await goOnline(org.admin);
    assert.equal((await org.admin.api.post(`/api/chats/${chat.id}/take`, {})).status, 200);
    const sent = await org.admin.api.post(`/api/chats/${chat.id}/messages`, { text: 'Hi Ann' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await drainOutbox(s.app);
    assert.equal(tg.sent.at(-1)?.text, 'Hi Ann');
    tg.assertNoUnexpected();
  });

  test('429 waits as Telegram says, 5xx and a webhook set by another program are got over; nothing is lost or doubled', async () => {
    const setup = await connect({ updatesVia: 'polling' });
    cleanup.push(setup);
    const { org } = setup;
    await until(async () => tg.polling.waiting || undefined, 'a long poll to wait');
    tg.failNext('getUpdates', { status: 429, retryAfter: 1 });
    tg.failNext('getUpdates', { status: 500 });
    // The waiting poll is answered by the first update; the next two requests fail, then the rest arrives.
    const user = { id: 602, first_name: 'Bo' };
    tg.queue(tg.updates.text(user, 'one'));
    tg.queue(tg.updates.text(user, 'two'));
    const chat = await until(async () => (await chatsOf(org))[0], 'the chat');
    tg.queue(tg.updates.text(user, 'three'));
    await until(
      async () => (await textsOf(org, chat.id)).length === 3 || undefined,
      'three messages',
      20_000,
    );
    assert.deepEqual((await textsOf(org, chat.id)).sort(), ['one', 'three', 'two']);

    // Someone sets a webhook on the bot: getUpdates answers 409; this channel polls, so the webhook goes.
    await until(async () => tg.polling.waiting || undefined, 'a long poll to wait');
    const set = await fetch(`${tg.baseUrl}/bot${tg.token}/setWebhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://elsewhere.example/hook' }),
    });
    assert.equal(set.status, 200);
    tg.queue(tg.updates.text(user, 'four'));
    await until(async () => (await textsOf(org, chat.id)).includes('four') || undefined, 'four');
    assert.equal(tg.webhook, null);
    const problems = (await org.admin.api.get('/api/channels/problems')).body.entity.items;
    assert.deepEqual(problems, [], 'short failures open no problem');
  });

  test('a refused token is the channel problem; switching to the webhook stops the poll, and back', async () => {
    const setup = await connect({ updatesVia: 'polling' });
    cleanup.push(setup);
    const { org, channelId } = setup;
    await until(async () => tg.polling.waiting || undefined, 'a long poll to wait');
    // BotFather revoked the token: the next getUpdates is 401.
    tg.failNext('getUpdates', { status: 401, description: 'Unauthorized' });
    // The waiting poll answers with this; the next request is refused.
    tg.queue(tg.updates.text({ id: 603, first_name: 'Cy' }, 'before'));
    const [problem] = await until(async () => {
      const items = (await org.admin.api.get('/api/channels/problems')).body.entity.items;
      return items.length ? items : undefined;
    }, 'the problem');
    assert.equal(problem.kind, 'token_refused');
    assert.equal(problem.channelId, channelId);
    assert.equal(problem.detail, 'Unauthorized');
    // Meanwhile the client writes: Telegram keeps the update until the bot reads it again (an edit polls at once).
    tg.queue(tg.updates.text({ id: 603, first_name: 'Cy' }, 'lost?'));

    const toHook = await org.admin.api.patch(`/api/channels/${channelId}`, { updatesVia: 'webhook' });
    assert.equal(toHook.status, 200, JSON.stringify(toHook.body));
    assert.equal(toHook.body.entity.settings.updatesVia, 'webhook');
    assert.equal(tg.webhook?.url, `http://localhost:3000/api/webhooks/telegram/${channelId}`);
    const calls = getUpdatesCalls().length;
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(getUpdatesCalls().length, calls, 'no poll beside the webhook');
    assert.ok(tg.webhook, 'the webhook stays');

    const back = await org.admin.api.patch(`/api/channels/${channelId}`, { updatesVia: 'polling' });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(tg.webhook, null);
    const chat = await until(async () => (await chatsOf(org))[0], 'the chat');
    await until(async () => (await textsOf(org, chat.id)).includes('lost?') || undefined, 'the kept update');
    assert.deepEqual((await textsOf(org, chat.id)).sort(), ['before', 'lost?']);
    await until(
      async () =>
        (await org.admin.api.get('/api/channels/problems')).body.entity.items.length === 0 || undefined,
      'the problem to end once Telegram answers',
      5_000,
    );
    const invalid = await org.admin.api.patch(`/api/channels/${channelId}`, { updatesVia: 'carrier pigeon' });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.fields.updatesVia, 'Incorrect value entered');
  });

  test('a stopping server ends its long poll at once, and its claim goes back', async () => {
    const other = await startTestServer({ env: { TELEGRAM_API_BASE_URL: tg.baseUrl } });
    try {
      const { channelId } = await connect({ updatesVia: 'polling' }, other);
      await until(async () => tg.polling.waiting || undefined, 'a long poll to wait');
      const started = Date.now();
      await other.jobs.stop();
      const took = Date.now() - started;
      assert.ok(took < 5_000, `the poll ended in ${took} ms`);
      await until(async () => !tg.polling.waiting || undefined, 'the request to be gone');
      const [row] = await other.db.query<{ claimed_by: string | null }>(
        'select claimed_by from channel_polls where channel_id = $1',
        [channelId],
      );
      assert.equal(row.claimed_by, null, 'the next instance takes over at once');
    } finally {
      await other.close();
    }
    tg.assertNoUnexpected();
  });
});
