import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeViber, startFakeViber } from '../fakes/viber.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { MEDIA } from '../media-fixtures.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';

/** The Viber bot channel end to end against a fake REST Bot API that follows Viber's documents. */
describe('Viber bot channel', () => {
  let s: TestServer;
  let vb: FakeViber;
  before(async () => {
    vb = await startFakeViber();
    s = await startTestServer({ env: { VIBER_API_BASE_URL: vb.baseUrl } });
    vb.reach = (url) => url.replace('http://localhost:3000', s.url);
  });
  after(async () => {
    await s.close();
    await vb.close();
  });

  async function connect(): Promise<{ org: TestOrg; channelId: string; hook: string }> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'viber_bot',
      name: `Viber ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      token: vb.token,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id;
    return { org, channelId, hook: `${s.url}/api/webhooks/viber_bot/${channelId}` };
  }

  test('connecting checks the token with get_account_info and sets the webhook, which Viber checks first', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (token: string) =>
      org.admin.api.post('/api/channels', { type: 'viber_bot', name: 'V', teamId, token });
    const malformed = await post('nope');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.fields.token, 'Incorrect token/ID specified');
    const refused = await post('4453b6ac12345678-e02c5f12174805f9-00000000000000aa');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.fields.token, 'Incorrect token/ID specified');
    vb.failNext('set_webhook', 1, 'invalidUrl');
    const hookRefused = await post(vb.token);
    assert.equal(hookRefused.status, 502);
    assert.equal(hookRefused.body.error.details.reason, 'webhook');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing kept');

    const { org: org2, channelId } = await connect();
    assert.equal(vb.webhook, `http://localhost:3000/api/webhooks/viber_bot/${channelId}`);
    const setHook = vb.calls.filter((c) => c.method === 'set_webhook').at(-1);
    assert.deepEqual(setHook?.body.event_types, [
      'delivered',
      'seen',
      'failed',
      'subscribed',
      'unsubscribed',
      'conversation_started',
    ]);
    const shown = JSON.stringify((await org2.admin.api.get(`/api/channels/${channelId}`)).body);
    assert.ok(shown.includes('Shop Viber') && !shown.includes(vb.token));
    // Deactivating removes the webhook; activating sets it again.
    assert.equal(
      (await org2.admin.api.patch(`/api/channels/${channelId}`, { status: 'inactive' })).status,
      200,
    );
    assert.equal(vb.webhook, null);
    assert.equal(
      (await org2.admin.api.patch(`/api/channels/${channelId}`, { status: 'active' })).status,
      200,
    );
    assert.equal(vb.webhook, `http://localhost:3000/api/webhooks/viber_bot/${channelId}`);
    // §8 'token not from current bot': an edit keeps the bot; another bot's valid token is refused, nothing kept.
    const other = await org2.admin.api.patch(`/api/channels/${channelId}`, { token: vb.otherToken });
    assert.equal(other.status, 400);
    assert.equal(other.body.code, 'tokenNotFromCurrentBotException');
    assert.deepEqual(other.body.error.fields, { token: 'Token not from current bot' });
    const kept = JSON.stringify((await org2.admin.api.get(`/api/channels/${channelId}`)).body);
    assert.ok(kept.includes('Shop Viber') && !kept.includes('Other Viber'));
    // The same bot's token again is fine.
    assert.equal((await org2.admin.api.patch(`/api/channels/${channelId}`, { token: vb.token })).status, 200);
  });

  test('callbacks are checked by X-Viber-Content-Signature; every message type; a repeated message_token changes nothing', async () => {
    const { org, hook } = await connect();
    const user = { id: '01234567890A=', name: 'Pavel Orlov' };
    const text = vb.message(user, { type: 'text', text: 'Hello' });
    assert.equal(await vb.deliver(hook, text, null), 401);
    assert.equal(await vb.deliver(hook, text, 'f'.repeat(64)), 401);
    assert.equal((await chatsOf(org)).length, 0, 'nothing stored');
    assert.equal(await vb.deliver(hook, text), 200);
    assert.equal(await vb.deliver(hook, text), 200, 'a retry is answered too');
    const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 4, 4]);
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 1]);
    // Bytes that are what they claim: received files are kept under the type their content shows.
    const { mp4 } = MEDIA;
    const events = [
      vb.message(user, { type: 'picture', text: 'my receipt', media: vb.addMedia(jpg, 'image/jpeg') }),
      vb.message(user, {
        type: 'file',
        media: vb.addMedia(pdf, 'application/pdf'),
        file_name: 'order.pdf',
        size: 5,
      }),
      vb.message(user, { type: 'video', media: vb.addMedia(mp4, 'video/mp4'), size: 6, duration: 3 }),
      vb.message(user, { type: 'sticker', sticker_id: 46105, media: vb.addMedia(jpg, 'image/png') }),
      vb.message(user, { type: 'location', location: { lat: 59.93, lon: 30.31 } }),
      vb.message(user, { type: 'contact', contact: { name: 'Ira', phone_number: '+79001234567' } }),
      vb.message(user, { type: 'url', media: 'https://shop.example/item/1' }),
      vb.message(user, { type: 'rich_media' }),
    ];
    for (const e of events) assert.equal(await vb.deliver(hook, e), 200);
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1);
    assert.equal(chats[0].client.name, 'Pavel Orlov');
    const got = await messagesOf(org, chats[0].id);
    assert.deepEqual(
      got.map((m: { text: string }) => m.text),
      [
        'Hello',
        'my receipt',
        '',
        '',
        '',
        '📍 59.93, 30.31',
        '👤 Ira +79001234567',
        'https://shop.example/item/1',
        '[Viber: rich_media]',
      ],
    );
    const files = got
      .slice(1, 5)
      .map((m: { attachments: { url: string; name: string }[] }) => m.attachments[0]);
    assert.deepEqual(
      files.map((f: { name: string }) => f.name),
      ['picture.jpg', 'order.pdf', 'video.mp4', 'sticker.png'],
    );
    for (const [i, bytes] of [jpg, pdf, mp4, jpg].entries()) {
      const res = await fetch(s.url + files[i].url);
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), bytes);
    }
    // The message_token is past 2^53: two tokens one apart stay two messages.
    const base = BigInt(vb.nextToken());
    assert.equal(
      await vb.deliver(hook, vb.message(user, { type: 'text', text: 'one' }, String(base + 1n))),
      200,
    );
    assert.equal(
      await vb.deliver(hook, vb.message(user, { type: 'text', text: 'two' }, String(base + 2n))),
      200,
    );
    assert.equal((await messagesOf(org, chats[0].id)).length, got.length + 2);
    // The client unsubscribes: marked on their contact.
    assert.equal(
      await vb.deliver(hook, {
        event: 'unsubscribed',
        timestamp: 1,
        user_id: user.id,
        message_token: vb.nextToken(),
      }),
      200,
    );
    const [contact] = await s.db.query<{ opted_out_at: Date | null }>(
      'select opted_out_at from contacts where external_id = $1',
      [user.id],
    );
    assert.ok(contact?.opted_out_at);
  });

  test('replies: send_message with text, a picture by its URL, a keyboard whose press is a postback; statuses; rate limit', async () => {
    const { org, hook } = await connect();
    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    const user = { id: 'u-777=', name: 'Nina' };
    assert.equal(await vb.deliver(hook, vb.message(user, { type: 'text', text: 'Hi' })), 200);
    const chatId = (await chatsOf(org))[0].id;
    const { byId, waitStatus, send, sendRateLimited, botWrites } = await replyTo(s, org, chatId);
    const text = await send({ text: 'Hello Nina' });
    await waitStatus(text, 'sent');
    const sent = vb.sent.at(-1);
    assert.equal(sent?.body.receiver, 'u-777=');
    assert.equal(sent?.body.type, 'text');
    assert.equal(sent?.body.text, 'Hello Nina');
    const delivered = { event: 'delivered', timestamp: 1, user_id: 'u-777=', message_token: sent?.token };
    assert.equal(await vb.deliver(hook, delivered), 200);
    await waitStatus(text, 'delivered');
    assert.equal(await vb.deliver(hook, { ...delivered, event: 'seen' }), 200);
    await waitStatus(text, 'read');

    const key = await s.db.tx((q) =>
      saveFile(s.app, q, org.id, Buffer.from([0xff, 0xd8, 0xff, 1]), 'image/jpeg'),
    );
    const pic = await send({
      text: 'Your receipt',
      attachments: [
        { url: `http://localhost:3000/api/files/${key}`, name: 'r.jpg', contentType: 'image/jpeg' },
      ],
    });
    await waitStatus(pic, 'sent');
    assert.deepEqual(
      { type: vb.sent.at(-1)?.body.type, media: vb.sent.at(-1)?.body.media, text: vb.sent.at(-1)?.body.text },
      { type: 'picture', media: `http://localhost:3000/api/files/${key}`, text: 'Your receipt' },
    );

    // A bot's message with buttons (automation's): a keyboard; the press comes back with our tracking data.
    await botWrites('Pick one', [
      [
        { text: 'Delivery', payload: 'menu:delivery' },
        { text: 'Site', url: 'https://shop.example' },
      ],
    ]);
    await drainOutbox(s.app);
    for (let i = 0; i < 100 && vb.sent.at(-1)?.body.text !== 'Pick one'; i++)
      await new Promise((r) => setTimeout(r, 30));
    const withKeyboard = vb.sent.at(-1)?.body;
    assert.deepEqual((withKeyboard?.keyboard as { Buttons: unknown[] }).Buttons, [
      { Columns: 3, Rows: 1, Text: 'Delivery', ActionType: 'reply', ActionBody: 'menu:delivery' },
      { Columns: 3, Rows: 1, Text: 'Site', ActionType: 'open-url', ActionBody: 'https://shop.example' },
    ]);
    const press = vb.message(user, {
      type: 'text',
      text: 'menu:delivery',
      tracking_data: withKeyboard?.tracking_data,
    });
    assert.equal(await vb.deliver(hook, press), 200);
    const afterPress = (await messagesOf(org, chatId)).map((m: { text: string }) => m.text);
    assert.ok(afterPress.includes('Delivery'), JSON.stringify(afterPress));

    // Rate limited (status 12): pending, sent later; an unsubscribed receiver is final with the reason.
    vb.failNext('send_message', 12, 'tooManyRequests');
    await sendRateLimited({ text: 'Slow' }, 61_000);
    vb.subscribers.delete('u-777=');
    const gone = await send({ text: 'Still there?' });
    await waitStatus(gone, 'undelivered');
    assert.equal(
      (await byId(gone)).statusReason,
      'Viber registration session expired (6: receiverNotSubscribed)',
    );
    // A failed callback for a sent message: Undelivered with Viber's description.
    vb.subscribers.add('u-777=');
    const later = await send({ text: 'Later' });
    await waitStatus(later, 'sent');
    const failed = {
      event: 'failed',
      timestamp: 1,
      user_id: 'u-777=',
      message_token: vb.sent.at(-1)?.token,
      desc: 'user device not supported',
    };
    assert.equal(await vb.deliver(hook, failed), 200);
    await waitStatus(later, 'undelivered');
    assert.equal((await byId(later)).statusReason, 'user device not supported');
  });

  test('conversation_started is answered with the welcome message when the channel has one', async () => {
    const { org, channelId, hook } = await connect();
    const opened = {
      event: 'conversation_started',
      timestamp: 1,
      message_token: vb.nextToken(),
      type: 'open',
      user: { id: 'new-user=', name: 'Oleg' },
      subscribed: false,
    };
    const post = async () => {
      const raw = JSON.stringify(opened).replace(/("message_token":)"(\d+)"/g, '$1$2');
      const { createHmac } = await import('node:crypto');
      const res = await fetch(hook, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-viber-content-signature': createHmac('sha256', vb.token).update(raw).digest('hex'),
        },
        body: raw,
      });
      return {
        status: res.status,
        body: (await res.json()) as { entity?: unknown; sender?: unknown; type?: unknown; text?: unknown },
      };
    };
    const none = await post();
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.entity, { events: [] }, 'no welcome message: our usual answer');
    const set = await org.admin.api.patch(`/api/channels/${channelId}`, {
      welcomeMessage: 'Hi! Ask us anything.',
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.entity.settings.welcomeMessage, 'Hi! Ask us anything.');
    const welcome = await post();
    assert.equal(welcome.status, 200);
    assert.deepEqual(welcome.body, {
      sender: { name: 'Shop Viber' },
      type: 'text',
      text: 'Hi! Ask us anything.',
    });
    assert.equal((await chatsOf(org)).length, 0, 'opening the chat is not a message');
    const unsigned = await vb.deliver(hook, opened, null);
    assert.equal(unsigned, 401, 'the welcome is answered only to Viber');
  });

  test('the photo must be a JPEG by its content and rides as the sender avatar; the welcome message can be cleared', async () => {
    const { org, channelId, hook } = await connect();
    const upload = async (bytes: number[], contentType: string, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: contentType }), name);
      const res = await fetch(`${s.url}/api/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.admin.token}` },
        body: form,
      });
      const json = (await res.json()) as { entity: { url: string } };
      assert.equal(res.status, 200, JSON.stringify(json));
      return json.entity.url;
    };
    const png = await upload(
      [
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0,
        0, 1,
      ],
      'image/png',
      'photo.jpg',
    );
    const refused = await org.admin.api.patch(`/api/channels/${channelId}`, { photo: png });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.fields.photo, 'JPEG only', 'a PNG named .jpg is refused by its content');
    const foreign = await org.admin.api.patch(`/api/channels/${channelId}`, {
      photo: 'https://elsewhere.example/me.jpg',
    });
    assert.equal(foreign.body.error.fields.photo, 'Value specified incorrectly');
    const other = await createOrganisation(s);
    const otherKey = await s.db.tx((q) =>
      saveFile(s.app, q, other.id, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1]), 'image/jpeg'),
    );
    const notOurs = await org.admin.api.patch(`/api/channels/${channelId}`, {
      photo: `/api/files/${otherKey}`,
    });
    assert.equal(notOurs.status, 400, "another organisation's file is not ours to use");
    const jpeg = await upload(
      [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0],
      'image/jpeg',
      'bot.jpg',
    );
    const saved = await org.admin.api.patch(`/api/channels/${channelId}`, { photo: jpeg });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.entity.settings.photo, new URL(jpeg, 'http://x').pathname);

    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    assert.equal(
      await vb.deliver(hook, vb.message({ id: 'ph-1=', name: 'Ivan' }, { type: 'text', text: 'Hi' })),
      200,
    );
    const chatId = (await chatsOf(org))[0].id;
    assert.equal((await org.admin.api.post(`/api/chats/${chatId}/take`)).status, 200);
    assert.equal(
      (await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'Hello Ivan' })).status,
      200,
    );
    await drainOutbox(s.app);
    for (let i = 0; i < 100 && vb.sent.at(-1)?.body.text !== 'Hello Ivan'; i++)
      await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(vb.sent.at(-1)?.body.sender, {
      name: 'Shop Viber',
      avatar: `http://localhost:3000${saved.body.entity.settings.photo}`,
    });
    const removed = await org.admin.api.patch(`/api/channels/${channelId}`, { photo: null });
    assert.equal(removed.body.entity.settings.photo, null);

    // The welcome message: set, then cleared by an empty value (or null).
    const set = await org.admin.api.patch(`/api/channels/${channelId}`, { welcomeMessage: 'Welcome!' });
    assert.equal(set.body.entity.settings.welcomeMessage, 'Welcome!');
    const cleared = await org.admin.api.patch(`/api/channels/${channelId}`, { welcomeMessage: '' });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.equal(cleared.body.entity.settings.welcomeMessage, null);
    await org.admin.api.patch(`/api/channels/${channelId}`, { welcomeMessage: 'Again' });
    const nulled = await org.admin.api.patch(`/api/channels/${channelId}`, { welcomeMessage: null });
    assert.equal(nulled.body.entity.settings.welcomeMessage, null);
    const opened = {
      event: 'conversation_started',
      timestamp: 1,
      message_token: vb.nextToken(),
      type: 'open',
      user: { id: 'again=', name: 'Oleg' },
      subscribed: false,
    };
    assert.equal(await vb.deliver(hook, opened), 200, 'no welcome: our usual answer');
  });
});
