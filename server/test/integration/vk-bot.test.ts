import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeVk, startFakeVk } from '../fakes/vk.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { MEDIA } from '../media-fixtures.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { botNode, publishedBotForNewChats } from './bot-fixtures.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';

/** The VK community bot channel end to end against a fake VK API and Callback API that follow VK's documents. */
describe('VK community bot channel', () => {
  let s: TestServer;
  let vk: FakeVk;
  before(async () => {
    vk = await startFakeVk();
    // The fake's own per-second limit (error 6) would make a fast database's bursts wait a minute for their retry:
    // the rate-limit answers are tested by name below (failNext).
    vk.perSecond = 1_000;
    s = await startTestServer({ env: { VK_API_BASE_URL: vk.baseUrl } });
  });
  after(async () => {
    await s.close();
    await vk.close();
  });

  const body = (over: Record<string, unknown> = {}) => ({
    type: 'vk_bot',
    name: `VK ${Math.random().toString(36).slice(2, 8)}`,
    groupId: String(vk.groupId),
    token: vk.token,
    secret: vk.secret,
    confirmation: vk.confirmation,
    ...over,
  });
  async function connect(): Promise<{ org: TestOrg; channelId: string; hook: string }> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', body({ teamId }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id;
    return { org, channelId, hook: `${s.url}/api/webhooks/vk_bot/${channelId}` };
  }

  test('connecting checks the community token (groups.getById, its rights); a refused one is on its field', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (over: Record<string, unknown>) =>
      org.admin.api.post('/api/channels', body({ teamId, ...over }));
    const malformed = await post({ token: 'short' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.fields.token, 'Incorrect token/ID specified');
    const refused = await post({ token: `vk1.a.${'0'.repeat(80)}` });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.fields.token, 'Incorrect token/ID specified');
    const otherGroup = await post({ groupId: '1' });
    assert.equal(otherGroup.status, 400);
    assert.equal(otherGroup.body.error.fields.groupId, 'Incorrect token/ID specified');
    vk.mask = 4;
    const noMessages = await post({});
    vk.mask = 4096 | 4 | 131072;
    assert.equal(noMessages.status, 400);
    assert.equal(noMessages.body.error.fields.token, 'Incorrect token/ID specified');
    const noSecret = await post({ secret: '' });
    assert.equal(noSecret.status, 400);
    assert.ok(noSecret.body.error.fields.secret);
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing kept');

    const { org: org2, channelId } = await connect();
    const getById = vk.calls.filter((c) => c.method === 'groups.getById').at(-1);
    assert.equal(getById?.params.v, '5.199');
    assert.equal(getById?.params.group_id, String(vk.groupId));
    const shown = JSON.stringify((await org2.admin.api.get(`/api/channels/${channelId}`)).body);
    assert.ok(shown.includes('Shop VK') && shown.includes(vk.confirmation));
    assert.ok(!shown.includes(vk.token) && !shown.includes(vk.secret), 'secrets are never shown');
    // Editing: a new confirmation string alone keeps the token and secret; a refused new token changes nothing.
    const edited = await org2.admin.api.patch(`/api/channels/${channelId}`, { confirmation: 'ff00ff00' });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.entity.settings.confirmation, 'ff00ff00');
    const badToken = await org2.admin.api.patch(`/api/channels/${channelId}`, {
      token: `vk1.a.${'1'.repeat(80)}`,
    });
    assert.equal(badToken.status, 400);
    assert.equal(badToken.body.error.fields.token, 'Incorrect token/ID specified');
    // §8 'token not from current bot': another community's valid token, or the channel moved to another community.
    for (const change of [
      { token: vk.otherToken },
      { token: vk.otherToken, groupId: String(vk.groupId + 1) },
    ]) {
      const other = await org2.admin.api.patch(`/api/channels/${channelId}`, change);
      assert.equal(other.status, 400, JSON.stringify(change));
      assert.equal(other.body.code, 'tokenNotFromCurrentBotException');
      assert.deepEqual(other.body.error.fields, { token: 'Token not from current bot' });
    }
    const still = JSON.stringify((await org2.admin.api.get(`/api/channels/${channelId}`)).body);
    assert.ok(still.includes('Shop VK') && !still.includes('Other VK'));
    // The community's own token again is fine.
    assert.equal((await org2.admin.api.patch(`/api/channels/${channelId}`, { token: vk.token })).status, 200);
    const hook = `${s.url}/api/webhooks/vk_bot/${channelId}`;
    assert.deepEqual(await vk.deliver(hook, { type: 'confirmation' }), { status: 200, text: 'ff00ff00' });
    // Deactivated: VK's events are refused (it retries them later), nothing stored.
    assert.equal(
      (await org2.admin.api.patch(`/api/channels/${channelId}`, { status: 'inactive' })).status,
      200,
    );
    assert.equal((await vk.deliver(hook, vk.messageNew(42, { text: 'x' }))).status, 409);
  });

  test('Callback API: confirmation answered with the string; secret and group id checked; ok after commit; duplicates', async () => {
    const { org, hook } = await connect();
    const confirm = await vk.deliver(hook, { type: 'confirmation', secret: undefined });
    assert.deepEqual(confirm, { status: 200, text: vk.confirmation });
    const wrongGroupConfirm = await vk.deliver(hook, {
      type: 'confirmation',
      group_id: 1,
      secret: undefined,
    });
    assert.equal(wrongGroupConfirm.status, 401);

    const hello = vk.messageNew(501, { text: 'Hello' });
    assert.equal((await vk.deliver(hook, { ...hello, secret: 'wrong' })).status, 401);
    assert.equal((await vk.deliver(hook, { ...hello, secret: undefined })).status, 401);
    assert.equal((await vk.deliver(hook, { ...hello, group_id: vk.groupId + 1 })).status, 401);
    assert.equal((await chatsOf(org)).length, 0, 'nothing stored');
    const eventId = 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2';
    assert.deepEqual(await vk.deliver(hook, { ...hello, event_id: eventId }), { status: 200, text: 'ok' });
    assert.deepEqual(await vk.deliver(hook, { ...hello, event_id: eventId }), { status: 200, text: 'ok' });
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1);
    assert.equal((await messagesOf(org, chats[0].id)).length, 1, 'a repeated event_id changes nothing');
  });

  test('every message type: text, photo, doc, audio message, sticker, keyboard payload, odd ones; echo ignored; deny', async () => {
    const { org, hook } = await connect();
    const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 4, 4]);
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 1]);
    // Bytes that are what they claim: received files are kept under the type their content shows.
    const { ogg, png } = MEDIA;
    const small = vk.addMedia(new Uint8Array([1]), 'image/jpeg');
    const events = [
      vk.messageNew(777, { text: 'Hi there' }),
      vk.messageNew(777, {
        text: 'my receipt',
        attachments: [
          {
            type: 'photo',
            photo: {
              id: 457_239_017,
              owner_id: 777,
              sizes: [
                { type: 's', url: small, width: 75, height: 56 },
                { type: 'x', url: vk.addMedia(jpg, 'image/jpeg'), width: 604, height: 453 },
              ],
            },
          },
        ],
      }),
      vk.messageNew(777, {
        attachments: [
          {
            type: 'doc',
            doc: {
              id: 1,
              owner_id: 777,
              title: 'order',
              ext: 'pdf',
              size: 5,
              url: vk.addMedia(pdf, 'application/octet-stream'),
            },
          },
        ],
      }),
      vk.messageNew(777, {
        attachments: [
          {
            type: 'audio_message',
            audio_message: {
              id: 2,
              owner_id: 777,
              duration: 3,
              link_ogg: vk.addMedia(ogg, 'audio/ogg'),
              link_mp3: small,
            },
          },
        ],
      }),
      vk.messageNew(777, {
        attachments: [
          {
            type: 'sticker',
            sticker: {
              product_id: 1,
              sticker_id: 9,
              images: [{ url: vk.addMedia(png, 'image/png'), width: 128, height: 128 }],
            },
          },
        ],
      }),
      vk.messageNew(777, { text: '', attachments: [{ type: 'wall', wall: { id: 1 } }] }),
      vk.messageNew(777, { text: 'Delivery', payload: JSON.stringify({ sc: 'menu:delivery' }) }),
    ];
    for (const e of events) assert.deepEqual(await vk.deliver(hook, e), { status: 200, text: 'ok' });
    // An echo of a message we did not send and a user allowing messages store nothing; a group chat message is not a dialog.
    const echo = {
      type: 'message_reply',
      object: { id: 9999, from_id: -vk.groupId, peer_id: 777, text: 'x', out: 1 },
    };
    assert.deepEqual(await vk.deliver(hook, echo), { status: 200, text: 'ok' });
    assert.equal(
      (await vk.deliver(hook, { type: 'message_allow', object: { user_id: 777, key: '' } })).text,
      'ok',
    );
    const inGroupChat = vk.messageNew(777, { text: 'in a group chat', peer_id: 2_000_000_001 });
    assert.equal((await vk.deliver(hook, inGroupChat)).text, 'ok');
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1);
    assert.equal(chats[0].client.name, 'id777');
    const got = await messagesOf(org, chats[0].id);
    assert.deepEqual(
      got.map((m: { text: string }) => m.text),
      ['Hi there', 'my receipt', '', '', '', '[VK: wall]', 'Delivery'],
    );
    const files = got
      .slice(1, 5)
      .map((m: { attachments: { url: string; name: string; contentType: string }[] }) => m.attachments[0]);
    assert.deepEqual(
      files.map((f: { name: string; contentType: string }) => [f.name, f.contentType]),
      [
        ['photo.jpg', 'image/jpeg'],
        ['order.pdf', 'application/pdf'],
        ['voice.ogg', 'audio/ogg'],
        ['sticker.png', 'image/png'],
      ],
    );
    for (const [i, bytes] of [jpg, pdf, ogg, png].entries()) {
      const res = await fetch(s.url + files[i].url);
      assert.deepEqual(
        new Uint8Array(await res.arrayBuffer()),
        bytes,
        'the largest size, copied into our storage',
      );
    }
    // message_deny: the client is marked as opted out.
    assert.equal((await vk.deliver(hook, { type: 'message_deny', object: { user_id: 777 } })).text, 'ok');
    const [contact] = await s.db.query<{ opted_out_at: Date | null }>(
      'select opted_out_at from contacts where external_id = $1',
      ['777'],
    );
    assert.ok(contact?.opted_out_at);
  });

  test('replies: messages.send with random_id, photo and doc through the upload servers, a keyboard; VK errors', async () => {
    const { org, hook } = await connect();
    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    assert.equal((await vk.deliver(hook, vk.messageNew(888, { text: 'Hi' }))).text, 'ok');
    const chatId = (await chatsOf(org))[0].id;
    const { byId, waitStatus, send, sendRateLimited, botWrites } = await replyTo(s, org, chatId);
    // The operator writing a reply: the client sees "typing…" (messages.setActivity).
    assert.equal((await org.admin.api.post(`/api/chats/${chatId}/typing`)).status, 200);
    for (let i = 0; i < 100 && !vk.calls.some((c) => c.method === 'messages.setActivity'); i++)
      await new Promise((r) => setTimeout(r, 30));
    const activity = vk.calls.find((c) => c.method === 'messages.setActivity');
    assert.equal(activity?.params.peer_id, '888');
    assert.equal(activity?.params.type, 'typing');
    assert.equal(activity?.params.group_id, String(vk.groupId));
    const text = await send({ text: 'Hello from the shop' });
    await waitStatus(text, 'sent');
    const sent = vk.sent.at(-1);
    assert.equal(sent?.params.peer_id, '888');
    assert.equal(sent?.params.message, 'Hello from the shop');
    // VK's echo of our message (message_reply) puts it in the dialog: Delivered; message_read: Read.
    const echo = {
      type: 'message_reply',
      object: { id: sent?.id, from_id: -vk.groupId, peer_id: 888, out: 1, text: 'Hello from the shop' },
    };
    assert.equal((await vk.deliver(hook, echo)).text, 'ok');
    await waitStatus(text, 'delivered');
    const read = { type: 'message_read', object: { from_id: 888, peer_id: 888, read_message_id: sent?.id } };
    assert.equal((await vk.deliver(hook, read)).text, 'ok');
    await waitStatus(text, 'read');
    assert.match(sent?.params.random_id ?? '', /^\d+$/);
    // The same message sent again (a retry after a lost answer) uses the same random_id: VK shows it once.
    const { randomIdOf } = await import('../../src/channels/vk_bot/send.ts');
    assert.equal(sent?.params.random_id, String(randomIdOf(text, 0)));
    // A delivery retried after a lost answer repeats the call: VK (the fake) answers the first id, shows nothing new.
    const count = vk.sent.length;
    const { deliveryChannel, adapterContext } = await import('../../src/modules/channels/service.ts');
    const [{ channel_id: channelId }] = await s.db.query<{ channel_id: string }>(
      'select channel_id from chats where id = $1',
      [chatId],
    );
    const target = await deliveryChannel(s.app, channelId);
    assert.ok(target);
    const again = await target.adapter.send(adapterContext(s.app), target.channel, {
      deliveryId: 'x',
      event: 'message.created',
      id: text,
      chatId,
      client: { externalId: '888' },
      text: 'Hello from the shop',
      attachments: [],
      buttons: [],
      createdAt: new Date().toISOString(),
      editedAt: null,
      externalId: null,
    });
    assert.deepEqual(again, { ok: true, externalId: String(sent?.id) });
    assert.equal(vk.sent.length, count);

    const jpg = Buffer.from([0xff, 0xd8, 0xff, 1, 2]);
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 9]);
    const jpgKey = await s.db.tx((q) => saveFile(s.app, q, org.id, jpg, 'image/jpeg'));
    const pdfKey = await s.db.tx((q) => saveFile(s.app, q, org.id, pdf, 'application/pdf'));
    const withFiles = await send({
      text: 'Your receipt',
      attachments: [
        { url: `http://localhost:3000/api/files/${jpgKey}`, name: 'r.jpg', contentType: 'image/jpeg' },
        {
          url: `http://localhost:3000/api/files/${pdfKey}`,
          name: 'invoice.pdf',
          contentType: 'application/pdf',
        },
      ],
    });
    await waitStatus(withFiles, 'sent');
    const att = (vk.sent.at(-1)?.params.attachment ?? '').split(',');
    assert.equal(att.length, 2);
    assert.match(att[0] ?? '', new RegExp(`^photo-${vk.groupId}_\\d+$`));
    assert.match(att[1] ?? '', new RegExp(`^doc-${vk.groupId}_\\d+$`));
    assert.deepEqual(vk.uploads.get(att[0] ?? '')?.bytes, jpg);
    assert.deepEqual(vk.uploads.get(att[1] ?? '')?.bytes, pdf);
    assert.equal(vk.uploads.get(att[1] ?? '')?.name, 'invoice.pdf');
    assert.equal(vk.sent.at(-1)?.params.message, 'Your receipt');

    // A bot's buttons: an inline keyboard; a press comes back with our payload as a postback.
    await botWrites('Pick one', [
      [
        { text: 'Delivery', payload: 'menu:delivery' },
        { text: 'Site', url: 'https://shop.example' },
      ],
    ]);
    for (let i = 0; i < 100 && vk.sent.at(-1)?.params.message !== 'Pick one'; i++) {
      await drainOutbox(s.app);
      await new Promise((r) => setTimeout(r, 100));
    }
    const keyboard = JSON.parse(vk.sent.at(-1)?.params.keyboard ?? '{}');
    assert.deepEqual(keyboard, {
      inline: true,
      buttons: [
        [
          {
            action: { type: 'text', label: 'Delivery', payload: '{"sc":"menu:delivery"}' },
            color: 'secondary',
          },
          { action: { type: 'open_link', label: 'Site', link: 'https://shop.example' } },
        ],
      ],
    });
    const press = vk.messageNew(888, { text: 'Delivery', payload: '{"sc":"menu:delivery"}' });
    assert.equal((await vk.deliver(hook, press)).text, 'ok');
    assert.ok((await messagesOf(org, chatId)).some((m: { text: string }) => m.text === 'Delivery'));

    // Rate limits (6, 9, 29) are retried later; 5 is final; 901 is Undelivered with the reason.
    for (const code of [6, 9, 29]) {
      vk.failNext('messages.send', code, code === 9 ? 'Flood control' : 'Too many requests per second');
      await sendRateLimited({ text: `Slow ${code}` }, 61_000);
    }
    const before = vk.sent.length;
    vk.failNext('messages.send', 5, 'User authorization failed: invalid access_token (4).');
    const auth = await send({ text: 'Auth' });
    await waitStatus(auth, 'undelivered');
    assert.match((await byId(auth)).statusReason, /^5: User authorization failed/);
    vk.allowed.delete(888);
    const denied = await send({ text: 'Still there?' });
    await waitStatus(denied, 'undelivered');
    assert.equal((await byId(denied)).statusReason, "901: Can't send messages for users without permission");
    assert.equal(vk.sent.length, before, 'nothing else delivered');
  });

  test('client names come from users.get, asked once per client; a failed lookup keeps the stand-in', async () => {
    const { org, hook } = await connect();
    vk.users.set(555001, { first_name: 'Ivan', last_name: 'Petrov' });
    const lookups = () => vk.calls.filter((c) => c.method === 'users.get').length;
    const before = lookups();
    assert.equal((await vk.deliver(hook, vk.messageNew(555001, { text: 'Hi' }))).status, 200);
    assert.equal((await vk.deliver(hook, vk.messageNew(555001, { text: 'Again' }))).status, 200);
    assert.equal(lookups() - before, 1, 'cached');
    assert.equal(vk.calls.filter((c) => c.method === 'users.get').at(-1)?.params.user_ids, '555001');
    vk.failNext('users.get', 10, 'Internal server error');
    assert.equal((await vk.deliver(hook, vk.messageNew(555002, { text: 'Who am I?' }))).status, 200);
    const chats = (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items;
    assert.deepEqual(chats.map((c: { client: { name: string } }) => c.client.name).sort(), [
      'Ivan Petrov',
      'id555002',
    ]);
  });

  test("a chat bot's buttons: an inline keyboard up to VK's 6 rows; a node with more goes as numbered text", async () => {
    const { org, hook } = await connect();
    const many = Array.from({ length: 8 }, (_, i) => ({ id: `m${i}`, text: `Option ${i + 1}`, next: 'few' }));
    await publishedBotForNewChats(s, org, [
      botNode('many', { root: true, reply: { text: 'Pick one', fileId: null }, buttons: many }),
      botNode('few', {
        reply: { text: 'Now pick again', fileId: null },
        buttons: [
          { id: 'f1', text: 'Yes', next: 'many' },
          { id: 'f2', text: 'No', next: 'many' },
        ],
      }),
    ]);
    const sent = () => vk.sent.filter((m) => m.params.message);
    const before = sent().length;
    assert.equal((await vk.deliver(hook, vk.messageNew(9001, { text: 'Hi' }))).status, 200);
    const wait = async (n: number) => {
      for (let i = 0; i < 100 && sent().length < before + n; i++) {
        await drainOutbox(s.app);
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(sent().length, before + n, JSON.stringify(vk.calls.slice(-3)));
      return sent().at(-1)?.params ?? {};
    };
    const first = await wait(1);
    assert.equal(first.keyboard, undefined, 'no keyboard: 8 rows do not fit');
    assert.match(first.message, /^Pick one\n\n1\. Option 1\n2\. Option 2\n[\s\S]*8\. Option 8$/);
    // A number answers; the next node's two buttons fit: an inline keyboard.
    assert.equal((await vk.deliver(hook, vk.messageNew(9001, { text: '8' }))).status, 200);
    const second = await wait(2);
    assert.equal(second.message, 'Now pick again');
    const keyboard = JSON.parse(second.keyboard ?? '{}');
    assert.equal(keyboard.inline, true);
    assert.deepEqual(
      keyboard.buttons.map((row: { action: { label: string } }[]) => row.map((b) => b.action.label)),
      [['Yes'], ['No']],
    );
  });
});
