import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { OZON_POLL } from '../../src/channels/ozon/poll.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeOzon, startFakeOzon } from '../fakes/ozon.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { makeTeam } from './chats-fixtures.ts';
import { until } from './cluster-fixtures.ts';
import { pollPasses } from './poll-fixtures.ts';

/**
 * An Ozon seller's buyer chats (type `ozon`, issue 35): the job runner polls the fake Seller API (chat list with
 * cursors, history Forward/Backward, 429s) on the test server's clock; replies and files go to its send methods.
 * Each test deletes its channel and the fake's chats, so the next one reads the seller alone.
 */
describe('Ozon channel', () => {
  let s: TestServer;
  let ozon: FakeOzon;
  before(async () => {
    ozon = await startFakeOzon();
    s = await startTestServer({ env: { OZON_API_BASE_URL: ozon.baseUrl } });
  });
  after(async () => {
    await s.close();
    await ozon.close();
  });
  type Setup = { org: TestOrg; channelId: string };
  const cleanup: Setup[] = [];
  afterEach(async () => {
    for (const { org, channelId } of cleanup.splice(0))
      assert.equal((await org.admin.api.delete(`/api/channels/${channelId}`)).status, 200);
    ozon.chats.clear();
    ozon.pageSize = 100;
  });
  async function connect(): Promise<Setup> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'ozon',
      name: `Ozon ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      clientId: ozon.clientId,
      apiKey: ozon.apiKey,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const setup = { org, channelId: res.body.entity.id as string };
    cleanup.push(setup);
    return setup;
  }
  const { pollRow, passDone, nextPass } = pollPasses<{ chats?: Record<string, string> }>(() => s);
  const chatWith = (org: TestOrg, name: string) =>
    until(
      async () => (await chatsOf(org)).find((c: { client: { name: string } }) => c.client.name === name),
      name,
    );
  const textsOf = async (org: TestOrg, chatId: string) =>
    (await messagesOf(org, chatId)).map((m: { text: string }) => m.text);

  test('connecting checks Client-Id and Api-Key with /v3/chat/list; a refused key is a field error', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (over: Record<string, unknown> = {}) =>
      org.admin.api.post('/api/channels', {
        type: 'ozon',
        name: 'Ozon',
        teamId,
        clientId: ozon.clientId,
        apiKey: ozon.apiKey,
        ...over,
      });
    const malformed = await post({ clientId: 'seller-one' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.fields.clientId, 'Incorrect token/ID specified');
    const refused = await post({ apiKey: 'not-the-key' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.fields.clientId, 'Incorrect token/ID specified');
    assert.equal(refused.body.error.fields.apiKey, 'Incorrect token/ID specified');
    const check = ozon.callsTo('/v3/chat/list').at(-1);
    assert.equal(check?.body.limit, 1);
    assert.equal(check?.headers['client-id'], ozon.clientId);
    assert.equal(check?.headers['api-key'], 'not-the-key');
    ozon.rateLimit(1);
    const busy = await post();
    assert.equal(busy.status, 502);
    assert.equal(busy.body.code, 'channelCreationException');
    assert.equal(busy.body.error.details.reason, 'unreachable');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing stored');

    const ok = await post();
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    cleanup.push({ org, channelId: ok.body.entity.id });
    assert.deepEqual(ok.body.entity.settings, { clientId: ozon.clientId });
    assert.ok(!JSON.stringify(ok.body).includes(ozon.apiKey), 'the key is never shown');
    assert.match(ok.body.entity.inboundKey, /^[A-Za-z0-9_-]{40,}$/, 'the push key, shown once');
  });

  test('pushes: the check request is answered as Ozon documents; a buyer’s message comes at once, stored once', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'ozon',
      name: 'Ozon push',
      teamId,
      clientId: ozon.clientId,
      apiKey: ozon.apiKey,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id as string;
    cleanup.push({ org, channelId });
    await passDone(channelId);
    const hook = `${s.url}/api/webhooks/ozon/${channelId}?key=${res.body.entity.inboundKey}`;
    const post = (url: string, body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ping = await post(hook, { message_type: 'TYPE_PING', time: '2019-08-24T14:15:22Z' });
    assert.equal(ping.status, 200);
    assert.match(ping.headers.get('content-type') ?? '', /^application\/json/);
    const pong = (await ping.json()) as { name: string; version: string; time: string };
    assert.equal(pong.name, 'SmartConnect');
    assert.equal(pong.version, '1.0.0');
    assert.ok(Math.abs(Date.parse(pong.time) - Date.now()) < 60_000, 'our time, not an echo');
    const unkeyed = await post(`${s.url}/api/webhooks/ozon/${channelId}`, { message_type: 'TYPE_PING' });
    assert.equal(unkeyed.status, 401);
    const wrong = await post(`${s.url}/api/webhooks/ozon/${channelId}?key=guess`, {
      message_type: 'TYPE_PING',
    });
    assert.equal(wrong.status, 401);

    const c = ozon.addChat();
    const id = ozon.addMessage(c, ['Pushed to us'], { userId: '7400' });
    const push = {
      message_type: 'TYPE_NEW_MESSAGE',
      chat_id: c,
      chat_type: 'Buyer_Seller',
      message_id: id,
      created_at: new Date().toISOString(),
      user: { id: '7400', type: 'Customer' },
      data: ['Pushed to us'],
      seller_id: ozon.clientId,
    };
    const got = await post(hook, push);
    assert.equal(got.status, 200);
    assert.deepEqual(await got.json(), { result: true });
    const chat = await chatWith(org, 'Ozon buyer 7400');
    assert.deepEqual(await textsOf(org, chat.id), ['Pushed to us']);
    assert.equal((await post(hook, push)).status, 200, 'a duplicate is acknowledged');
    // The poll reads the same message from the history: stored once.
    await nextPass(channelId);
    assert.deepEqual(await textsOf(org, chat.id), ['Pushed to us']);
    const other = await post(hook, { message_type: 'TYPE_NEW_POSTING', posting_number: '24219509-0020-1' });
    assert.deepEqual(await other.json(), { result: true });
  });

  test('buyer messages are polled into chats, once each; seller, system and service chats are left', async () => {
    // Before connecting: a read chat (its past is not imported) and an unread one (read on the first pass).
    const old = ozon.addChat();
    ozon.addMessage(old, ['an old question'], { userId: '7000' });
    for (const m of ozon.chats.get(old)?.messages ?? []) m.is_read = true;
    const fresh = ozon.addChat();
    ozon.addMessage(fresh, ['Hello, a question about the "protective glass" item'], {
      userId: '7001',
      context: { order_number: '24219509-0020', sku: '147451959' },
    });
    const support = ozon.addChat({ chatType: 'SELLER_SUPPORT' });
    ozon.addMessage(support, ['Ozon support here'], { type: 'Support' });
    ozon.pageSize = 1;
    const { org, channelId } = await connect();

    const chat = await chatWith(org, 'Ozon buyer 7001');
    assert.deepEqual(await textsOf(org, chat.id), ['Hello, a question about the "protective glass" item']);
    await passDone(channelId);
    const lists = ozon.callsTo('/v3/chat/list').filter((c) => c.body.limit === OZON_POLL.listLimit);
    assert.ok(
      lists.some((c) => c.body.cursor === '2'),
      'the list is followed page by page',
    );
    assert.equal(
      (await chatsOf(org)).length,
      1,
      'the read chat’s past and the support chat are not imported',
    );

    // New messages: the buyer's come, ours (sent from the Ozon cabinet) and Ozon's system messages do not.
    ozon.addMessage(fresh, ['second'], { userId: '7001' });
    ozon.addMessage(fresh, ['sent from the cabinet'], { type: 'Seller', userId: ozon.clientId });
    ozon.addMessage(fresh, ['Order delivered'], { type: 'Crm', userId: '0' });
    const third = ozon.addMessage(fresh, ['third'], { type: 'Сustomer', userId: '7001' });
    ozon.addMessage(old, ['back again'], { userId: '7000' });
    await nextPass(channelId);
    assert.deepEqual(await textsOf(org, chat.id), [
      'Hello, a question about the "protective glass" item',
      'second',
      'third',
    ]);
    const oldChat = await chatWith(org, 'Ozon buyer 7000');
    assert.deepEqual(await textsOf(org, oldChat.id), ['back again']);
    const forward = ozon.callsTo('/v3/chat/history').filter((c) => c.body.direction === 'Forward');
    assert.ok(forward.length > 0 && forward.every((c) => typeof c.body.from_message_id === 'string'));
    assert.equal((await pollRow(channelId)).cursor.chats?.[fresh], third, 'the position is stored');

    // The same messages read again (a pass that crashed before storing its position): stored once.
    const first = ozon.chats.get(fresh)?.messages[0].message_id ?? '';
    await s.db.query(
      `update channel_polls set cursor = jsonb_set(cursor, array['chats', $2::text], to_jsonb($3::text))
        where channel_id = $1`,
      [channelId, fresh, String(BigInt(first) - 1n)],
    );
    ozon.addMessage(fresh, ['fourth'], { userId: '7001' });
    await nextPass(channelId);
    assert.deepEqual(await textsOf(org, chat.id), [
      'Hello, a question about the "protective glass" item',
      'second',
      'third',
      'fourth',
    ]);
  });

  test('a buyer’s image is fetched into our storage with the seller’s headers', async () => {
    const { org, channelId } = await connect();
    await passDone(channelId);
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const url = ozon.addFile('photo.png', 'image/png', bytes);
    const c = ozon.addChat();
    ozon.addMessage(c, [`![](${url})`], { userId: '7100', isImage: true });
    await nextPass(channelId);
    const chat = await chatWith(org, 'Ozon buyer 7100');
    const [m] = await messagesOf(org, chat.id);
    assert.equal(m.attachments.length, 1);
    const file = await fetch(s.url + m.attachments[0].url);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), bytes);
  });

  test('replies and files reach Ozon’s send methods; the chat is marked read', async () => {
    const { org, channelId } = await connect();
    await passDone(channelId);
    const c = ozon.addChat();
    const asked = ozon.addMessage(c, ['Where is my parcel?'], { userId: '7200' });
    await nextPass(channelId);
    const chat = await chatWith(org, 'Ozon buyer 7200');
    const { send, waitStatus } = await replyTo(s, org, chat.id);
    await waitStatus(await send({ text: 'Your parcel left today.' }), 'sent');
    const sent = ozon.callsTo('/v1/chat/send/message').at(-1);
    assert.deepEqual(sent?.body, { chat_id: c, text: 'Your parcel left today.' });
    assert.equal(ozon.chats.get(c)?.messages.find((m) => m.message_id === asked)?.is_read, true);

    const key = await s.db.tx((q) =>
      saveFile(s.app, q, org.id, Buffer.from('%PDF-1.4 test'), 'application/pdf'),
    );
    const doc = await send({
      text: 'The invoice',
      attachments: [
        {
          url: `http://localhost:3000/api/files/${key}`,
          name: 'invoice.pdf',
          contentType: 'application/pdf',
        },
      ],
    });
    await waitStatus(doc, 'sent');
    const file = ozon.callsTo('/v1/chat/send/file').at(-1);
    assert.equal(file?.body.chat_id, c);
    assert.equal(file?.body.name, 'invoice.pdf');
    assert.equal(Buffer.from(String(file?.body.base64_content), 'base64').toString(), '%PDF-1.4 test');
    assert.equal(ozon.callsTo('/v1/chat/send/message').at(-1)?.body.text, 'The invoice');

    // Our own messages come back in the history as the seller's: never stored again.
    await nextPass(channelId);
    assert.deepEqual(await textsOf(org, chat.id), [
      'Where is my parcel?',
      'Your parcel left today.',
      'The invoice',
    ]);
  });

  test('a 429 slows the poller without losing a message; a refused key is the channel’s problem', async () => {
    const { org, channelId } = await connect();
    await passDone(channelId);
    const c = ozon.addChat();
    ozon.addMessage(c, ['during the limit'], { userId: '7300' });
    ozon.rateLimit(2);
    const limited = await nextPass(channelId);
    const waitMs = limited.due_at.getTime() - s.clock.now().getTime();
    assert.ok(waitMs > 0 && waitMs < OZON_POLL.intervalMs, `backs off ${waitMs} ms, sooner than a pass`);
    assert.equal((await chatsOf(org)).length, 0);
    await nextPass(channelId);
    await nextPass(channelId);
    const chat = await chatWith(org, 'Ozon buyer 7300');
    assert.deepEqual(await textsOf(org, chat.id), ['during the limit']);
    assert.deepEqual(
      (await org.admin.api.get('/api/channels/problems')).body.entity.items,
      [],
      'a short limit',
    );

    const key = ozon.apiKey;
    ozon.apiKey = 'revoked';
    try {
      await nextPass(channelId);
      const [problem] = await until(async () => {
        const items = (await org.admin.api.get('/api/channels/problems')).body.entity.items;
        return items.length ? items : undefined;
      }, 'the problem');
      assert.equal(problem.kind, 'token_refused');
      assert.equal(problem.channelId, channelId);
    } finally {
      ozon.apiKey = key;
    }
  });
});
