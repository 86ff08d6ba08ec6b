import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AVITO_POLL } from '../../src/channels/avito/poll.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeAvito, startFakeAvito } from '../fakes/avito.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';
import { until } from './cluster-fixtures.ts';
import { pollPasses } from './poll-fixtures.ts';

/** The start of an MP4 audio file (ftyp M4A), as Avito's voice files are Opus in MP4. */
const MP4_AUDIO = new Uint8Array([
  0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x4d, 0x34, 0x41, 0x20, 0, 0, 0, 0, 0x4d, 0x34, 0x41, 0x20, 0x69,
  0x73, 0x6f, 0x6d, 0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65,
]);

/** The Avito channel end to end against a fake Avito API that follows docs/providers/avito.md. */
describe('Avito channel', () => {
  let s: TestServer;
  let av: FakeAvito;
  before(async () => {
    av = await startFakeAvito();
    s = await startTestServer({ env: { AVITO_API_BASE_URL: av.baseUrl } });
  });
  after(async () => {
    await s.close();
    await av.close();
  });

  type Setup = { org: TestOrg; channelId: string; hook: string };
  async function connect(): Promise<Setup> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'avito',
      name: `Avito ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      clientId: av.clientId,
      clientSecret: av.clientSecret,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id as string;
    const registered = [...av.webhooks].find((u) => u.includes(`/api/webhooks/avito/${channelId}?key=`));
    assert.ok(registered, 'our webhook is subscribed at connect');
    const url = new URL(registered);
    return { org, channelId, hook: `${s.url}${url.pathname}${url.search}` };
  }

  test('connecting takes a token, reads the account and subscribes our webhook; refused credentials are field errors', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (over: Record<string, unknown>) =>
      org.admin.api.post('/api/channels', {
        type: 'avito',
        name: 'A',
        teamId,
        clientId: av.clientId,
        clientSecret: av.clientSecret,
        ...over,
      });
    const bad = await post({ clientSecret: 'wrong-secret' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.fields.clientId, 'Incorrect token/ID specified');
    assert.equal(bad.body.error.fields.clientSecret, 'Incorrect token/ID specified');
    const empty = await post({ clientId: '' });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error.fields.clientId, 'Incorrect token/ID specified');
    av.failNext('/accounts/self', { status: 503, message: 'Service temporarily unavailable' });
    const down = await post({});
    assert.equal(down.status, 502);
    assert.equal(down.body.code, 'channelCreationException');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing stored');

    const { org: org2, channelId } = await connect();
    const shown = JSON.stringify((await org2.admin.api.get(`/api/channels/${channelId}`)).body);
    assert.ok(shown.includes(String(av.userId)) && shown.includes(av.accountName));
    assert.ok(!shown.includes(av.clientSecret), 'the secret is never shown');

    // Deactivating unsubscribes our webhook; activating subscribes it again (with the same key).
    const hook = [...av.webhooks].find((u) => u.includes(channelId));
    assert.equal(
      (await org2.admin.api.patch(`/api/channels/${channelId}`, { status: 'inactive' })).status,
      200,
    );
    assert.ok(!av.webhooks.has(hook as string));
    assert.equal(
      (await org2.admin.api.patch(`/api/channels/${channelId}`, { status: 'active' })).status,
      200,
    );
    assert.ok(av.webhooks.has(hook as string));
  });

  test('the webhook needs our key; a message opens a chat named after the customer with the listing; a retry is stored once', async () => {
    const { org, hook } = await connect();
    const chatId = av.addChat(
      { id: 141906442, name: 'Guldan' },
      {
        id: 1768287444,
        title: 'Mazda 3 2008',
        url: 'https://avito.ru/moskva/avtomobili/mazda_3_2008_1768287444',
      },
    );
    const body = av.payload(chatId, 'text', { text: 'Здравствуйте, ещё продаёте?' });
    assert.equal(await av.deliver(hook.replace(/key=[^&]+/, 'key=wrong'), body), 401);
    assert.equal(await av.deliver(hook.replace(/\?.*$/, ''), body), 401);
    assert.equal((await chatsOf(org)).length, 0, 'nothing stored');
    assert.equal(await av.deliver(hook, {}), 200, "Avito's check of a new URL is answered");
    assert.equal(await av.deliver(hook, body), 200);
    assert.equal(await av.deliver(hook, body), 200, 'a retry is answered too');
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1);
    assert.equal(chats[0].client.name, 'Guldan');
    assert.deepEqual(chats[0].topic, {
      kind: 'listing',
      id: '1768287444',
      title: 'Mazda 3 2008',
      url: 'https://avito.ru/moskva/avtomobili/mazda_3_2008_1768287444',
    });
    assert.deepEqual(
      (await messagesOf(org, chats[0].id)).map((m: { text: string }) => m.text),
      ['Здравствуйте, ещё продаёте?'],
    );
    // Our own account's echo and Avito's chat-bot messages are not the customer's; other events are ignored.
    assert.equal(
      await av.deliver(hook, av.payload(chatId, 'text', { text: 'echo' }, { author_id: av.userId })),
      200,
    );
    assert.equal(
      await av.deliver(
        hook,
        av.payload(chatId, 'system', { flow_id: 'seller_audience_discount', text: 'bot' }),
      ),
      200,
    );
    assert.equal(
      await av.deliver(hook, { id: 'x', version: 'v3.0.0', payload: { type: 'chat_read', value: {} } }),
      200,
    );
    // An image is fetched into our storage; a voice message is a visible notice.
    const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const img = av.addImage(jpg, 'image/jpeg');
    const pic = av.payload(chatId, 'image', {
      image: { sizes: { '1280x960': img, '140x105': `${av.baseUrl}/img/none` } },
    });
    assert.equal(await av.deliver(hook, pic), 200);
    // A voice message's file is asked for by its voice_id (getVoiceFiles) and kept as ours.
    const voiceId = av.addVoice(MP4_AUDIO);
    assert.equal(await av.deliver(hook, av.payload(chatId, 'voice', { voice: { voice_id: voiceId } })), 200);
    // A voice_id Avito has no file for: the message stays, with a notice.
    assert.equal(await av.deliver(hook, av.payload(chatId, 'voice', { voice: { voice_id: 'gone' } })), 200);
    const got = await messagesOf(org, chats[0].id);
    assert.equal(got.length, 4);
    assert.equal(got[1].attachments.length, 1);
    assert.equal(got[1].attachments[0].contentType, 'image/jpeg');
    const file = await org.admin.api.get(new URL(got[1].attachments[0].url, s.url).pathname);
    assert.equal(file.status, 200);
    assert.equal(got[2].attachments.length, 1, JSON.stringify(got[2]));
    assert.match(got[2].attachments[0].contentType, /^audio\/mp4$/);
    const voice = await org.admin.api.get(new URL(got[2].attachments[0].url, s.url).pathname);
    assert.equal(voice.status, 200);
    assert.ok(
      av.requests.some((r) => r.path.endsWith('/getVoiceFiles') && r.query.get('voice_ids') === voiceId),
    );
    assert.equal(got[3].attachments.length, 0);
    assert.ok(got[3].text.length > 0, 'a notice instead of the missing file');
  });

  test('replies: text and images reach Avito, the chat is marked read; an expired token is renewed once; a 429 is retried later', async () => {
    const { org, hook } = await connect();
    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    const avitoChat = av.addChat(
      { id: 555, name: 'Ann' },
      { id: 42, title: 'Sofa', url: 'https://avito.ru/42' },
    );
    assert.equal(await av.deliver(hook, av.payload(avitoChat, 'text', { text: 'Hi' })), 200);
    const chatId = (await chatsOf(org))[0].id;
    const { byId, waitStatus, send, sendRateLimited } = await replyTo(s, org, chatId);

    const text = await send({ text: 'Still for sale' });
    await waitStatus(text, 'sent');
    assert.deepEqual(av.sent.at(-1), {
      ...av.sent.at(-1),
      chatId: avitoChat,
      type: 'text',
      text: 'Still for sale',
    });
    assert.ok(av.reads.includes(avitoChat), 'the chat is marked read when we answer');

    const long = await send({ text: 'x'.repeat(1500) });
    await waitStatus(long, 'sent');
    assert.deepEqual(
      av.sent.slice(-2).map((m) => m.text?.length),
      [1000, 500],
    );

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
    const up = av.uploads.at(-1);
    assert.deepEqual([...(up?.bytes ?? [])], [0xff, 0xd8, 0xff, 9, 9]);
    assert.deepEqual(
      av.sent.slice(-2).map((m) => [m.type, m.imageId ?? m.text]),
      [
        ['image', up?.id],
        ['text', 'See'],
      ],
    );

    // The token expires (answered 401, then 403 as Avito documents): one new token, the message goes.
    for (const status of [401, 403] as const) {
      av.expiredStatus = status;
      av.expireTokens();
      const issued = av.tokensIssued;
      const renewed = await send({ text: `after expiry ${status}` });
      await waitStatus(renewed, 'sent');
      assert.equal(av.tokensIssued, issued + 1, 'renewed once');
      assert.equal(av.sent.at(-1)?.text, `after expiry ${status}`);
    }
    av.expiredStatus = 401;

    // Rate limited: pending, sent again after Retry-After, nothing lost.
    av.failNext('/messages', { status: 429, message: 'Too many requests', retryAfter: '30' });
    const slow = await sendRateLimited({ text: 'Slow down' }, 31_000);
    assert.equal(av.sent.at(-1)?.text, 'Slow down');
    assert.equal((await byId(slow)).status, 'sent');

    // Credentials revoked: the renewal is refused, the message fails as the channel's problem.
    const secret = av.clientSecret;
    av.clientSecret = 'rotated';
    av.expireTokens();
    const refused = await send({ text: 'no token' });
    assert.notEqual((await byId(refused)).status, 'sent');
    const problems = (await org.admin.api.get('/api/channels/problems')).body.entity.items;
    assert.ok(problems.some((p: { kind: string }) => p.kind === 'token_refused'));
    av.clientSecret = secret;
  });
  test('the reconciling poll reads what the webhook missed, once; a 429 waits and loses nothing', async () => {
    const { org, channelId, hook } = await connect();
    const polls = pollPasses<{ since?: number }>(() => s);
    const passDone = () => polls.passDone(channelId);
    const nextPass = () => polls.nextPass(channelId);
    // The first pass notes where the account's chats stand and reads nothing of the past.
    const first = await passDone();
    assert.equal(typeof first.cursor.since, 'number');
    assert.ok(first.due_at.getTime() - s.clock.now().getTime() >= AVITO_POLL.intervalMs - 1_000);

    const chatId = av.addChat(
      { id: 5550101, name: 'Lidia' },
      { id: 4242, title: 'Sofa', url: 'https://avito.ru/moskva/mebel/sofa_4242' },
    );
    const delivered = av.payload(chatId, 'text', { text: 'first, by webhook' });
    assert.equal(await av.deliver(hook, delivered), 200);
    // Two more the webhook never brings (Avito documents no retries), one of them ours from the Avito app.
    av.payload(chatId, 'text', { text: 'second, missed' });
    av.payload(chatId, 'text', { text: 'typed in the Avito app' }, { author_id: av.userId });
    av.payload(chatId, 'text', { text: 'third, missed' });
    await nextPass();
    const chat = await until(
      async () => (await chatsOf(org)).find((c: { client: { name: string } }) => c.client.name === 'Lidia'),
      'the chat',
    );
    assert.deepEqual(
      (await messagesOf(org, chat.id)).map((m: { text: string }) => m.text),
      ['first, by webhook', 'second, missed', 'third, missed'],
      'the missed ones in order, the delivered one once, our own account left out',
    );
    assert.equal(chat.topic?.title, 'Sofa', 'the listing, from the chat list');

    // Rate limited while listing: the pass waits as long as Avito says, and the next one reads what came meanwhile.
    av.payload(chatId, 'text', { text: 'after the limit' });
    av.failNext('/chats', { status: 429, message: 'Too many requests', retryAfter: '90' });
    const limited = await nextPass();
    assert.ok(limited.due_at.getTime() - s.clock.now().getTime() >= 89_000, 'waits out Retry-After');
    await nextPass();
    await until(
      async () =>
        (await messagesOf(org, chat.id)).some((m: { text: string }) => m.text === 'after the limit') ||
        undefined,
      'the message after the limit',
    );
    assert.equal((await messagesOf(org, chat.id)).length, 4);
  });
});
