import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseVkEvent } from './parse.ts';

// Community events as VK's documents describe them (https://dev.vk.com/ru/api/community-events/json-schema): the same
// objects come posted to the Callback API or listed by the Bots Long Poll API's `updates`.
const GROUP = 218123456;
const event = (type: string, object: unknown) => ({
  group_id: GROUP,
  type,
  event_id: 'c5a8e0ff5b7d2a4fd8e1c0e1b1d3f3d5f0e2b3a1',
  v: '5.199',
  object,
});
const message = (fields: Record<string, unknown>) => ({
  date: 1_732_700_000,
  from_id: 123456,
  id: 98,
  out: 0,
  version: 10_000_098,
  attachments: [],
  conversation_message_id: 12,
  fwd_messages: [],
  important: false,
  is_hidden: false,
  peer_id: 123456,
  random_id: 0,
  text: '',
  ...fields,
});
const clientInfo = {
  button_actions: ['text', 'vkpay', 'open_app', 'location', 'open_link', 'callback', 'intent_subscribe'],
  keyboard: true,
  inline_keyboard: true,
  carousel: true,
  lang_id: 0,
};

test('message_new: text with a photo (largest size), a doc named with its extension, a voice message', () => {
  const [e] = parseVkEvent(
    event('message_new', {
      message: message({
        text: 'Is this in stock?',
        attachments: [
          {
            type: 'photo',
            photo: {
              id: 457239017,
              owner_id: 123456,
              sizes: [
                { type: 's', url: 'https://sun9-1.userapi.com/s.jpg', width: 75, height: 56 },
                { type: 'w', url: 'https://sun9-1.userapi.com/w.jpg', width: 1280, height: 960 },
                { type: 'm', url: 'https://sun9-1.userapi.com/m.jpg', width: 130, height: 97 },
              ],
            },
          },
          {
            type: 'doc',
            doc: { id: 1, title: 'invoice', size: 2048, ext: 'pdf', url: 'https://vk.com/doc1' },
          },
          {
            type: 'audio_message',
            audio_message: {
              duration: 3,
              link_ogg: 'https://psv4.userapi.com/v.ogg',
              link_mp3: 'https://psv4.userapi.com/v.mp3',
            },
          },
        ],
      }),
      client_info: clientInfo,
    }),
  );
  assert.equal(e.kind, 'message');
  if (e.kind !== 'message') return;
  assert.equal(e.message.externalMessageId, '98');
  assert.deepEqual(e.message.client, { externalId: '123456', name: 'id123456', nameUnknown: true });
  assert.equal(e.message.text, 'Is this in stock?');
  assert.deepEqual(
    e.message.media?.map((m) => [m.ref, m.name, m.contentType]),
    [
      ['https://sun9-1.userapi.com/w.jpg', 'photo.jpg', 'image/jpeg'],
      ['https://vk.com/doc1', 'invoice.pdf', 'application/pdf'],
      ['https://psv4.userapi.com/v.ogg', 'voice.ogg', 'audio/ogg'],
    ],
  );
});

test('message_new: a press of our keyboard is a postback; a wall post is a visible notice; a group conversation and a community are not dialogs', () => {
  const [press] = parseVkEvent(
    event('message_new', {
      message: message({ text: 'Track my order', payload: '{"sc":"track"}' }),
      client_info: clientInfo,
    }),
  );
  assert.equal(press.kind, 'postback');
  assert.equal(press.kind === 'postback' && press.data, 'track');
  assert.equal(press.kind === 'postback' && press.message.text, 'Track my order');
  const [wall] = parseVkEvent(
    event('message_new', {
      message: message({ attachments: [{ type: 'wall', wall: { id: 5, from_id: -GROUP } }] }),
      client_info: clientInfo,
    }),
  );
  assert.equal(wall.kind === 'message' && wall.message.text, '[VK: wall]');
  assert.deepEqual(
    parseVkEvent(event('message_new', { message: message({ peer_id: 2_000_000_001, text: 'hi all' }) })),
    [],
  );
  assert.deepEqual(parseVkEvent(event('message_new', { message: message({ from_id: -GROUP }) })), []);
});

test('message_reply is Delivered, message_read Read, message_deny an opt-out; message_allow and typing store nothing', () => {
  assert.deepEqual(
    parseVkEvent(event('message_reply', message({ id: 120, from_id: -GROUP, out: 1, text: 'Yes' }))),
    [{ kind: 'status', externalId: '120', status: 'delivered' }],
  );
  assert.deepEqual(
    parseVkEvent(
      event('message_read', {
        from_id: 123456,
        peer_id: 123456,
        read_message_id: 120,
        conversation_message_id: 14,
      }),
    ),
    [{ kind: 'status', externalId: '120', status: 'read' }],
  );
  assert.deepEqual(parseVkEvent(event('message_deny', { user_id: 123456 })), [
    { kind: 'opt_out', client: { externalId: '123456' } },
  ]);
  assert.deepEqual(parseVkEvent(event('message_allow', { user_id: 123456, key: 'promo' })), []);
  assert.deepEqual(
    parseVkEvent(event('message_typing_state', { state: 'typing', from_id: 123456, to_id: -GROUP })),
    [{ kind: 'ignored', what: 'message_typing_state' }],
  );
});

test('what cannot be read: a message that names its client is a notice in their dialog; one that names no one is unreadable', () => {
  const [notice] = parseVkEvent(
    event('message_new', { message: message({ text: 42, attachments: 'none' }), client_info: clientInfo }),
  );
  assert.equal(notice.kind, 'message');
  assert.match(notice.kind === 'message' ? notice.message.text : '', /Unreadable VK/);
  const [nobody] = parseVkEvent(event('message_new', { message: { text: 'who?' } }));
  assert.equal(nobody.kind, 'unreadable');
  assert.equal(parseVkEvent({ no: 'type' })[0].kind, 'unreadable');
  assert.equal(parseVkEvent(null)[0].kind, 'unreadable');
});
