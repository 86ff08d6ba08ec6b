import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { ButtonRows } from '@smartconnect/contracts';
import { sendTelegram } from '../../src/channels/telegram/send.ts';
import type { OutboundMessage } from '../../src/channels/types.ts';
import { AppError } from '../../src/http/errors.ts';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { adapterContext } from '../../src/modules/channels/service.ts';
import { sendButtonsMessage } from '../../src/modules/conversation/send-buttons.ts';
import { type FakeTelegram, startFakeTelegram, type TgMessage } from '../fakes/telegram.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

/** Buttons end to end: stored with the message, sent as Telegram's inline keyboard, a press coming back. */
describe('Telegram buttons', () => {
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

  const buttons: ButtonRows = [
    [
      { text: 'Track my order', payload: 'order:track' },
      { text: 'Cancel 🚫', payload: 'order:cancel' },
    ],
    [{ text: 'Our site', url: 'https://shop.example/help' }],
  ];
  const keyboard = {
    inline_keyboard: [
      [
        { text: 'Track my order', callback_data: 'order:track' },
        { text: 'Cancel 🚫', callback_data: 'order:cancel' },
      ],
      [{ text: 'Our site', url: 'https://shop.example/help' }],
    ],
  };

  /** A Telegram channel of a new organisation and a chat opened by a client's message. */
  async function chatWithClient(clientId: number) {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'telegram',
      name: 'Bot',
      teamId,
      token: tg.token,
      updatesVia: 'webhook',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id as string;
    const hook = `${s.url}/api/webhooks/telegram/${channelId}`;
    const secret = tg.webhook?.secretToken;
    assert.ok(secret);
    assert.equal(
      await tg.deliver(tg.updates.text({ id: clientId, first_name: 'Di' }, 'Hi'), hook, secret),
      200,
    );
    const chatId = (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items[0].id as string;
    const bot = { kind: 'bot' as const, botId: randomUUID(), organisationId: org.id };
    return { org, chatId, hook, secret, bot };
  }
  const messagesOf = async (org: TestOrg, chatId: string) =>
    (await org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items as {
      id: string;
      text: string;
      direction: string;
      status: string | null;
      buttons?: ButtonRows | null;
    }[];
  async function delivered(org: TestOrg, chatId: string, id: string) {
    await drainOutbox(s.app);
    for (let i = 0; i < 100; i++) {
      const m = (await messagesOf(org, chatId)).find((x) => x.id === id);
      if (m?.status === 'sent') return m;
      await new Promise((r) => setTimeout(r, 30));
    }
    assert.fail('the message was not sent');
  }

  test('a message with buttons is stored, shown in the API and sent with the exact inline_keyboard; a press comes back with the label', async () => {
    const { org, chatId, hook, secret, bot } = await chatWithClient(1201);
    const before = tg.requests.length;
    const m = await sendButtonsMessage(s.app, bot, chatId, { text: 'How can we help?', buttons });
    assert.deepEqual(m.buttons, buttons);
    assert.equal(m.author, null, 'automation writes without an author');
    const stored = await delivered(org, chatId, m.id);
    assert.deepEqual(stored.buttons, buttons, 'MessageDto carries the rows');
    const inbound = (await messagesOf(org, chatId)).find((x) => x.direction === 'in');
    assert.equal(inbound?.buttons, null, 'none: null');

    const calls = tg.requests.slice(before);
    assert.deepEqual(
      calls.map((r) => r.method),
      ['sendMessage'],
    );
    assert.equal(calls[0].params.text, 'How can we help?');
    assert.deepEqual(calls[0].params.reply_markup, keyboard);
    const sent = tg.sent.at(-1) as TgMessage;
    assert.deepEqual(sent.reply_markup, keyboard, 'the fake accepted and echoed it');

    // The client presses "Cancel 🚫" on that very message.
    const press = tg.updates.callback({ id: 1201, first_name: 'Di' }, 'order:cancel', sent);
    assert.equal(await tg.deliver(press, hook, secret), 200);
    const after = await messagesOf(org, chatId);
    const pressed = after.at(-1);
    assert.equal(pressed?.direction, 'in');
    assert.equal(pressed?.text, 'Cancel 🚫', 'stored with the label the client saw');
    assert.equal(tg.expect.called('answerCallbackQuery').params.callback_query_id, press.callback_query?.id);
    // A redelivery of the same press stores nothing more.
    assert.equal(await tg.deliver(press, hook, secret), 200);
    assert.equal((await messagesOf(org, chatId)).length, after.length);

    // A press whose keyboard Telegram no longer tells (an old message): the label of our button with that payload.
    const { reply_markup: _gone, ...bare } = sent;
    assert.equal(await tg.deliver(tg.updates.callback({ id: 1201 }, 'order:track', bare), hook, secret), 200);
    assert.equal((await messagesOf(org, chatId)).at(-1)?.text, 'Track my order');
    // A payload none of our buttons carries stays as it came.
    assert.equal(await tg.deliver(tg.updates.callback({ id: 1201 }, 'order:other', bare), hook, secret), 200);
    assert.equal((await messagesOf(org, chatId)).at(-1)?.text, 'order:other');
    tg.assertNoUnexpected();
  });

  test('a text split past 4096 carries the keyboard on its last part only', async () => {
    const { org, chatId, bot } = await chatWithClient(1202);
    const text = `${'a'.repeat(4000)}\n${'b'.repeat(3000)}\n${'c'.repeat(2000)}`;
    const before = tg.requests.length;
    const m = await sendButtonsMessage(s.app, bot, chatId, { text, buttons });
    await delivered(org, chatId, m.id);
    const parts = tg.requests.slice(before).filter((r) => r.method === 'sendMessage');
    assert.equal(parts.length, 3);
    assert.equal(parts.map((p) => String(p.params.text)).join('\n'), text);
    assert.deepEqual(
      parts.map((p) => p.params.reply_markup),
      [undefined, undefined, keyboard],
    );
    tg.assertNoUnexpected();
  });

  test('buttons our schema refuses (a payload over 64 bytes, a javascript: link) are refused before anything is stored or sent', async () => {
    const { org, chatId, bot } = await chatWithClient(1203);
    const count = (await messagesOf(org, chatId)).length;
    const before = tg.requests.length;
    const refused = async (input: unknown) => {
      await assert.rejects(
        sendButtonsMessage(s.app, bot, chatId, input),
        (err: unknown) => err instanceof AppError && err.code === 'validationException',
      );
    };
    await refused({ text: 'Pick', buttons: [[{ text: 'Long', payload: 'é'.repeat(33) }]] });
    await refused({ text: 'Pick', buttons: [[{ text: 'Long', payload: 'x'.repeat(65) }]] });
    await refused({ text: 'Pick', buttons: [[{ text: 'Link', url: 'javascript:alert(1)' }]] });
    await refused({ text: 'Pick', buttons: [[{ text: 'Both', payload: 'x', url: 'https://shop.example' }]] });
    await refused({ text: ' ', buttons });
    await refused({ text: 'Pick', buttons: [] });
    await drainOutbox(s.app);
    assert.equal((await messagesOf(org, chatId)).length, count, 'nothing stored');
    assert.equal(tg.requests.length, before, 'no Bot API call');
  });

  test('with an attachment the keyboard rides on the last call; an edit of a one-part text keeps it', async () => {
    const ctx = adapterContext(s.app);
    const channel = {
      id: randomUUID(),
      organisationId: randomUUID(),
      inboundKeyHash: null,
      settings: {},
      secrets: { token: tg.token },
    };
    const message = (over: Partial<OutboundMessage>): OutboundMessage => ({
      deliveryId: randomUUID(),
      event: 'message.created',
      id: randomUUID(),
      chatId: randomUUID(),
      client: { externalId: '1204' },
      text: 'See the photo',
      attachments: [{ url: 'https://files.example/p.jpg', name: 'p.jpg', contentType: 'image/jpeg' }],
      buttons,
      createdAt: new Date().toISOString(),
      editedAt: null,
      externalId: null,
      ...over,
    });
    const markup = (r: { params: Record<string, unknown> }) =>
      typeof r.params.reply_markup === 'string' ? JSON.parse(r.params.reply_markup) : r.params.reply_markup;

    // A short text is the photo's caption: the photo's call carries the keyboard (JSON-serialised in multipart).
    let before = tg.requests.length;
    const sent = await sendTelegram(ctx, channel, message({}));
    assert.ok(sent.ok, JSON.stringify(sent));
    let calls = tg.requests.slice(before);
    assert.deepEqual(
      calls.map((r) => [r.method, r.params.caption, markup(r)]),
      [['sendPhoto', 'See the photo', keyboard]],
    );

    // A text too long for a caption follows the photo: only its message has the keyboard.
    before = tg.requests.length;
    assert.ok((await sendTelegram(ctx, channel, message({ text: 'x'.repeat(2000) }))).ok);
    calls = tg.requests.slice(before);
    assert.deepEqual(
      calls.map((r) => [r.method, markup(r)]),
      [
        ['sendPhoto', undefined],
        ['sendMessage', keyboard],
      ],
    );

    // An edit without reply_markup would drop the keyboard at Telegram: a one-part text message sends it again.
    const first = await sendTelegram(ctx, channel, message({ attachments: [], text: 'Pick one' }));
    assert.ok(first.ok && first.externalId);
    const edit = message({
      event: 'message.updated',
      attachments: [],
      text: 'Pick one, please',
      externalId: first.externalId,
    });
    assert.ok((await sendTelegram(ctx, channel, edit)).ok);
    const edited = tg.expect.called('editMessageText');
    assert.deepEqual(markup(edited), keyboard);
    assert.deepEqual(
      tg.sent.find((m) => `${m.chat.id}:${m.message_id}` === first.externalId)?.reply_markup,
      keyboard,
    );
    tg.assertNoUnexpected();
  });

  test('the API channel webhook payload carries the buttons', async () => {
    const bodies: Record<string, unknown>[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        bodies.push(JSON.parse(body));
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const org = await createOrganisation(s);
      const teamId = await makeTeam(org);
      const ch = await makeChannel(org, teamId, { webhookUrl: `http://127.0.0.1:${port}/hook` });
      const chatId = (await inbound(s, ch, { client: 'c-1' })).body.entity.chatId;
      const bot = { kind: 'bot' as const, botId: randomUUID(), organisationId: org.id };
      const m = await sendButtonsMessage(s.app, bot, chatId, { text: 'Choose', buttons });
      await delivered(org, chatId, m.id);
      assert.equal(bodies.length, 1);
      assert.equal(bodies[0].messageId, m.id);
      assert.deepEqual(bodies[0].buttons, buttons);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
