import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawRequest } from '../types.ts';
import { parseTelegram } from './parse.ts';

/** An update as Telegram posts it (Bot API, Update and Message objects). */
const req = (body: unknown): RawRequest => ({
  headers: {},
  query: {},
  rawBody: Buffer.from(JSON.stringify(body)),
  body,
});
const chat = { id: 501, type: 'private', first_name: 'Ann' };
const from = { id: 501, is_bot: false, first_name: 'Ann' };

test('a venue keeps its coordinates, title and address; a plain location its coordinates', () => {
  const venue = parseTelegram(
    req({
      update_id: 1,
      message: {
        message_id: 10,
        from,
        chat,
        date: 1_700_000_000,
        location: { latitude: 55.7539, longitude: 37.6208 },
        venue: {
          location: { latitude: 55.7539, longitude: 37.6208 },
          title: 'Red Square',
          address: 'Moscow, 109012',
          foursquare_id: '4b0588ebf964a52002e022e3',
        },
      },
    }),
  );
  assert.equal(venue.length, 1);
  assert.equal(venue[0]?.kind, 'message');
  assert.equal(
    venue[0]?.kind === 'message' && venue[0].message.text,
    '📍 55.7539, 37.6208\nRed Square\nMoscow, 109012',
  );
  const location = parseTelegram(
    req({
      update_id: 2,
      message: {
        message_id: 11,
        from,
        chat,
        date: 1_700_000_000,
        location: { latitude: 1.5, longitude: -2 },
      },
    }),
  );
  assert.equal(location[0]?.kind === 'message' && location[0].message.text, '📍 1.5, -2');
});

test("a button press shows the button's label from the message's keyboard, the payload stays the data", () => {
  const [pressed] = parseTelegram(
    req({
      update_id: 3,
      callback_query: {
        id: '4382bfdwdsb323b2d9',
        from,
        chat_instance: '-123',
        data: 'ORDER_STATUS',
        message: {
          message_id: 12,
          from: { id: 42, is_bot: true, first_name: 'Shop bot' },
          chat,
          date: 1_700_000_000,
          text: 'How can we help?',
          reply_markup: {
            inline_keyboard: [
              [{ text: 'Where is my order?', callback_data: 'ORDER_STATUS' }],
              [{ text: 'Our site', url: 'https://example.com' }],
            ],
          },
        },
      },
    }),
  );
  assert.equal(pressed?.kind, 'postback');
  if (pressed?.kind !== 'postback') return;
  assert.equal(pressed.data, 'ORDER_STATUS');
  assert.equal(pressed.message.text, 'Where is my order?');
});

test('updates of other kinds are ignored by name (logged once per kind), group messages give nothing', () => {
  assert.deepEqual(
    parseTelegram(
      req({ update_id: 4, channel_post: { message_id: 1, chat: { id: -100, type: 'channel' }, date: 1 } }),
    ),
    [{ kind: 'ignored', what: 'channel_post' }],
  );
  assert.deepEqual(parseTelegram(req({ update_id: 5, poll: { id: 'p', question: 'Q?', options: [] } })), [
    { kind: 'ignored', what: 'poll' },
  ]);
  assert.deepEqual(
    parseTelegram(
      req({ update_id: 6, message: { message_id: 2, chat: { id: -5, type: 'group' }, date: 1, text: 'hi' } }),
    ),
    [],
  );
});
