import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseLossless } from './api.ts';
import { contentOf, historyEvent, isAfter, isBuyerChat, parseOzonPush, senderOf } from './parse.ts';

// Items and payloads as docs/providers/ozon.md writes them (§3 history, §6.2 pushes).
const CHAT = 'b646d975-0c9c-4872-9f41-8b1e57181063';
const historyItem = {
  message_id: '3000000000817031942',
  user: { id: '115568', type: 'Customer' },
  created_at: '2022-07-18T20:58:04.528Z',
  is_read: true,
  is_image: false,
  data: ['Hello, a question about the "protective glass" item'],
  context: { order_number: '24219509-0020', sku: '147451959' },
  moderate_image_status: 'SUCCESS',
};
const newMessagePush = {
  message_type: 'TYPE_NEW_MESSAGE',
  chat_id: CHAT,
  chat_type: 'Buyer_Seller',
  message_id: '3000000000817031942',
  created_at: '2022-07-18T20:58:04.528Z',
  user: { id: '115568', type: 'Customer' },
  data: ['Message text'],
  seller_id: '7',
};

describe('Ozon parse', () => {
  test('a buyer’s history item is a message of the chat’s client, about the order', () => {
    const [e] = [historyEvent(CHAT, historyItem)];
    assert.equal(e.kind, 'message');
    if (e.kind !== 'message') return;
    assert.deepEqual(e.message, {
      externalMessageId: `${CHAT}:3000000000817031942`,
      client: { externalId: CHAT, name: 'Ozon buyer 115568' },
      text: 'Hello, a question about the "protective glass" item',
      attachments: [],
      topic: { kind: 'order', id: '24219509-0020', title: '', url: null },
    });
  });

  test('the seller’s, system and notification messages are ignored; the Cyrillic С of Ozon’s examples is read', () => {
    for (const type of ['Seller', 'Crm', 'NotificationUser', 'Support', 'Courier'])
      assert.equal(historyEvent(CHAT, { ...historyItem, user: { id: '1', type } }).kind, 'ignored', type);
    assert.equal(senderOf('Сustomer'), 'customer');
    assert.equal(historyEvent(CHAT, { ...historyItem, user: { id: '1', type: 'Сustomer' } }).kind, 'message');
  });

  test('a product without an order is the topic; numeric ids are read as strings', () => {
    const e = historyEvent(CHAT, {
      ...historyItem,
      message_id: 42,
      context: { order_number: '', sku: 147451959 },
    });
    assert.equal(e.kind, 'message');
    if (e.kind !== 'message') return;
    assert.equal(e.message.externalMessageId, `${CHAT}:42`);
    assert.deepEqual(e.message.topic, {
      kind: 'listing',
      id: '147451959',
      title: '',
      url: 'https://www.ozon.ru/product/147451959/',
    });
  });

  test('an item of the wrong shape is a visible notice when it names its id, else unreadable', () => {
    const notice = historyEvent(CHAT, { message_id: '5', user: { id: 1 }, data: 'x' });
    assert.equal(notice.kind, 'message');
    if (notice.kind === 'message') assert.match(notice.message.text, /^\[Unreadable Ozon update: /);
    assert.equal(historyEvent(CHAT, { nothing: true }).kind, 'unreadable');
  });

  test('Markdown links and images are files; an image message’s bare URL is its image', () => {
    assert.deepEqual(contentOf(['See [invoice.pdf](https://cdn.ozon.ru/f/abc) please'], false), {
      text: 'See please',
      media: [{ ref: 'https://cdn.ozon.ru/f/abc', name: 'invoice.pdf' }],
    });
    assert.deepEqual(contentOf(['![](https://cdn.ozon.ru/img/p.png)'], false), {
      text: '',
      media: [{ ref: 'https://cdn.ozon.ru/img/p.png', name: 'p.png' }],
    });
    assert.deepEqual(contentOf(['https://cdn.ozon.ru/img/123'], true), {
      text: '',
      media: [{ ref: 'https://cdn.ozon.ru/img/123', name: 'image.jpg' }],
    });
    assert.deepEqual(contentOf([], false), { text: '[Ozon: empty message]', media: [] });
  });

  test('buyer chat types in either casing; 64-bit ids compare and parse without rounding', () => {
    assert.ok(isBuyerChat('BUYER_SELLER') && isBuyerChat('Buyer_Seller_Select'));
    assert.ok(!isBuyerChat('SELLER_SUPPORT') && !isBuyerChat(undefined));
    assert.ok(isAfter('3000000000817031943', '3000000000817031942'));
    assert.ok(!isAfter('3000000000817031942', '3000000000817031942'));
    assert.ok(isAfter('1', undefined));
    const parsed = parseLossless(
      '{"message_id": 3000000000817031942, "limit": 5, "x": [{"last_message_id":3000000000118032001}]}',
    );
    assert.deepEqual(parsed, {
      message_id: '3000000000817031942',
      limit: 5,
      x: [{ last_message_id: '3000000000118032001' }],
    });
  });

  test('pushes: a buyer’s new message and edit; pings, read marks, closed chats and other types are ignored', () => {
    const [msg] = parseOzonPush(newMessagePush);
    assert.equal(msg.kind, 'message');
    if (msg.kind === 'message') {
      assert.equal(msg.message.externalMessageId, `${CHAT}:3000000000817031942`);
      assert.equal(msg.message.text, 'Message text');
    }
    const [edit] = parseOzonPush({
      ...newMessagePush,
      message_type: 'TYPE_UPDATE_MESSAGE',
      updated_at: '2022-07-18T20:59:04.528Z',
      data: ['Edited text'],
    });
    assert.equal(edit.kind, 'edit');
    for (const body of [
      { message_type: 'TYPE_PING', time: '2019-08-24T14:15:22Z' },
      { ...newMessagePush, message_type: 'TYPE_MESSAGE_READ', last_read_message_id: '3000000000817031942' },
      {
        message_type: 'TYPE_CHAT_CLOSED',
        chat_id: CHAT,
        chat_type: 'Buyer_Seller',
        user: newMessagePush.user,
      },
      { ...newMessagePush, chat_type: 'Seller_Support' },
      { ...newMessagePush, user: { id: '1', type: 'Support' } },
      { message_type: 'TYPE_NEW_POSTING', posting_number: '24219509-0020-1' },
    ])
      assert.equal(parseOzonPush(body)[0].kind, 'ignored', JSON.stringify(body));
    assert.equal(parseOzonPush('nonsense')[0].kind, 'unreadable');
  });
});
