import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import webpush from 'web-push';
import {
  type FakeBrowserSubscription,
  type FakePushService,
  startFakePushService,
} from '../fakes/web-push-service.ts';
import { createOrganisation, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

describe('web push for operators (issue 34)', () => {
  let s: TestServer;
  let fake: FakePushService;
  const sockets: RealtimeClient[] = [];

  before(async () => {
    fake = await startFakePushService();
    s = await startTestServer();
  });
  after(async () => {
    for (const c of sockets) c.ws.close();
    await s.close();
    await fake.close();
  });

  const subscribe = async (user: TestUser, browser: FakeBrowserSubscription) => {
    const res = await user.api.post('/api/push/subscriptions', {
      endpoint: browser.endpoint,
      keys: browser.keys,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity.id as string;
  };
  const pushesTo = (browser: FakeBrowserSubscription) =>
    fake.received.filter((r) => r.subscriptionId === browser.id);
  const waitPush = async (browser: FakeBrowserSubscription, n = 1, ms = 8_000) => {
    const until = Date.now() + ms;
    while (pushesTo(browser).length < n) {
      if (Date.now() > until)
        throw new Error(`${pushesTo(browser).length} of ${n} pushes; rejected: ${fake.rejected.join('; ')}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return pushesTo(browser);
  };
  /** This server's count of pushes by result (GET /metrics, read from this machine). */
  const counted = async (result: string): Promise<number> => {
    const res = await fetch(`${s.url}/metrics`);
    const text = await res.text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`smartconnect_push_notifications_total{result="${result}"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  };
  const waitCounted = async (result: string, n: number) => {
    const until = Date.now() + 8_000;
    while ((await counted(result)) < n) {
      if (Date.now() > until) throw new Error(`${result}: ${await counted(result)} of ${n}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  test('the key, subscribing, settings and unsubscribing through HTTP', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const key = await op.api.get('/api/push/key');
    assert.equal(key.status, 200);
    assert.match(key.body.entity.publicKey, /^B[A-Za-z0-9_-]{86}$/);
    // Made once and kept: the same for every caller.
    assert.equal((await org.admin.api.get('/api/push/key')).body.entity.publicKey, key.body.entity.publicKey);

    const empty = await op.api.get('/api/push/settings');
    assert.deepEqual(empty.body.entity, { newChats: true, newMessages: true, subscriptions: [] });

    const browser = fake.subscription();
    const id = await subscribe(op, browser);
    const listed = (await op.api.get('/api/push/settings')).body.entity;
    assert.deepEqual(
      listed.subscriptions.map((x: { id: string; endpoint: string }) => [x.id, x.endpoint]),
      [[id, browser.endpoint]],
    );
    // Subscribing the same browser again keeps one row.
    assert.equal(await subscribe(op, browser), id);

    const saved = await op.api.put('/api/push/settings', { newChats: false, newMessages: true });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.entity.newChats, false);
    assert.equal((await op.api.get('/api/push/settings')).body.entity.newChats, false);
    assert.equal((await op.api.put('/api/push/settings', { newChats: 'no' })).status, 400);

    const bad = await op.api.post('/api/push/subscriptions', {
      endpoint: browser.endpoint,
      keys: { p256dh: 'short', auth: browser.keys.auth },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validationException');

    assert.equal((await op.api.delete(`/api/push/subscriptions/${id}`)).status, 200);
    assert.equal((await op.api.delete(`/api/push/subscriptions/${id}`)).status, 404);
    assert.deepEqual((await op.api.get('/api/push/settings')).body.entity.subscriptions, []);
  });

  test('a new chat and a new message for an operator with no tab open arrive decrypted, with the chat URL', async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ name: 'Olga' });
    const team = await makeTeam(org, { memberIds: [op.id] });
    const ch = await makeChannel(org, team);
    const browser = fake.subscription();
    await subscribe(op, browser);
    await goOnline(op);
    const publicKey = (await op.api.get('/api/push/key')).body.entity.publicKey;

    const first = await inbound(s, ch, { client: 'c-push-1', name: 'Ann Client', text: 'Hello there' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const chatId = first.body.entity.chatId ?? first.body.entity.chat?.id;
    // The chat is given to the operator (a new chat for them), then the client writes again.
    const pushes = await waitPush(browser, 1);
    const chat = (pushes[0].payload as { url: string }).url.match(/chat=([0-9a-f-]{36})/)?.[1];
    assert.ok(chat, JSON.stringify(pushes[0].payload));
    if (chatId) assert.equal(chat, chatId);
    assert.equal((await chatOf(op, chat)).operator?.id, op.id);
    const before = pushesTo(browser).length;
    assert.equal(
      (await inbound(s, ch, { client: 'c-push-1', name: 'Ann Client', text: 'Are you there?' })).status,
      200,
    );
    const all = await waitPush(browser, before + 1);
    const message = all.find((p) => (p.payload as { title: string }).title === 'New message');
    assert.ok(message, JSON.stringify(all.map((p) => p.payload)));
    assert.deepEqual(message.payload, {
      title: 'New message',
      body: 'Ann Client: Are you there?',
      url: `/admin/chats?filter=assigned&chat=${chat}`,
      tag: `chat-${chat}`,
    });
    // Signed with the server's VAPID key for this push service, with a contact.
    assert.equal(message.vapidKey, publicKey);
    assert.equal(message.claims.aud, fake.url);
    assert.match(message.claims.sub, /^(mailto:|https:)/);
    assert.ok(Number(message.headers.ttl) > 0);
    // The push service took it: the subscription's last success is recorded.
    const sub = (await op.api.get('/api/push/settings')).body.entity.subscriptions[0];
    assert.ok(sub.lastSuccessAt);
  });

  test("a waiting chat goes to its team's members without a tab open, nothing to one with a tab, nothing when turned off", async () => {
    const org = await createOrganisation(s);
    const withTab = await org.user({ name: 'Tab' });
    const away = await org.user({ name: 'Away' });
    const off = await org.user({ name: 'Off' });
    const team = await makeTeam(org, { memberIds: [withTab.id, away.id, off.id] });
    const ch = await makeChannel(org, team);
    const [tabBrowser, awayBrowser, offBrowser] = [
      fake.subscription(),
      fake.subscription(),
      fake.subscription(),
    ];
    await subscribe(withTab, tabBrowser);
    await subscribe(away, awayBrowser);
    await subscribe(off, offBrowser);
    assert.equal(
      (await off.api.put('/api/push/settings', { newChats: false, newMessages: false })).status,
      200,
    );
    const socket = await RealtimeClient.connect(s.url, withTab.token);
    sockets.push(socket);
    const openTabs = await counted('open_tab');

    // Nobody is online: the chat waits in the team's queue.
    assert.equal(
      (await inbound(s, ch, { client: 'c-queue', name: 'Queue Client', text: 'Anyone?' })).status,
      200,
    );
    const [push] = await waitPush(awayBrowser, 1);
    assert.equal((push.payload as { title: string }).title, 'New chat');
    assert.equal((push.payload as { body: string }).body, 'Queue Client: Anyone?');
    assert.match((push.payload as { url: string }).url, /^\/admin\/chats\?filter=waiting&chat=/);
    // The same notice reached the tab's owner and found their tab open; the one who turned it off was not chosen.
    await waitCounted('open_tab', openTabs + 1);
    await socket.waitFor((f) => f.some((x) => x.type === 'chat.created'));
    assert.deepEqual(pushesTo(tabBrowser), []);
    assert.deepEqual(pushesTo(offBrowser), []);
  });

  test('VAPID keys from the environment sign the pushes', async () => {
    const keys = webpush.generateVAPIDKeys();
    const other = await startTestServer({
      env: {
        VAPID_PUBLIC_KEY: keys.publicKey,
        VAPID_PRIVATE_KEY: keys.privateKey,
        VAPID_SUBJECT: 'mailto:ops@example.test',
      },
    });
    try {
      const org = await createOrganisation(other);
      const op = await org.user();
      assert.equal((await op.api.get('/api/push/key')).body.entity.publicKey, keys.publicKey);
      const browser = fake.subscription();
      await subscribe(op, browser);
      assert.equal((await op.api.post('/api/push/test')).status, 200);
      const [push] = await waitPush(browser, 1);
      assert.equal(push.vapidKey, keys.publicKey);
      assert.equal(push.claims.sub, 'mailto:ops@example.test');
    } finally {
      await other.close();
    }
  });

  test('a test notification: missing subscription, sent, refused, and 410 removes the subscription', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const none = await op.api.post('/api/push/test');
    assert.equal(none.status, 404);
    assert.equal(none.body.code, 'pushSubscriptionMissingException');
    assert.equal(none.body.error.message, 'push subscription missing');

    const browser = fake.subscription();
    const id = await subscribe(op, browser);
    const ok = await op.api.post('/api/push/test');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.entity, { sent: 1 });
    const [received] = await waitPush(browser, 1);
    assert.equal((received.payload as { title: string }).title, 'SmartConnect');

    for (const status of [429, 500]) {
      fake.answer(browser.id, status);
      const refused = await op.api.post('/api/push/test');
      assert.equal(refused.status, 502);
      assert.equal(refused.body.code, 'pushSendFailureException');
      assert.equal(refused.body.error.message, 'push send failure');
      // A passing failure keeps the subscription.
      assert.equal((await op.api.get('/api/push/settings')).body.entity.subscriptions[0].id, id);
    }

    fake.answer(browser.id, 410);
    assert.equal((await op.api.post('/api/push/test')).body.code, 'pushSendFailureException');
    assert.deepEqual((await op.api.get('/api/push/settings')).body.entity.subscriptions, []);
    assert.equal((await op.api.post('/api/push/test')).body.code, 'pushSubscriptionMissingException');

    const gone = fake.subscription();
    await subscribe(op, gone);
    fake.answer(gone.id, 404);
    assert.equal((await op.api.post('/api/push/test')).status, 502);
    assert.deepEqual((await op.api.get('/api/push/settings')).body.entity.subscriptions, []);
  });

  test("one user cannot touch another's subscription; organisations stay apart", async () => {
    const a = await createOrganisation(s);
    const b = await createOrganisation(s);
    const owner = await a.user();
    const colleague = await a.user();
    const browser = fake.subscription();
    const id = await subscribe(owner, browser);

    assert.equal((await colleague.api.delete(`/api/push/subscriptions/${id}`)).status, 404);
    assert.equal((await a.admin.api.delete(`/api/push/subscriptions/${id}`)).status, 404);
    assert.equal((await b.admin.api.delete(`/api/push/subscriptions/${id}`)).status, 404);
    assert.deepEqual((await colleague.api.get('/api/push/settings')).body.entity.subscriptions, []);
    assert.equal((await colleague.api.post('/api/push/test')).body.code, 'pushSubscriptionMissingException');

    // The same browser signed in to another organisation: each organisation keeps its own row.
    const other = await b.user();
    await subscribe(other, browser);
    const mine = (await owner.api.get('/api/push/settings')).body.entity.subscriptions;
    assert.deepEqual(
      mine.map((x: { id: string }) => x.id),
      [id],
    );
    // Another organisation's chats never reach this organisation's users.
    const teamB = await makeTeam(b, { memberIds: [other.id] });
    const chB = await makeChannel(b, teamB);
    await makeTeam(a, { memberIds: [owner.id] });
    const sentBefore = pushesTo(browser).length;
    assert.equal((await inbound(s, chB, { client: 'c-iso', name: 'Iso', text: 'B only' })).status, 200);
    await waitPush(browser, sentBefore + 1);
    await new Promise((r) => setTimeout(r, 300));
    // One push: organisation B's user; organisation A's owner of the same browser got none for B's chat.
    assert.equal(pushesTo(browser).length, sentBefore + 1);
  });
});
