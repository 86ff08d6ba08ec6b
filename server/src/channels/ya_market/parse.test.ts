import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../http/errors.ts';
import { parseLossless } from '../marketplace.ts';
import {
  chatContext,
  chatInfo,
  clientOf,
  historyEvent,
  PENDING_TEXT,
  parseYaMarketPush,
  topicOf,
} from './parse.ts';

// Payloads as docs/providers/yandex-market.md writes them (§2.1 chats, §3.1 history, §6.2 notifications).
const CHAT = '4567';
const orderContext = {
  type: 'ORDER',
  customer: { name: 'Ivan P.', publicId: 'abc123' },
  campaignId: 21000000,
  orderId: 123456789,
};
const buyerMessage = {
  messageId: 1001,
  createdAt: '2025-01-16T10:15:02+03:00',
  sender: 'CUSTOMER',
  message: 'When will you ship?',
};
const raw = (body: unknown) => Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
const refusedWith = (body: unknown) => {
  try {
    parseYaMarketPush(raw(body), '123');
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.code, 'validationException');
    return true;
  }
  return false;
};

describe('Yandex Market parse', () => {
  test('a buyer’s history message is a message of the chat’s named client, about the order', () => {
    const e = historyEvent(CHAT, chatContext.parse(orderContext), buyerMessage);
    assert.deepEqual(e, {
      kind: 'message',
      message: {
        externalMessageId: '4567:1001',
        client: { externalId: CHAT, name: 'Ivan P.' },
        text: 'When will you ship?',
        attachments: [],
        topic: { kind: 'order', id: '123456789', title: '', url: null },
      },
    });
  });

  test('files of the payload are media; a message of files alone has no text', () => {
    const e = historyEvent(CHAT, undefined, {
      messageId: 1002,
      createdAt: '2025-01-16T10:20:40+03:00',
      sender: 'CUSTOMER',
      payload: [{ name: 'photo.jpg', url: 'https://example.net/photo.jpg', size: 183245 }],
    });
    assert.equal(e.kind, 'message');
    if (e.kind !== 'message') return;
    assert.equal(e.message.text, '');
    assert.deepEqual(e.message.media, [
      { ref: 'https://example.net/photo.jpg', name: 'photo.jpg', size: 183245 },
    ]);
    assert.equal(e.message.client.name, 'Yandex Market buyer', 'no context: the stand-in name');
    assert.equal(e.message.topic, undefined);
  });

  test('the shop’s, Market’s and support’s messages are ignored; an empty one says so', () => {
    for (const sender of ['PARTNER', 'MARKET', 'SUPPORT'])
      assert.equal(historyEvent(CHAT, undefined, { ...buyerMessage, sender }).kind, 'ignored', sender);
    const empty = historyEvent(CHAT, undefined, { messageId: 5, sender: 'CUSTOMER' });
    assert.equal(empty.kind === 'message' && empty.message.text, '[Yandex Market: empty message]');
  });

  test('a message of the wrong shape is a visible notice when it names its id, else unreadable', () => {
    const notice = historyEvent(CHAT, undefined, { messageId: 7, sender: 'CUSTOMER', message: 42 });
    assert.equal(notice.kind, 'message');
    if (notice.kind === 'message') assert.match(notice.message.text, /^\[Unreadable Yandex Market update: /);
    assert.equal(historyEvent(CHAT, undefined, { sender: 'CUSTOMER' }).kind, 'unreadable');
  });

  test('order and return chats name their order; a return is titled with its number; DIRECT names none', () => {
    assert.deepEqual(
      topicOf(chatContext.parse({ ...orderContext, type: 'RETURN', orderId: 77, returnId: '88' })),
      {
        kind: 'order',
        id: '77',
        title: 'Return 88',
        url: null,
      },
    );
    assert.equal(topicOf(chatContext.parse({ type: 'DIRECT', customer: { name: 'A' } })), undefined);
    assert.deepEqual(clientOf('9', chatContext.parse({ type: 'DIRECT', customer: { name: '  ' } })), {
      externalId: '9',
      name: 'Yandex Market buyer',
    });
  });

  test('a chat of the list reads with its int64 ids kept whole', () => {
    const text =
      '{"chatId": 9100000000000000001, "context": {"type": "ORDER", "orderId": 9007199254740993}, "status": "NEW"}';
    const chat = chatInfo.parse(parseLossless(text));
    assert.equal(chat.chatId, '9100000000000000001');
    assert.equal(chat.context?.orderId, '9007199254740993');
  });

  test('CHAT_MESSAGE_SENT is a message to be read from Market, its 64-bit chat id whole', () => {
    const [e] = parseYaMarketPush(
      raw(
        '{"notificationType":"CHAT_MESSAGE_SENT","businessId":123,"chatId":9100000000000000001,"messageId":"1001","sentAt":"2025-01-16T10:15:02Z"}',
      ),
      '123',
    );
    assert.equal(e.kind, 'message');
    if (e.kind !== 'message') return;
    assert.equal(e.message.externalMessageId, '9100000000000000001:1001');
    assert.equal(e.message.client.externalId, '9100000000000000001');
    assert.equal(e.message.text, PENDING_TEXT);
  });

  test('PING, new chats, disputes, order events and unknown types are acknowledged and ignored', () => {
    for (const body of [
      { notificationType: 'PING', time: '2025-01-16T10:09:49.759084017Z' },
      { notificationType: 'CHAT_CREATED', businessId: 123, chatId: 4567, createdAt: '2025-01-16T10:09:49Z' },
      {
        notificationType: 'CHAT_ARBITRAGE_STARTED',
        businessId: 123,
        chatId: 4567,
        startedAt: '2025-01-17T09:00:00Z',
      },
      {
        notificationType: 'CHAT_ARBITRAGE_FINISHED',
        businessId: 123,
        chatId: 4567,
        finishedAt: '2025-01-19T12:00:00Z',
      },
      { notificationType: 'ORDER_CREATED', campaignId: 1, orderId: 2 },
      { notificationType: 'SOMETHING_NEW', anything: true },
      // Another cabinet's message at this channel's address.
      { notificationType: 'CHAT_MESSAGE_SENT', businessId: 999, chatId: 1, messageId: '1', sentAt: 'x' },
    ]) {
      const events = parseYaMarketPush(raw(body), '123');
      assert.equal(events.length, 1);
      assert.equal(events[0].kind, 'ignored', JSON.stringify(body));
    }
    const [unknown] = parseYaMarketPush(raw({ notificationType: 'SOMETHING_NEW' }), '123');
    assert.deepEqual(unknown, { kind: 'ignored', what: 'ya_market unknown SOMETHING_NEW' });
  });

  test('malformed notifications are refused (400): not JSON, no type, a chat notification without its fields', () => {
    assert.ok(refusedWith('not json'));
    assert.ok(refusedWith([1, 2]));
    assert.ok(refusedWith({ chatId: 1 }));
    assert.ok(
      refusedWith({ notificationType: 'CHAT_MESSAGE_SENT', businessId: 123, chatId: 1, sentAt: 'x' }),
    );
    assert.ok(
      refusedWith({
        notificationType: 'CHAT_MESSAGE_SENT',
        businessId: 123,
        chatId: 'a',
        messageId: '1',
        sentAt: 'x',
      }),
    );
    assert.ok(refusedWith({ notificationType: 'CHAT_CREATED', businessId: 123 }));
    assert.ok(refusedWith({ notificationType: 'PING' }));
  });
});
