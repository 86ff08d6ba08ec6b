import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';

/** The Telegram channel end to end against a fake Bot API that follows its documents. */
describe('Telegram channel', () => {
  let s: TestServer;
  let tg: FakeTelegram;
  before(async () => {
    tg = await startFakeTelegram();
    s = await startTestServer({ env: { TELEGRAM_API_BASE_URL: tg.baseUrl } });
  });
  after(async () => {
    await s.close();
    await tg.close();
  });

  type Setup = { org: TestOrg; channelId: string; hook: string; secret: string; teamId: string };
  async function connect(name = `Bot ${Math.random().toString(36).slice(2, 8)}`): Promise<Setup> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'telegram',
      name,
      teamId,
      token: tg.token,
      updatesVia: 'webhook',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id;
    const webhook = tg.webhook;
    assert.ok(webhook?.secretToken);
    return {
      org,
      channelId,
      hook: `${s.url}/api/webhooks/telegram/${channelId}`,
      secret: webhook.secretToken,
      teamId,
    };
  }
  const messagesOf = async (org: TestOrg, chatId: string) =>
    (await org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items;
  const chatsOf = async (org: TestOrg) =>
    (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items;

  test('connecting checks the token with getMe and registers the webhook with a secret; secrets are never answered', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const malformed = await org.admin.api.post('/api/channels', {
      type: 'telegram',
      name: 'T',
      teamId,
      token: 'nope',
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.fields.token, 'Incorrect token/ID specified');
    const refused = await org.admin.api.post('/api/channels', {
      type: 'telegram',
      name: 'T',
      teamId,
      token: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.fields.token, 'Incorrect token/ID specified');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing stored');
    // The wrong token was ours to send: the fake notes it; nothing else may be unexpected.
    assert.deepEqual(
      tg.unexpected.map((u) => u.reason),
      ['wrong bot token'],
    );
    tg.unexpected.length = 0;

    // Telegram refuses the webhook: 502 channelCreationException with a reason code (the web words it), nothing stored.
    tg.failNext('setWebhook', {
      status: 400,
      description: 'Bad Request: bad webhook: Failed to resolve host',
    });
    const hookRefused = await org.admin.api.post('/api/channels', {
      type: 'telegram',
      name: 'T',
      teamId,
      token: tg.token,
      updatesVia: 'webhook',
    });
    assert.equal(hookRefused.status, 502);
    assert.equal(hookRefused.body.code, 'channelCreationException');
    assert.equal(hookRefused.body.error.details.reason, 'webhook');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0);

    const before = tg.requests.length;
    const { channelId } = await connect();
    const calls = tg.requests.slice(before).map((r) => r.method);
    assert.deepEqual(calls, ['getMe', 'setWebhook']);
    const hook = tg.expect.called('setWebhook').params;
    assert.equal(hook.url, `http://localhost:3000/api/webhooks/telegram/${channelId}`);
    assert.match(String(hook.secret_token), /^[A-Za-z0-9_-]{20,}$/);
    const all = JSON.stringify((await s.api.as((await connect()).org.admin.token).get('/api/channels')).body);
    assert.ok(!all.includes(tg.token) && !all.includes(String(hook.secret_token)));
    tg.assertNoUnexpected();
  });

  test('updates without the secret are refused and store nothing; a private text opens a chat once', async () => {
    const { org, hook, secret } = await connect();
    const update = tg.updates.text(
      { id: 501, first_name: 'Ann', last_name: 'Lee', username: 'annlee' },
      'Hello',
    );
    assert.equal(await tg.deliver(update, hook, null), 401);
    assert.equal(await tg.deliver(update, hook, 'wrong-secret'), 401);
    assert.equal((await chatsOf(org)).length, 0);
    assert.equal(await tg.deliver(update, hook, secret), 200);
    assert.equal(await tg.deliver(update, hook, secret), 200, 'a redelivery is answered too');
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1);
    assert.equal(chats[0].client.name, 'Ann Lee');
    assert.equal(chats[0].client.externalId, '501');
    const msgs = await messagesOf(org, chats[0].id);
    assert.deepEqual(
      msgs.map((m: { text: string }) => m.text),
      ['Hello'],
    );
    // The @username is kept as the client's contact, and follows a change at Telegram.
    const contactOf = async () =>
      (await org.admin.api.get(`/api/clients/${chats[0].client.id}`)).body.entity.contacts[0];
    assert.deepEqual(await contactOf(), {
      channelId: chats[0].channel.id,
      externalId: '501',
      name: 'Ann Lee',
      username: 'annlee',
      email: null,
      phone: null,
    });
    const renamed = tg.updates.text(
      { id: 501, first_name: 'Ann', last_name: 'Lee', username: 'ann_shop' },
      'Hi',
    );
    assert.equal(await tg.deliver(renamed, hook, secret), 200);
    assert.equal((await contactOf()).username, 'ann_shop');
  });

  test('a photo is fetched with getFile into our storage; an edit updates the message; groups and channels are not dialogs', async () => {
    const { org, hook, secret } = await connect();
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const photo = tg.updates.photo({ id: 777, first_name: 'Bo' }, { caption: 'My order', bytes });
    assert.equal(await tg.deliver(photo, hook, secret), 200);
    const chat = (await chatsOf(org))[0];
    const [m] = await messagesOf(org, chat.id);
    assert.equal(m.text, 'My order');
    assert.equal(m.attachments.length, 1);
    assert.match(m.attachments[0].url, /^\/api\/files\/[A-Za-z0-9_-]{20,}$/);
    const file = await fetch(s.url + m.attachments[0].url);
    assert.deepEqual(new Uint8Array(await file.arrayBuffer()), bytes);
    const largest = photo.message?.photo?.at(-1)?.file_id;
    assert.equal(tg.expect.called('getFile').params.file_id, largest);

    const text = tg.updates.text({ id: 777, first_name: 'Bo' }, 'first wording');
    assert.equal(await tg.deliver(text, hook, secret), 200);
    assert.equal(await tg.deliver(tg.updates.edited(text, 'second wording'), hook, secret), 200);
    const after = await messagesOf(org, chat.id);
    const edited = after.find((x: { text: string }) => x.text === 'second wording');
    assert.ok(edited, JSON.stringify(after));
    assert.equal(edited.kind, 'edited');

    assert.equal(
      await tg.deliver(
        tg.updates.groupText({ id: -100, type: 'group', title: 'G' }, 9, 'hi all'),
        hook,
        secret,
      ),
      200,
    );
    assert.equal(
      await tg.deliver(
        tg.updates.channelPost({ id: -200, type: 'channel', title: 'C' }, 'news'),
        hook,
        secret,
      ),
      200,
    );
    assert.equal((await chatsOf(org)).length, 1);

    // A button press is stored as the client's message and answered, so the button stops spinning.
    const press = tg.updates.callback({ id: 777, first_name: 'Bo' }, 'order:42');
    assert.equal(await tg.deliver(press, hook, secret), 200);
    assert.ok((await messagesOf(org, chat.id)).some((x: { text: string }) => x.text === 'order:42'));
    assert.equal(tg.expect.called('answerCallbackQuery').params.callback_query_id, press.callback_query?.id);

    assert.equal(await tg.deliver(tg.updates.myChatMember({ id: 777 }, 'kicked'), hook, secret), 200);
    const [contact] = await s.db.query<{ opted_out_at: Date | null }>(
      "select opted_out_at from contacts where external_id = '777'",
    );
    assert.ok(contact.opted_out_at, 'the client is marked as having blocked the bot');
    tg.assertNoUnexpected();
  });

  test('replies: sendMessage split past 4096, a photo uploaded, 429 honoured, 403 blocked is final', async () => {
    const { org, hook, secret } = await connect();
    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    assert.equal(await tg.deliver(tg.updates.text({ id: 901, first_name: 'Cy' }, 'Hi'), hook, secret), 200);
    const chatId = (await chatsOf(org))[0].id;
    assert.equal((await org.admin.api.post(`/api/chats/${chatId}/take`)).status, 200);
    const send = async (body: Record<string, unknown>) => {
      const res = await org.admin.api.post(`/api/chats/${chatId}/messages`, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await drainOutbox(s.app);
      return res.body.entity.id as string;
    };
    const statusOf = async (id: string) =>
      (await messagesOf(org, chatId)).find((m: { id: string }) => m.id === id).status;
    const waitStatus = async (id: string, want: string) => {
      for (let i = 0; i < 100 && (await statusOf(id)) !== want; i++)
        await new Promise((r) => setTimeout(r, 30));
      assert.equal(await statusOf(id), want);
    };

    // The operator writing a reply: the client sees "typing…" (sendChatAction).
    assert.equal((await org.admin.api.post(`/api/chats/${chatId}/typing`)).status, 200);
    for (let i = 0; i < 100 && !tg.expect.calls('sendChatAction').length; i++)
      await new Promise((r) => setTimeout(r, 30));
    const [action] = tg.expect.calls('sendChatAction');
    assert.equal(String(action?.params.chat_id), '901');
    assert.equal(action?.params.action, 'typing');

    let before = tg.expect.calls('sendMessage').length;
    const short = await send({ text: 'Your order shipped' });
    await waitStatus(short, 'sent');
    const sent = tg.expect.calls('sendMessage').slice(before);
    assert.equal(sent.length, 1);
    assert.equal(String(sent[0].params.chat_id), '901');
    assert.equal(sent[0].params.text, 'Your order shipped');

    before = tg.expect.calls('sendMessage').length;
    const long = `${'a'.repeat(4000)}\n${'b'.repeat(1500)}`;
    await waitStatus(await send({ text: long }), 'sent');
    const parts = tg.expect
      .calls('sendMessage')
      .slice(before)
      .map((r) => String(r.params.text));
    assert.equal(parts.length, 2);
    assert.ok(parts.every((p) => p.length <= 4096));
    assert.equal(parts.join('\n'), long);

    const key = await s.db.tx((q) =>
      saveFile(s.app, q, org.id, Buffer.from([0xff, 0xd8, 0xff, 9, 9]), 'image/jpeg'),
    );
    const pic = await send({
      text: 'See',
      attachments: [
        { url: `http://localhost:3000/api/files/${key}`, name: 'p.jpg', contentType: 'image/jpeg' },
      ],
    });
    await waitStatus(pic, 'sent');
    const upload = tg.expect.called('sendPhoto');
    assert.equal(upload.params.caption, 'See');
    assert.deepEqual([...upload.files.photo.bytes], [0xff, 0xd8, 0xff, 9, 9]);

    tg.failNext('sendMessage', { status: 429, retryAfter: 7 });
    before = tg.expect.calls('sendMessage').length;
    const limited = await send({ text: 'Slow down' });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await statusOf(limited), 'pending');
    const [row] = await s.db.query<{ next_attempt_at: Date }>(
      'select next_attempt_at from outbox where message_id = $1',
      [limited],
    );
    assert.ok(
      new Date(row.next_attempt_at).getTime() - s.clock.now().getTime() >= 7_000,
      'retry_after honoured',
    );
    s.clock.advance(8_000);
    await drainOutbox(s.app);
    await waitStatus(limited, 'sent');
    assert.equal(tg.expect.calls('sendMessage').slice(before).length, 2);

    tg.setBlocked(901);
    before = tg.expect.calls('sendMessage').length;
    const blocked = await send({ text: 'Anyone there?' });
    await waitStatus(blocked, 'undelivered');
    const reason = (await messagesOf(org, chatId)).find((m: { id: string }) => m.id === blocked).statusReason;
    assert.equal(reason, 'Forbidden: bot was blocked by the user');
    s.clock.advance(3_600_000);
    await drainOutbox(s.app);
    assert.equal(tg.expect.calls('sendMessage').slice(before).length, 1, 'not retried');
    tg.assertNoUnexpected();
  });

  test("§8 'token not from current bot': an edited channel's new token must be its own bot's", async () => {
    const { org, channelId } = await connect();
    // The channel was made with another bot (the fake answers one bot): its stored bot id differs from getMe's.
    await s.app.db.query(
      `update channels set settings = settings || '{"botId": 1234567}'::jsonb where id = $1`,
      [channelId],
    );
    const refused = await org.admin.api.patch(`/api/channels/${channelId}`, { token: tg.token });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'tokenNotFromCurrentBotException');
    assert.equal(refused.body.error.message, 'Token not from current bot');
    assert.deepEqual(refused.body.error.fields, { token: 'Token not from current bot' });
    // The bot's own token is taken.
    await s.app.db.query(
      `update channels set settings = settings || jsonb_build_object('botId', $2::bigint) where id = $1`,
      [channelId, Number(tg.token.split(':')[0])],
    );
    assert.equal((await org.admin.api.patch(`/api/channels/${channelId}`, { token: tg.token })).status, 200);
  });

  test('deactivating lets go of the webhook, activating registers it again', async () => {
    const { org, channelId, hook, secret } = await connect();
    assert.equal(
      (await org.admin.api.patch(`/api/channels/${channelId}`, { status: 'inactive' })).status,
      200,
    );
    const webhook = () => tg.webhook;
    assert.ok(tg.expect.called('deleteWebhook'));
    assert.equal(webhook(), null);
    assert.equal(await tg.deliver(tg.updates.text({ id: 5 }, 'late'), hook, secret), 409);
    assert.equal((await org.admin.api.patch(`/api/channels/${channelId}`, { status: 'active' })).status, 200);
    assert.equal(webhook()?.url, `http://localhost:3000/api/webhooks/telegram/${channelId}`);
    assert.equal(webhook()?.secretToken, secret, 'the same secret: updates in flight still verify');
    assert.equal((await org.admin.api.delete(`/api/channels/${channelId}`)).status, 200);
    assert.equal(webhook(), null);
  });

  test('the verification GET of a webhook URL: Telegram has none (404); a wrong type is no channel', async () => {
    const { channelId } = await connect();
    const get = (type: string) => s.api.get(`/api/webhooks/${type}/${channelId}?hub.challenge=1`);
    const none = await get('telegram');
    assert.equal(none.status, 404);
    assert.equal(none.body.code, 'notFoundException');
    const wrongType = await get('api');
    assert.equal(wrongType.status, 404);
    assert.equal(wrongType.body.code, 'channelNotFoundException');
    tg.assertNoUnexpected();
  });
});
