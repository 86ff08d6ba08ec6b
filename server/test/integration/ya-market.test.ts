import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { YA_MARKET_RATE_WAIT_MS } from '../../src/channels/ya_market/api.ts';
import { YA_MARKET_POLL } from '../../src/channels/ya_market/poll.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeYaMarket, startFakeYaMarket } from '../fakes/ya-market.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { makeTeam } from './chats-fixtures.ts';
import { until } from './cluster-fixtures.ts';
import { pollPasses } from './poll-fixtures.ts';

/**
 * A Yandex Market cabinet's buyer chats (type `ya_market`, issue 35): the job runner polls the fake Partner API (chat
 * list and history with page tokens, 420s) on the test server's clock; API notifications bring messages sooner;
 * replies and files go to its send methods. Each test deletes its channel and the fake's chats.
 */
describe('Yandex Market channel', () => {
  let s: TestServer;
  let market: FakeYaMarket;
  before(async () => {
    market = await startFakeYaMarket();
    s = await startTestServer({ env: { YANDEX_MARKET_API_BASE_URL: market.baseUrl } });
  });
  after(async () => {
    await s.close();
    await market.close();
  });
  type Setup = { org: TestOrg; channelId: string; inboundKey: string };
  const cleanup: Setup[] = [];
  afterEach(async () => {
    for (const { org, channelId } of cleanup.splice(0))
      assert.equal((await org.admin.api.delete(`/api/channels/${channelId}`)).status, 200);
    market.chats.clear();
    market.pageSize = 20;
  });
  async function connect(): Promise<Setup> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'ya_market',
      name: `Market ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      businessId: market.businessId,
      apiKey: market.apiKey,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const setup = {
      org,
      channelId: res.body.entity.id as string,
      inboundKey: res.body.entity.inboundKey as string,
    };
    cleanup.push(setup);
    return setup;
  }
  const { pollRow, passDone, nextPass } = pollPasses<{
    chats?: Record<string, { last?: string; at?: string }>;
  }>(() => s);
  const chatWith = (org: TestOrg, name: string) =>
    until(
      async () => (await chatsOf(org)).find((c: { client: { name: string } }) => c.client.name === name),
      name,
    );
  const textsOf = async (org: TestOrg, chatId: string) =>
    (await messagesOf(org, chatId)).map((m: { text: string }) => m.text);
  const hookOf = (setup: Setup, key = setup.inboundKey) =>
    `${s.url}/api/webhooks/ya_market/${setup.channelId}?key=${key}`;
  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** A CHAT_MESSAGE_SENT notification, its int64 chat id written as a bare number as Market does. */
  const sentNotification = (chatId: string, messageId: string) =>
    `{"notificationType":"CHAT_MESSAGE_SENT","businessId":${market.businessId},"chatId":${chatId},"messageId":"${messageId}","sentAt":"${new Date().toISOString()}"}`;

  test('connecting checks the Api-Key and business id with the chat list; a refused key is a field error', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const create = (over: Record<string, unknown> = {}) =>
      org.admin.api.post('/api/channels', {
        type: 'ya_market',
        name: 'Market',
        teamId,
        businessId: market.businessId,
        apiKey: market.apiKey,
        ...over,
      });
    const malformed = await create({ businessId: 'shop-one' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.fields.businessId, 'Incorrect token/ID specified');
    const refused = await create({ apiKey: 'not-the-key' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.fields.apiKey, 'Incorrect token/ID specified');
    assert.equal(refused.body.error.fields.businessId, 'Incorrect token/ID specified');
    const check = market.callsTo('/chats').at(-1);
    assert.equal(check?.method, 'POST');
    assert.equal(check?.query.limit, '1');
    assert.deepEqual(check?.body, {});
    assert.equal(check?.headers['api-key'], 'not-the-key');
    const otherBusiness = await create({ businessId: '999' });
    assert.equal(otherBusiness.status, 400);
    assert.equal(otherBusiness.body.error.fields.businessId, 'Incorrect token/ID specified');
    market.rateLimit(1);
    const busy = await create();
    assert.equal(busy.status, 502);
    assert.equal(busy.body.code, 'channelCreationException');
    assert.equal(busy.body.error.details.reason, 'unreachable');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing stored');

    const ok = await create();
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    cleanup.push({ org, channelId: ok.body.entity.id, inboundKey: '' });
    assert.deepEqual(ok.body.entity.settings, { businessId: market.businessId });
    assert.ok(!JSON.stringify(ok.body).includes(market.apiKey), 'the key is never shown');
    assert.match(ok.body.entity.inboundKey, /^[A-Za-z0-9_-]{40,}$/, 'the notification key, shown once');
    const channel = (await org.admin.api.get(`/api/channels/${ok.body.entity.id}`)).body.entity;
    assert.equal(channel.capabilities?.edit ?? false, false);
  });

  test('buyer messages are polled in page by page, in id order, once each, with the order as the topic', async () => {
    // Before connecting: a chat already answered (its past is not imported) and one waiting for the seller.
    const answered = market.addChat({ customerName: 'Olga S.' });
    market.addMessage(answered, 'an old question');
    market.addMessage(answered, 'an old answer', { sender: 'PARTNER' });
    const waiting = market.addChat({ orderId: '123456789' });
    market.addMessage(waiting, 'When will you ship?');
    market.addMessage(waiting, 'Order confirmed', { sender: 'MARKET' });
    market.addMessage(waiting, 'And the invoice?');
    market.pageSize = 1;
    const { org, channelId } = await connect();

    const chat = await chatWith(org, 'Ivan P.');
    await passDone(channelId);
    assert.deepEqual(
      await textsOf(org, chat.id),
      ['When will you ship?', 'And the invoice?'],
      'oldest first',
    );
    assert.deepEqual(chat.topic, { kind: 'order', id: '123456789', title: '', url: null });
    assert.equal((await chatsOf(org)).length, 1, 'the answered chat’s past is not imported');
    assert.ok(
      market.callsTo('/chats').some((c) => c.query.pageToken),
      'the chat list is followed by its page tokens',
    );
    assert.ok(
      market.callsTo('/chats/history').some((c) => c.query.pageToken && c.query.chatId === waiting),
      'the history too',
    );

    // New messages: the buyer's come; ours from the cabinet, Market's and support's do not; the answered chat's
    // new question comes alone.
    market.addMessage(waiting, 'second');
    market.addMessage(waiting, 'sent from the cabinet', { sender: 'PARTNER' });
    market.addMessage(waiting, 'Support here', { sender: 'SUPPORT' });
    const third = market.addMessage(waiting, 'third');
    market.addMessage(answered, 'back again');
    await nextPass(channelId);
    assert.deepEqual(await textsOf(org, chat.id), [
      'When will you ship?',
      'And the invoice?',
      'second',
      'third',
    ]);
    const olga = await chatWith(org, 'Olga S.');
    assert.deepEqual(await textsOf(org, olga.id), ['back again']);
    const from = market.callsTo('/chats/history').filter((c) => c.body.messageIdFrom !== undefined);
    assert.ok(from.length > 0, 'the history is read from the last message read');
    assert.ok(
      from.every((c) => /^\d{19}$/.test(String(c.body.messageIdFrom))),
      'the 64-bit id is sent whole',
    );
    assert.equal((await pollRow(channelId)).cursor.chats?.[waiting]?.last, third, 'the place is stored');

    // The same messages read again (a pass that crashed before storing its place): stored once.
    await s.db.query(
      `update channel_polls set cursor = jsonb_set(cursor, array['chats', $2::text], '{}'::jsonb)
        where channel_id = $1`,
      [channelId, waiting],
    );
    market.addMessage(waiting, 'fourth');
    await nextPass(channelId);
    assert.deepEqual(await textsOf(org, chat.id), [
      'When will you ship?',
      'And the invoice?',
      'second',
      'third',
      'fourth',
    ]);
  });

  test('a buyer’s file is fetched into our storage; a return chat names its order and return', async () => {
    const { org, channelId } = await connect();
    await passDone(channelId);
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const url = market.addFile('photo.png', 'image/png', bytes);
    const c = market.addChat({ type: 'RETURN', orderId: '777', returnId: '888', customerName: 'Anna K.' });
    market.addMessage(c, 'The box was broken', { payload: [{ name: 'photo.png', url, size: bytes.length }] });
    await nextPass(channelId);
    const chat = await chatWith(org, 'Anna K.');
    const [m] = await messagesOf(org, chat.id);
    assert.equal(m.text, 'The box was broken');
    assert.equal(m.attachments.length, 1);
    assert.equal(m.attachments[0].name, 'photo.png');
    const file = await fetch(s.url + m.attachments[0].url);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), bytes);
    assert.deepEqual(chat.topic, { kind: 'order', id: '777', title: 'Return 888', url: null });
  });

  test('replies and files reach Market’s send methods; our messages are never stored again', async () => {
    const { org, channelId } = await connect();
    await passDone(channelId);
    const c = market.addChat({ customerName: 'Petr V.' });
    market.addMessage(c, 'Where is my parcel?');
    await nextPass(channelId);
    const chat = await chatWith(org, 'Petr V.');
    const { send, sendRateLimited, waitStatus } = await replyTo(s, org, chat.id);
    await waitStatus(await send({ text: 'Your parcel left today.' }), 'sent');
    const sent = market
      .callsTo('/chats/message')
      .filter((x) => x.method === 'POST')
      .at(-1);
    assert.equal(sent?.query.chatId, c);
    assert.deepEqual(sent?.body, { message: 'Your parcel left today.' });
    assert.equal(sent?.headers['api-key'], market.apiKey);

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
    const file = market.callsTo('/chats/file/send').at(-1);
    assert.equal(file?.query.chatId, c);
    assert.equal(file?.file?.name, 'invoice.pdf');
    assert.equal(file?.file?.type, 'application/pdf');
    assert.equal(file?.file?.data.toString(), '%PDF-1.4 test');
    assert.equal(market.callsTo('/chats/message').at(-1)?.body.message, 'The invoice');

    // Market's rate limit (420) makes the message wait and go again: it reaches Market once.
    market.rateLimit(1);
    await sendRateLimited({ text: 'After a hiccup' }, YA_MARKET_RATE_WAIT_MS);
    assert.equal(
      market.callsTo('/chats/message').filter((x) => x.body.message === 'After a hiccup').length,
      2,
      'refused once, sent once',
    );
    assert.equal(
      market.chats.get(c)?.messages.filter((m) => m.message === 'After a hiccup').length,
      1,
      'stored at Market once',
    );

    // The sweep reads the chat again (its status moved to WAITING_FOR_CUSTOMER): ours come back as PARTNER's.
    await passDone(channelId);
    await s.db.query(
      `update channel_polls set cursor = jsonb_set(cursor, '{pass}', to_jsonb($2::int)) where channel_id = $1`,
      [channelId, YA_MARKET_POLL.sweepEvery - 1],
    );
    await nextPass(channelId);
    assert.deepEqual(market.callsTo('/chats').at(-1)?.body, {}, 'the sweep lists every chat');
    assert.deepEqual(await textsOf(org, chat.id), [
      'Where is my parcel?',
      'Your parcel left today.',
      'The invoice',
      'After a hiccup',
    ]);
  });

  test('notifications: answered as Market documents; a pushed message is read and stored once; bad ones refused', async () => {
    const setup = await connect();
    const { org, channelId } = setup;
    await passDone(channelId);
    const ping = await post(hookOf(setup), {
      notificationType: 'PING',
      time: '2025-01-16T10:09:49.759084017Z',
    });
    assert.equal(ping.status, 200);
    assert.match(ping.headers.get('content-type') ?? '', /^application\/json/);
    const pong = (await ping.json()) as { name: string; version: string; time: string };
    assert.equal(pong.name, 'SmartConnect');
    assert.equal(pong.version, '1.0.0');
    assert.ok(Math.abs(Date.parse(pong.time) - Date.now()) < 60_000, 'our time, not an echo');
    // Market may append /notification to the address entered.
    assert.equal(
      (await post(`${hookOf(setup)}/notification`, { notificationType: 'PING', time: 'x' })).status,
      200,
    );
    const unkeyed = await post(`${s.url}/api/webhooks/ya_market/${channelId}`, { notificationType: 'PING' });
    assert.equal(unkeyed.status, 401);
    assert.equal((await post(hookOf(setup, 'guess'), { notificationType: 'PING' })).status, 401);

    const c = market.addChat({ customerName: 'Maria L.', orderId: '555' });
    const id = market.addMessage(c, 'Pushed to us');
    const got = await post(hookOf(setup), sentNotification(c, id));
    assert.equal(got.status, 200);
    assert.equal(((await got.json()) as { name: string }).name, 'SmartConnect');
    const chat = await chatWith(org, 'Maria L.');
    assert.deepEqual(await textsOf(org, chat.id), ['Pushed to us']);
    assert.deepEqual(chat.topic, { kind: 'order', id: '555', title: '', url: null });
    const read = market.callsTo('/chats/history').at(-1);
    assert.equal(read?.query.chatId, c, 'the 64-bit chat id read whole');
    // Market's retry, then the poll reading the same message: stored once.
    assert.equal((await post(hookOf(setup), sentNotification(c, id))).status, 200);
    await nextPass(channelId);
    assert.deepEqual(await textsOf(org, chat.id), ['Pushed to us']);

    // Out of order: the later message's notification comes first; both are stored once, in Market's order.
    const a = market.addMessage(c, 'first of two');
    const b = market.addMessage(c, 'second of two');
    assert.equal((await post(hookOf(setup), sentNotification(c, b))).status, 200);
    assert.equal((await post(hookOf(setup), sentNotification(c, a))).status, 200);
    assert.deepEqual(await textsOf(org, chat.id), ['Pushed to us', 'first of two', 'second of two']);
    await nextPass(channelId);
    assert.deepEqual(await textsOf(org, chat.id), ['Pushed to us', 'first of two', 'second of two']);

    // Our own message's notification stores nothing; a message Market does not give now is left to the poll.
    const ours = market.addMessage(c, 'from the shop', { sender: 'PARTNER' });
    assert.equal((await post(hookOf(setup), sentNotification(c, ours))).status, 200);
    const later = market.addMessage(c, 'during an outage');
    market.fail(1);
    assert.equal((await post(hookOf(setup), sentNotification(c, later))).status, 200);
    assert.ok(!(await textsOf(org, chat.id)).includes('during an outage'), 'not stored empty');
    await nextPass(channelId);
    assert.deepEqual((await textsOf(org, chat.id)).slice(-1), ['during an outage']);
    assert.ok(!(await textsOf(org, chat.id)).includes('from the shop'));

    // Other and unknown types are acknowledged; malformed ones refused 400 with nothing stored.
    for (const body of [
      { notificationType: 'ORDER_CREATED', campaignId: 1, orderId: 2, createdAt: 'x' },
      { notificationType: 'BRAND_NEW_KIND', whatever: 1 },
      { notificationType: 'CHAT_CREATED', businessId: 123, chatId: 4567, createdAt: '2025-01-16T10:09:49Z' },
    ]) {
      const res = await post(hookOf(setup), body);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(((await res.json()) as { version: string }).version, '1.0.0');
    }
    const before = (await chatsOf(org)).length;
    for (const body of [
      'not json at all',
      { chatId: 1 },
      { notificationType: 'CHAT_MESSAGE_SENT', businessId: 123, chatId: c, sentAt: 'x' },
    ])
      assert.equal((await post(hookOf(setup), body)).status, 400, JSON.stringify(body));
    assert.equal((await chatsOf(org)).length, before, 'nothing stored');
  });

  test('a 420 slows the poller without losing a message; a refused key is the channel’s problem', async () => {
    const { org, channelId } = await connect();
    await passDone(channelId);
    const c = market.addChat({ customerName: 'Limit Buyer' });
    market.addMessage(c, 'during the limit');
    market.rateLimit(2);
    const limited = await nextPass(channelId);
    const waitMs = limited.due_at.getTime() - s.clock.now().getTime();
    assert.ok(waitMs > 0 && waitMs < YA_MARKET_POLL.intervalMs, `backs off ${waitMs} ms, sooner than a pass`);
    assert.equal((await chatsOf(org)).length, 0);
    await nextPass(channelId);
    await nextPass(channelId);
    const chat = await chatWith(org, 'Limit Buyer');
    assert.deepEqual(await textsOf(org, chat.id), ['during the limit']);
    assert.deepEqual(
      (await org.admin.api.get('/api/channels/problems')).body.entity.items,
      [],
      'a short limit',
    );

    // An hourly limit used up: waited until Market says it ends.
    market.rateLimit(1, { untilMs: 5 * 60_000 });
    const hourly = await nextPass(channelId);
    const waited = hourly.due_at.getTime() - s.clock.now().getTime();
    assert.ok(waited > 4 * 60_000 && waited <= 5 * 60_000, `waits ${waited} ms`);
    // A 429 (a proxy's) is read the same.
    market.rateLimit(1, { status: 429 });
    const proxied = await nextPass(channelId);
    assert.ok(proxied.due_at.getTime() - s.clock.now().getTime() < YA_MARKET_POLL.intervalMs);
    await nextPass(channelId);

    const key = market.apiKey;
    market.apiKey = 'revoked';
    try {
      await nextPass(channelId);
      const [problem] = await until(async () => {
        const items = (await org.admin.api.get('/api/channels/problems')).body.entity.items;
        return items.length ? items : undefined;
      }, 'the problem');
      assert.equal(problem.kind, 'token_refused');
      assert.equal(problem.channelId, channelId);
      assert.match(problem.detail ?? JSON.stringify(problem), /Token is not valid|FORBIDDEN/);
    } finally {
      market.apiKey = key;
    }
  });
});
