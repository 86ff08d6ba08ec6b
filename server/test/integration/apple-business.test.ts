import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeAppleBusiness, startFakeAppleBusiness } from '../fakes/apple-business.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { makeTeam } from './chats-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

/** Apple Messages for Business end to end against a fake MSP gateway that follows docs/providers/apple-business.md. */
describe('Apple Messages for Business channel', () => {
  let s: TestServer;
  let ap: FakeAppleBusiness;
  before(async () => {
    ap = await startFakeAppleBusiness();
    s = await startTestServer({ env: { APPLE_BUSINESS_API_BASE_URL: ap.baseUrl } });
  });
  after(async () => {
    await s.close();
    await ap.close();
  });

  type Setup = { org: TestOrg; channelId: string; hook: string };
  async function connect(): Promise<Setup> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'apple_business_chat',
      name: `Apple ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      businessId: ap.businessId,
      mspId: ap.mspId,
      secret: ap.secret,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id as string;
    return { org, channelId, hook: `${s.url}/api/webhooks/apple_business_chat/${channelId}` };
  }

  test('connecting checks the credentials with the gateway; refused or malformed ones are field errors', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (over: Record<string, unknown>) =>
      org.admin.api.post('/api/channels', {
        type: 'apple_business_chat',
        name: 'A',
        teamId,
        businessId: ap.businessId,
        mspId: ap.mspId,
        secret: ap.secret,
        ...over,
      });
    const wrong = await post({ secret: Buffer.from('not the secret').toString('base64') });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error.fields.secret, 'Incorrect token/ID specified');
    assert.equal(wrong.body.error.fields.mspId, 'Incorrect token/ID specified');
    const notBase64 = await post({ secret: 'не base64!' });
    assert.equal(notBase64.status, 400);
    assert.equal(notBase64.body.error.fields.secret, 'Incorrect token/ID specified');
    const empty = await post({ businessId: '' });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error.fields.businessId, 'Incorrect token/ID specified');
    ap.failNext('/preUpload', { status: 503 });
    const down = await post({});
    assert.equal(down.status, 502);
    assert.equal(down.body.code, 'channelCreationException');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing stored');

    const { org: org2, channelId } = await connect();
    const shown = (await org2.admin.api.get(`/api/channels/${channelId}`)).body;
    const text = JSON.stringify(shown);
    assert.ok(text.includes(ap.businessId) && text.includes(ap.mspId));
    assert.ok(!text.includes(ap.secret), 'the secret is never shown');
    assert.equal(shown.entity.inboundUrl, `/api/webhooks/apple_business_chat/${channelId}`);
    // Another business on an edited channel is refused: its clients are another business's.
    const other = await org2.admin.api.patch(`/api/channels/${channelId}`, {
      businessId: 'another-business',
    });
    assert.equal(other.status, 400);
    assert.equal(other.body.error.fields.businessId, 'Token not from current bot');
  });

  test('inbound: signed gzip messages are stored once; a bad JWT or business is 401; a malformed body 400; typing a signal; close a notice', async () => {
    const { org, hook } = await connect();
    const customer = 'urn:mbid:AQAAY2hlbnRlc3QtY3VzdG9tZXI';
    const hello = ap.text(customer, 'Hello, is my order ready?');
    assert.equal(
      await ap.deliver(hook, hello, { jwt: ap.inboundJwt(Buffer.from('other').toString('base64')) }),
      401,
    );
    assert.equal(await ap.deliver(hook, hello, { jwt: 'not.a.jwt' }), 401);
    assert.equal(await ap.deliver(hook, hello, { headers: { 'destination-id': 'someone-else' } }), 401);
    assert.equal((await chatsOf(org)).length, 0, 'nothing stored');
    assert.equal(await ap.deliver(hook, hello), 200);
    assert.equal(await ap.deliver(hook, hello), 200, 'a redelivery is answered');
    assert.equal(await ap.deliver(hook, hello, { gzip: false }), 200, 'plain JSON is read too');
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1);
    assert.equal(chats[0].client.name, 'Apple client urn:mbid');
    assert.deepEqual(
      (await messagesOf(org, chats[0].id)).map((m: { text: string }) => m.text),
      ['Hello, is my order ready?'],
    );
    // Malformed: refused with 400, nothing stored.
    assert.equal(await ap.deliver(hook, hello, { raw: Buffer.from([0x1f, 0x8b, 1, 2, 3]) }), 400);
    assert.equal(await ap.deliver(hook, { type: 'text', body: 'no id' }), 400);
    assert.equal(
      await ap.deliver(hook, { id: 'x1', type: 'text', body: 'no sender' }, { headers: { 'source-id': '' } }),
      400,
    );
    // The client typing is a signal to who sees the chat; typing and unknown types store nothing.
    const watching = await RealtimeClient.connect(s.url, org.admin.token);
    try {
      assert.equal(await ap.deliver(hook, ap.event(customer, 'typing_start')), 200);
      await watching.waitFor((f) => f.some((x) => x.type === 'chat.typing'));
      assert.deepEqual(watching.frames.find((f) => f.type === 'chat.typing')?.payload, {
        chatId: chats[0].id,
        by: 'client',
      });
    } finally {
      watching.close();
    }
    // An operator writing a reply: the client's device shows it (a typing_start message to the gateway).
    const typed = await org.admin.api.post(`/api/chats/${chats[0].id}/typing`);
    assert.equal(typed.status, 200, JSON.stringify(typed.body));
    for (let i = 0; i < 100 && !ap.sent.some((m) => m.body.type === 'typing_start'); i++)
      await new Promise((r) => setTimeout(r, 50));
    const typing = ap.sent.find((m) => m.body.type === 'typing_start');
    assert.equal(typing?.body.destinationId, customer, 'typing_start sent to the client');
    assert.equal(typing?.body.body, undefined, 'no text');
    assert.equal(await ap.deliver(hook, ap.event(customer, 'typing_end')), 200);
    assert.equal(await ap.deliver(hook, ap.event(customer, 'someFutureType')), 200);
    assert.equal((await messagesOf(org, chats[0].id)).length, 1);
    // An encrypted attachment is fetched (preDownload), decrypted and kept.
    const pdf = Buffer.from('%PDF-1.4\n% a customer receipt\n%%EOF\n');
    const file = ap.addFile(pdf, 'receipt.pdf', 'application/pdf');
    assert.equal(await ap.deliver(hook, ap.text(customer, 'Here it is \uFFFC', [file])), 200);
    const withFile = (await messagesOf(org, chats[0].id)).at(-1);
    assert.equal(withFile.text, 'Here it is');
    assert.equal(withFile.attachments.length, 1);
    assert.equal(withFile.attachments[0].name, 'receipt.pdf');
    const got = await fetch(new URL(withFile.attachments[0].url, s.url), {
      headers: { authorization: `Bearer ${org.admin.api.token}` },
    });
    assert.equal(got.status, 200);
    assert.equal(Buffer.from(await got.arrayBuffer()).toString('utf8'), pdf.toString('utf8'), 'decrypted');
    // The client closes the conversation: a visible notice.
    assert.equal(await ap.deliver(hook, ap.event(customer, 'close')), 200);
    assert.equal(
      (await messagesOf(org, chats[0].id)).at(-1).text,
      '[Apple: the client closed the conversation]',
    );
  });

  test('outbound: text, an encrypted file, bot buttons as a list picker whose reply is a postback; a 429 waits for Retry-After', async () => {
    const { org, hook } = await connect();
    const customer = 'urn:mbid:AQAAY2hlbnRlc3QtcmVwbGllcw';
    assert.equal(await ap.deliver(hook, ap.text(customer, 'Hi')), 200);
    const chatId = (await chatsOf(org))[0].id;
    const { waitStatus, send, sendRateLimited, botWrites, byId } = await replyTo(s, org, chatId);

    const text = await send({ text: 'Your order is on its way' });
    await waitStatus(text, 'sent');
    const last = ap.sent.at(-1);
    assert.equal(last?.body.type, 'text');
    assert.equal(last?.body.body, 'Your order is on its way');
    assert.equal(last?.body.destinationId, customer);

    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const key = await s.db.tx((q) => saveFile(s.app, q, org.id, bytes, 'image/png'));
    const pic = await send({
      text: 'The label',
      attachments: [
        { url: `http://localhost:3000/api/files/${key}`, name: 'label.png', contentType: 'image/png' },
      ],
    });
    await waitStatus(pic, 'sent');
    const withFile = ap.sent.at(-1);
    assert.equal(withFile?.body.body, 'The label\n\uFFFC');
    assert.equal(withFile?.files.length, 1);
    assert.deepEqual([...(withFile?.files[0]?.bytes ?? [])], [...bytes], 'the customer decrypts our bytes');
    assert.equal(withFile?.files[0]?.mimeType, 'image/png');

    await botWrites('How can we help?', [
      [
        { text: 'Track my order', payload: 'order:track' },
        { text: 'Our site', url: 'https://shop.example/help' },
      ],
      [{ text: 'Cancel', payload: 'order:cancel' }],
    ]);
    await drainOutbox(s.app);
    for (let i = 0; i < 100 && ap.sent.at(-1)?.body.type !== 'interactive'; i++)
      await new Promise((r) => setTimeout(r, 30));
    const [intro, picker] = ap.sent.slice(-2);
    assert.equal(intro?.body.body, 'How can we help?\nOur site: https://shop.example/help');
    assert.equal(intro?.headers['auto-reply'], 'true', 'a bot says so');
    const data = (picker?.body.interactiveData ?? {}) as Record<string, Record<string, unknown>>;
    assert.equal(
      data.bid as unknown,
      'com.apple.messages.MSMessageExtensionBalloonPlugin:0000000000:com.apple.icloud.apps.messages.business.extension',
    );
    assert.deepEqual(
      (
        data.data?.listPicker as { sections: { items: { identifier: string; title: string }[] }[] }
      ).sections[0]?.items.map((i) => [i.identifier, i.title]),
      [
        ['order:track', 'Track my order'],
        ['order:cancel', 'Cancel'],
      ],
    );
    // The customer picks "Cancel": stored with the label they saw, once.
    const reply = ap.listPickerReply(customer, [{ identifier: 'order:cancel', title: 'Cancel' }]);
    assert.equal(await ap.deliver(hook, reply), 200);
    assert.equal(await ap.deliver(hook, reply), 200);
    const afterPress = await messagesOf(org, chatId);
    const presses = afterPress.filter((m: { text: string; direction: string }) => m.text === 'Cancel');
    assert.equal(presses.length, 1, 'stored once with the label the customer saw');
    assert.equal(presses[0].direction, 'in');

    // Rate limited: pending, sent after Retry-After, once.
    const before = ap.sent.length;
    ap.failNext('/message', { status: 429, retryAfter: '30' });
    const slow = await sendRateLimited({ text: 'Slow down' }, 31_000);
    assert.equal((await byId(slow)).status, 'sent');
    assert.equal(ap.sent.length, before + 1);
  });

  test('a 5xx mid-delivery is retried without doubling the part Apple already took', async () => {
    const { org, hook } = await connect();
    const customer = 'urn:mbid:AQAAY2hlbnRlc3QtcmV0cmllcw';
    assert.equal(await ap.deliver(hook, ap.text(customer, 'Hi')), 200);
    const chatId = (await chatsOf(org))[0].id;
    const { botWrites } = await replyTo(s, org, chatId);
    const sentBefore = ap.sent.length;
    const callsBefore = ap.calls.length;
    // The text part goes through; the list picker part is refused with 503 once.
    ap.failNext('/message', { status: 503 }, 1, 1);
    await botWrites('Pick', [[{ text: 'Yes', payload: 'yes' }]]);
    await drainOutbox(s.app);
    for (let i = 0; i < 200 && ap.sent.length < sentBefore + 2; i++) {
      s.clock.advance(60_000);
      await drainOutbox(s.app);
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(ap.sent.length, sentBefore + 2, 'each part accepted once');
    assert.deepEqual(
      ap.calls.slice(callsBefore).map((c) => `${c.path} ${c.status}`),
      ['/v1/message 200', '/v1/message 503', '/v1/message 200', '/v1/message 200'],
      'text, refused picker, text again under its id (not recorded twice), picker',
    );
    assert.equal(ap.sent.at(-2)?.body.body, 'Pick');
    assert.equal(ap.sent.at(-1)?.body.type, 'interactive');
  });
});
