import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { providerDailyLimit } from '../../src/modules/channels/service.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeWhatsApp, startFakeWhatsApp } from '../fakes/whatsapp.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { MEDIA } from '../media-fixtures.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';

/** The WhatsApp channel end to end against a fake Cloud API that follows Meta's documents. */
describe('WhatsApp channel', () => {
  let s: TestServer;
  let wa: FakeWhatsApp;
  before(async () => {
    // The fake's 24-hour window runs on the server's clock.
    const clock = new ManualClock();
    wa = await startFakeWhatsApp({ now: () => clock.now().getTime() });
    s = await startTestServer({ clock, env: { WHATSAPP_API_BASE_URL: wa.baseUrl } });
  });
  after(async () => {
    await s.close();
    await wa.close();
  });

  const fields = () => ({
    phoneNumberId: wa.phoneNumberId,
    wabaId: wa.wabaId,
    accessToken: wa.accessToken,
    appSecret: wa.appSecret,
    verifyToken: 'my-verify-token-1',
  });
  type Setup = { org: TestOrg; channelId: string; hook: string };
  async function connect(): Promise<Setup> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'whatsapp',
      name: `WA ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      ...fields(),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id;
    return { org, channelId, hook: `${s.url}/api/webhooks/whatsapp/${channelId}` };
  }

  test("the phone number's messaging limit tier is the channel's daily limit of different recipients", async () => {
    const { channelId } = await connect();
    assert.equal(await providerDailyLimit(s.app, channelId), 1_000);
    wa.messagingLimitTier = 'TIER_250';
    assert.equal(await providerDailyLimit(s.app, channelId), 250);
    wa.messagingLimitTier = 'TIER_UNLIMITED';
    assert.equal(await providerDailyLimit(s.app, channelId), null);
    wa.messagingLimitTier = 'TIER_1K';
  });

  test('connecting checks the credentials at the phone number endpoint and subscribes the app; errors are ours', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (over: Record<string, unknown>) =>
      org.admin.api.post('/api/channels', { type: 'whatsapp', name: 'W', teamId, ...fields(), ...over });
    const malformed = await post({ phoneNumberId: 'abc', appSecret: '!' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.fields.phoneNumberId, 'Incorrect token/ID specified');
    assert.equal(malformed.body.error.fields.appSecret, 'Incorrect token/ID specified');
    const badToken = await post({ accessToken: 'EAAGwrongwrongwrongwrongwrong' });
    assert.equal(badToken.status, 400);
    assert.equal(badToken.body.error.fields.accessToken, 'Incorrect token/ID specified');
    const badPhone = await post({ phoneNumberId: '999999999' });
    assert.equal(badPhone.status, 400);
    assert.equal(badPhone.body.error.fields.phoneNumberId, 'Incorrect token/ID specified');
    const badWaba = await post({ wabaId: '888888888' });
    assert.equal(badWaba.status, 400);
    assert.equal(badWaba.body.error.fields.wabaId, 'Incorrect token/ID specified');
    wa.failNext(`/${wa.phoneNumberId}`, { status: 500, code: 2, message: 'Service temporarily unavailable' });
    const down = await post({});
    assert.equal(down.status, 502);
    assert.equal(down.body.code, 'channelCreationException');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing stored');

    const { org: org2, channelId } = await connect();
    assert.ok(wa.subscribed.has(wa.wabaId));
    const listed = JSON.stringify((await org2.admin.api.get(`/api/channels/${channelId}`)).body);
    assert.ok(listed.includes(wa.phoneNumberId) && listed.includes('+1 555-010-0200'));
    assert.ok(
      !listed.includes(wa.accessToken) &&
        !listed.includes(wa.appSecret) &&
        !listed.includes('my-verify-token-1'),
    );
  });

  test('the verification GET answers the challenge only with our verify token', async () => {
    const { channelId } = await connect();
    const get = (q: string) => fetch(`${s.url}/api/webhooks/whatsapp/${channelId}?${q}`);
    const ok = await get('hub.mode=subscribe&hub.verify_token=my-verify-token-1&hub.challenge=1158201444');
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), '1158201444');
    assert.equal((await get('hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1')).status, 403);
    assert.equal(
      (await get('hub.mode=unsubscribe&hub.verify_token=my-verify-token-1&hub.challenge=1')).status,
      403,
    );
  });

  test('every POST is checked by X-Hub-Signature-256; a retry never duplicates', async () => {
    const { org, hook } = await connect();
    const msg = wa.message('79001234567', 'text', { text: { body: 'Hello' } });
    const payload = wa.payload({
      contacts: [{ profile: { name: 'Ann Lee' }, wa_id: '79001234567' }],
      messages: [msg],
    });
    assert.equal(await wa.deliver(hook, payload, null), 401);
    assert.equal(await wa.deliver(hook, payload, `sha256=${'0'.repeat(64)}`), 401);
    assert.equal(await wa.deliver(hook, payload, 'sha1=abc'), 401);
    assert.equal((await chatsOf(org)).length, 0, 'nothing stored');
    assert.equal(await wa.deliver(hook, payload), 200);
    assert.equal(await wa.deliver(hook, payload), 200, 'a retry is answered too');
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1);
    assert.equal(chats[0].client.name, 'Ann Lee');
    assert.equal(chats[0].client.externalId, '79001234567');
    assert.deepEqual(
      (await messagesOf(org, chats[0].id)).map((m: { text: string }) => m.text),
      ['Hello'],
    );
    // A payload of another phone number of the same WABA is not this channel's.
    const other = wa.payload({ messages: [wa.message('79001234567', 'text', { text: { body: 'x' } })] });
    (other.entry as { changes: { value: { metadata: { phone_number_id: string } } }[] }[])[0]!
      .changes[0]!.value.metadata.phone_number_id = '1';
    assert.equal(await wa.deliver(hook, other), 200);
    assert.equal((await messagesOf(org, chats[0].id)).length, 1);
  });

  test('every message type: media fetched into our storage, the rest as text, odd kinds as visible notices', async () => {
    const { org, hook } = await connect();
    const from = '79005550000';
    const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 9]);
    // Bytes that are what they claim: received files are kept under the type their content shows.
    const { ogg, mp4, webp } = MEDIA;
    const m = (type: string, body: Record<string, unknown>) => wa.message(from, type, body);
    const messages = [
      m('text', { text: { body: 'plain' } }),
      m('image', {
        image: { id: wa.addMedia(jpg, 'image/jpeg'), mime_type: 'image/jpeg', caption: 'my photo' },
      }),
      m('document', {
        document: {
          id: wa.addMedia(pdf, 'application/pdf'),
          mime_type: 'application/pdf',
          filename: 'invoice.pdf',
        },
      }),
      m('audio', {
        audio: {
          id: wa.addMedia(ogg, 'audio/ogg; codecs=opus'),
          mime_type: 'audio/ogg; codecs=opus',
          voice: true,
        },
      }),
      m('video', { video: { id: wa.addMedia(mp4, 'video/mp4'), mime_type: 'video/mp4' } }),
      m('sticker', {
        sticker: { id: wa.addMedia(webp, 'image/webp'), mime_type: 'image/webp', animated: false },
      }),
      m('location', {
        location: { latitude: 55.75, longitude: 37.61, name: 'Office', address: 'Tverskaya 1' },
      }),
      m('contacts', {
        contacts: [
          { name: { formatted_name: 'Bob Roe' }, phones: [{ phone: '+7 900 111', wa_id: '7900111' }] },
        ],
      }),
      m('interactive', {
        interactive: { type: 'button_reply', button_reply: { id: 'yes-1', title: 'Yes' } },
      }),
      m('interactive', {
        interactive: { type: 'list_reply', list_reply: { id: 'row-2', title: 'Delivery', description: 'd' } },
      }),
      m('button', { button: { payload: 'STOP_PROMO', text: 'Stop promotions' } }),
      m('reaction', { reaction: { message_id: 'wamid.X', emoji: '👍' } }),
      m('unsupported', {
        errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown' }],
      }),
    ];
    assert.equal(await wa.deliver(hook, wa.payload({ messages })), 200);
    const chat = (await chatsOf(org))[0];
    const got = await messagesOf(org, chat.id);
    const texts = got.map((x: { text: string }) => x.text);
    assert.deepEqual(texts, [
      'plain',
      'my photo',
      '',
      '',
      '',
      '',
      '📍 55.75, 37.61\nOffice\nTverskaya 1',
      '👤 Bob Roe +7 900 111',
      'Yes',
      'Delivery',
      'Stop promotions',
      '[WhatsApp: reaction 👍]',
      '[WhatsApp: unsupported (131051: Message type unknown)]',
    ]);
    const files = got
      .slice(1, 6)
      .map((x: { attachments: { url: string; name: string; contentType: string }[] }) => x.attachments[0]);
    assert.deepEqual(
      files.map((f: { name: string; contentType: string }) => [f.name, f.contentType]),
      [
        ['image.jpg', 'image/jpeg'],
        ['invoice.pdf', 'application/pdf'],
        ['voice.ogg', 'audio/ogg'],
        ['video.mp4', 'video/mp4'],
        ['sticker.webp', 'image/webp'],
      ],
    );
    for (const [i, bytes] of [jpg, pdf, ogg, mp4, webp].entries()) {
      const res = await fetch(s.url + files[i].url);
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), bytes);
    }
    // The media URL is fetched with the access token: every download carried it (the fake refuses otherwise).
    assert.equal(wa.requests.filter((r) => r.path.startsWith('/download/')).length, 5);
    // A retry of the whole batch downloads nothing again and stores nothing twice.
    const downloads = wa.requests.length;
    assert.equal(await wa.deliver(hook, wa.payload({ messages })), 200);
    assert.equal((await messagesOf(org, chat.id)).length, messages.length);
    assert.equal(wa.requests.slice(downloads).filter((r) => r.path.startsWith('/download/')).length, 0);
    // Media the provider cannot give now refuses the webhook (Meta retries); nothing stored.
    const later = wa.message(from, 'image', {
      image: { id: wa.addMedia(jpg, 'image/jpeg'), mime_type: 'image/jpeg' },
    });
    wa.failNext(`/${(later.image as { id: string }).id}`, {
      status: 500,
      code: 2,
      message: 'Service temporarily unavailable',
    });
    assert.equal(await wa.deliver(hook, wa.payload({ messages: [later] })), 503);
    assert.equal((await messagesOf(org, chat.id)).length, messages.length);
    assert.equal(await wa.deliver(hook, wa.payload({ messages: [later] })), 200);
    assert.equal((await messagesOf(org, chat.id)).length, messages.length + 1);
  });

  test('edits change the original, revokes store nothing, a number change is a notice and the contact follows it, orders list their items', async () => {
    const { org, hook } = await connect();
    const from = '79005551111';
    const first = wa.message(from, 'text', { text: { body: 'Deliver on Monday' } });
    const photo = wa.message(from, 'image', {
      image: {
        id: wa.addMedia(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 7]), 'image/jpeg'),
        caption: 'Old caption',
      },
    });
    assert.equal(await wa.deliver(hook, wa.payload({ messages: [first, photo] })), 200);
    const chat = (await chatsOf(org))[0];
    const texts = async () => (await messagesOf(org, chat.id)).map((x: { text: string }) => x.text);

    // Edits, as WhatsApp sends them: the new content under `edit.message`, naming the original.
    const edit = (original: string, message: Record<string, unknown>) =>
      wa.message(from, 'edit', { edit: { original_message_id: original, message } });
    const edits = [
      edit(first.id as string, { type: 'text', text: { body: 'Deliver on Tuesday' } }),
      edit(photo.id as string, {
        context: { id: photo.id },
        type: 'image',
        image: { caption: 'New caption', mime_type: 'image/jpeg', id: (photo.image as { id: string }).id },
      }),
      // The client deleted the first message: nothing is stored.
      wa.message(from, 'revoke', { revoke: { original_message_id: first.id } }),
    ];
    assert.equal(await wa.deliver(hook, wa.payload({ messages: edits })), 200);
    assert.deepEqual(await texts(), ['Deliver on Tuesday', 'New caption']);
    const edited = (await messagesOf(org, chat.id)) as { kind: string; editedAt: string | null }[];
    assert.ok(edited.every((m) => m.editedAt !== null));
    // Sent again (a retry): still the same two messages.
    assert.equal(await wa.deliver(hook, wa.payload({ messages: edits })), 200);
    assert.deepEqual(await texts(), ['Deliver on Tuesday', 'New caption']);

    // An order from the catalog: its items and the client's note.
    const order = wa.message(from, 'order', {
      order: {
        catalog_id: 'cat-1',
        text: 'Gift wrap please',
        product_items: [
          { product_retailer_id: 'SKU-1', quantity: 2, item_price: 10.5, currency: 'EUR' },
          { product_retailer_id: 'SKU-2', quantity: '1', item_price: '3', currency: 'EUR' },
        ],
      },
    });
    // The number change: WhatsApp's words as a notice; the next message from the new number is the same client's.
    const changed = wa.message(from, 'system', {
      system: {
        body: 'Ann changed from 79005551111 to 79005552222',
        new_wa_id: '79005552222',
        type: 'user_changed_number',
      },
    });
    assert.equal(await wa.deliver(hook, wa.payload({ messages: [order, changed] })), 200);
    assert.deepEqual((await texts()).slice(2), [
      '[WhatsApp: order of 2 items]\n• SKU-1 × 2, 10.5 EUR\n• SKU-2 × 1, 3 EUR\nGift wrap please',
      '[WhatsApp: Ann changed from 79005551111 to 79005552222]',
    ]);
    const fromNew = wa.message('79005552222', 'text', { text: { body: 'It is me, new number' } });
    assert.equal(await wa.deliver(hook, wa.payload({ messages: [fromNew] })), 200);
    assert.equal((await chatsOf(org)).length, 1, 'no second chat for the new number');
    assert.equal((await texts()).at(-1), 'It is me, new number');
    // Replies go to the new number.
    const { send, waitStatus } = await replyTo(s, org, chat.id);
    await waitStatus(await send({ text: 'Noted' }), 'sent');
    assert.equal(wa.sent.at(-1)?.body.to, '79005552222');
  });

  test('replies: text and media out, statuses sent/delivered/read/failed, rate limits retried later, the 24-hour rule', async () => {
    const { org, hook } = await connect();
    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    const to = '79007770000';
    assert.equal(
      await wa.deliver(hook, wa.payload({ messages: [wa.message(to, 'text', { text: { body: 'Hi' } })] })),
      200,
    );
    const chatId = (await chatsOf(org))[0].id;
    const { byId, waitStatus, send, sendRateLimited } = await replyTo(s, org, chatId);

    const text = await send({ text: 'Your order shipped' });
    await waitStatus(text, 'sent');
    const first = wa.sent.at(-1);
    assert.deepEqual(first?.body, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'text',
      text: { body: 'Your order shipped', preview_url: false },
    });
    const wamid = first?.wamid as string;
    assert.equal(await wa.deliver(hook, wa.payload({ statuses: [wa.status(wamid, 'delivered')] })), 200);
    await waitStatus(text, 'delivered');
    assert.equal(await wa.deliver(hook, wa.payload({ statuses: [wa.status(wamid, 'read')] })), 200);
    await waitStatus(text, 'read');
    assert.equal(await wa.deliver(hook, wa.payload({ statuses: [wa.status(wamid, 'delivered')] })), 200);
    assert.equal((await byId(text)).status, 'read', 'a late report never moves it back');

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
    const up = wa.uploads.at(-1);
    assert.deepEqual([...(up?.bytes ?? [])], [0xff, 0xd8, 0xff, 9, 9]);
    assert.equal(up?.type, 'image/jpeg');
    assert.deepEqual(wa.sent.at(-1)?.body.image, { id: up?.id, caption: 'See' });

    // A message the provider accepted and then failed is Undelivered with its reason.
    const doomed = await send({ text: 'will fail' });
    await waitStatus(doomed, 'sent');
    const failed = wa.status(wa.sent.at(-1)?.wamid as string, 'failed', [
      {
        code: 131026,
        title: 'Message undeliverable',
        message: 'Message undeliverable',
        error_data: { details: 'Receiver is incapable of receiving this message' },
      },
    ]);
    assert.equal(await wa.deliver(hook, wa.payload({ statuses: [failed] })), 200);
    await waitStatus(doomed, 'undelivered');
    assert.equal(
      (await byId(doomed)).statusReason,
      '131026: Message undeliverable: Receiver is incapable of receiving this message',
    );

    // Rate limited (130429): stays pending and is sent again later.
    wa.failNext('/messages', {
      status: 400,
      code: 130429,
      message: 'Rate limit hit',
      details: 'Cloud API message throughput has been reached.',
    });
    await sendRateLimited({ text: 'Slow down' }, 61_000);
    wa.failNext('/messages', { status: 429, code: 80007, message: 'Rate limit' });
    await sendRateLimited({ text: 'Slow down again' }, 61_000);

    // The 24-hour window: the chat's last client message was more than 24 hours ago -> refused, shown, not stored.
    s.clock.advance(24 * 3600_000);
    const late = await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'Still there?' });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'sessionEndedException');
    assert.equal(late.body.error.message, '24-hour session ended');
    assert.ok(late.body.error.details.closedAt);
    const note = await org.admin.api.post(`/api/chats/${chatId}/messages`, {
      text: 'internal ok',
      internal: true,
    });
    assert.equal(note.status, 200, 'internal notes are not messages to the client');
    // WhatsApp cannot change a message the client has: editing a reply is refused, a note stays editable.
    const reply = (await messagesOf(org, chatId)).find(
      (m: { direction: string; internal: boolean; author: { id: string } | null }) =>
        m.direction === 'out' && !m.internal && m.author?.id === org.admin.id,
    );
    assert.ok(reply, 'an earlier reply of the administrator');
    const refused = await org.admin.api.patch(`/api/chats/${chatId}/messages/${reply.id}`, {
      text: 'Changed',
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'messageEditUnsupportedException');
    const noteEdit = await org.admin.api.patch(`/api/chats/${chatId}/messages/${note.body.entity.id}`, {
      text: 'internal edited',
    });
    assert.equal(noteEdit.status, 200);
    // The client writes again: the window opens again.
    assert.equal(
      await wa.deliver(hook, wa.payload({ messages: [wa.message(to, 'text', { text: { body: 'Back' } })] })),
      200,
    );
    await waitStatus(await send({ text: 'Welcome back' }), 'sent');

    // The provider refuses for its own window (131047): Undelivered with the reason, never swallowed, not retried.
    s.clock.advance(23 * 3600_000);
    const racing = await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'Close call' });
    assert.equal(racing.status, 200);
    s.clock.advance(2 * 3600_000);
    const sentBefore = wa.sent.length;
    await drainOutbox(s.app);
    await waitStatus(racing.body.entity.id, 'undelivered');
    assert.match((await byId(racing.body.entity.id)).statusReason, /^24-hour session ended \(131047: /);
    s.clock.advance(3600_000);
    await drainOutbox(s.app);
    assert.equal(wa.sent.length, sentBefore, 'not retried');
  });

  test('templates: the approved Russian and English templates of the WABA, read page by page', async () => {
    const { org } = await connect();
    wa.templates.length = 0;
    for (let i = 0; i < 130; i++)
      wa.templates.push({
        id: String(5000 + i),
        name: `order_${i}`,
        language: i % 3 === 0 ? 'ru' : i % 3 === 1 ? 'en_US' : 'de',
        status: i === 4 ? 'REJECTED' : 'APPROVED',
        category: 'UTILITY',
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
          { type: 'BODY', text: 'Hello {{1}}, your order {{2}} shipped' },
          { type: 'FOOTER', text: 'Shop' },
          {
            type: 'BUTTONS',
            buttons: [
              { type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}' },
              { type: 'QUICK_REPLY', text: 'Thanks' },
            ],
          },
        ],
      });
    const res = await org.admin.api.get('/api/whatsapp-templates');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const items = res.body.entity.items;
    // 130 templates: 44 Russian, 43 English (one of them rejected), 43 German.
    assert.equal(items.length, 44 + 42);
    assert.ok(wa.requests.filter((r) => r.path.endsWith('/message_templates')).length >= 2, 'paged');
    const first = items.find((t: { name: string }) => t.name === 'order_0');
    assert.deepEqual(first, {
      id: '5000',
      channelId: first.channelId,
      name: 'order_0',
      languageCode: 'ru',
      type: 'UTILITY',
      registeredAt: null,
      header: 'Order {{1}}',
      text: 'Hello {{1}}, your order {{2}} shipped',
      footer: 'Shop',
      buttons: [
        { type: 'URL', action: 'Track', link: 'https://shop.example/t/{{1}}' },
        { type: 'QUICK_REPLY', action: 'Thanks', link: null },
      ],
      language: 'rus',
    });
    // Another organisation sees none of them.
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.get('/api/whatsapp-templates')).body.entity.total, 0);
  });

  test('after the 24-hour session only a registered template can be sent, with its variables', async () => {
    const { org, hook } = await connect();
    wa.templates.length = 0;
    wa.templates.push({
      id: '7001',
      name: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hello {{1}}, your order {{2}} is ready' }],
    });
    const to = '79001112233';
    assert.equal(
      await wa.deliver(hook, wa.payload({ messages: [wa.message(to, 'text', { text: { body: 'Hi' } })] })),
      200,
    );
    const [chat] = await chatsOf(org);
    // A Cloud API channel has templates: the chat says so (the composer offers them).
    assert.equal(chat.channel.templates, true);
    const chatId = chat.id;
    assert.equal((await org.admin.api.post(`/api/chats/${chatId}/take`)).status, 200);
    s.clock.advance(25 * 3600_000);
    assert.equal(
      (await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'Hi?' })).body.code,
      'sessionEndedException',
    );

    const listed = await org.admin.api.get(`/api/chats/${chatId}/provider-templates`);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.entity.items.map((t: { id: string }) => t.id),
      ['7001'],
    );
    const missing = await org.admin.api.post(`/api/chats/${chatId}/template-messages`, {
      templateId: '7001',
      variables: ['Ann'],
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.fields.variables, 'Please fill in all required fields');
    const unknown = await org.admin.api.post(`/api/chats/${chatId}/template-messages`, {
      templateId: '1',
      variables: [],
    });
    assert.equal(unknown.body.code, 'templateNotFoundException');

    const res = await org.admin.api.post(`/api/chats/${chatId}/template-messages`, {
      templateId: '7001',
      variables: ['Ann', 'A-42'],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.entity.text, 'Hello Ann, your order A-42 is ready');
    await drainOutbox(s.app);
    const statusOf = async () =>
      (await messagesOf(org, chatId)).find((m: { id: string }) => m.id === res.body.entity.id);
    for (let i = 0; i < 100 && (await statusOf()).status === 'pending'; i++)
      await new Promise((r) => setTimeout(r, 30));
    const sent = wa.sent.at(-1)?.body;
    assert.deepEqual(sent?.template, {
      name: 'order_update',
      language: { code: 'en_US' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ann' },
            { type: 'text', text: 'A-42' },
          ],
        },
      ],
    });
    assert.equal((await statusOf()).status, 'sent');
    // Someone who does not see the chat sees none of its templates.
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.get(`/api/chats/${chatId}/provider-templates`)).status, 404);
  });
});
