import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AdapterChannel, RawRequest } from '../types.ts';
import { readChat } from './chat.ts';
import { AVITO_VOICE_REF, avitoMessage, parseAvito } from './parse.ts';

// Webhook bodies as docs/providers/avito.md rebuilds them from Avito's catalog ("Payload of a new message (v3)").
const USER = 94235311;
const channel = (id = 'ch-1'): AdapterChannel => ({
  id,
  organisationId: 'org',
  inboundKeyHash: null,
  settings: { userId: String(USER) },
  secrets: {},
});
const req = (body: unknown): RawRequest => ({ headers: {}, query: {}, rawBody: Buffer.from(''), body });
const hook = (value: Record<string, unknown>, type = 'message') => ({
  id: 'b1a2c3d4-0000',
  version: 'v3.0.0',
  timestamp: 1700000000,
  payload: {
    type,
    value: {
      id: 'bdcc5bac2d00345f1cc66fa657813958',
      chat_id: 'u2i-ugpbZyw~GsG0i6y2J6XyVg',
      user_id: USER,
      author_id: 141906442,
      created: 1700000000,
      type: 'text',
      chat_type: 'u2i',
      content: { text: 'Здравствуйте, ещё продаёте?' },
      item_id: 1768287444,
      published_at: '2023-11-14T22:13:20Z',
      read: null,
      ...value,
    },
  },
});

test('a text message: the chat is the client, named once the chat is read; its listing waits for the chat', () => {
  const [e] = parseAvito(channel(), req(hook({})));
  assert.equal(e?.kind, 'message');
  if (e?.kind !== 'message') return;
  assert.equal(e.message.externalMessageId, 'bdcc5bac2d00345f1cc66fa657813958');
  assert.equal(e.message.text, 'Здравствуйте, ещё продаёте?');
  assert.deepEqual(e.message.client, {
    externalId: 'u2i-ugpbZyw~GsG0i6y2J6XyVg',
    name: 'Avito client',
    nameUnknown: true,
  });
  assert.equal(e.message.topic, undefined);
});

test('an image: the largest size is fetched into our storage', () => {
  const [e] = parseAvito(
    channel(),
    req(
      hook({
        type: 'image',
        content: {
          image: {
            sizes: {
              '140x105': 'https://img.avito.st/140x105/1.jpg',
              '1280x960': 'https://img.avito.st/1280x960/1.jpg',
              '640x480': 'https://img.avito.st/640x480/1.jpg',
              '32x32': 'https://img.avito.st/32x32/1.jpg',
            },
          },
        },
      }),
    ),
  );
  assert.ok(e?.kind === 'message');
  assert.deepEqual(e.message.media, [
    { ref: 'https://img.avito.st/1280x960/1.jpg', name: 'image.jpg', contentType: 'image/jpeg' },
  ]);
  assert.equal(e.message.text, '');
});

test('other content: links, listings, locations, calls as text; the rest as visible notices', () => {
  const text = (value: Record<string, unknown>) => {
    const [e] = parseAvito(channel(), req(hook(value)));
    return e?.kind === 'message' ? e.message.text : e?.kind;
  };
  assert.equal(
    text({ type: 'link', content: { link: { text: 'see', url: 'https://example.com' } } }),
    'see\nhttps://example.com',
  );
  assert.equal(
    text({
      type: 'item',
      content: { item: { title: 'Mazda 3 2008', price_string: '300 000 ₽', item_url: 'https://avito.ru/1' } },
    }),
    '[Avito: listing] Mazda 3 2008 · 300 000 ₽ · https://avito.ru/1',
  );
  assert.equal(
    text({
      type: 'location',
      content: { location: { lat: 55.75, lon: 37.61, title: 'Office', kind: 'house' } },
    }),
    '📍 55.75, 37.61\nOffice',
  );
  assert.equal(
    text({ type: 'call', content: { call: { status: 'missed', target_user_id: USER } } }),
    '[Avito: missed call]',
  );
  assert.equal(text({ type: 'voice', content: { voice: null } }), '[Avito: voice]');
  assert.equal(text({ type: 'file', content: {} }), '[Avito: file]');
  assert.equal(text({ type: 'video', content: {} }), '[Avito: video]');
  assert.equal(text({ type: 'deleted', content: null }), '[Avito: message deleted]');
  assert.equal(text({ type: 'text', content: { text: null } }), '[Avito: empty message]');
});

test('a voice message: its file, by voice_id, asked for when downloaded', () => {
  const [e] = parseAvito(channel(), req(hook({ type: 'voice', content: { voice: { voice_id: 'a1b2' } } })));
  assert.equal(e?.kind, 'message');
  if (e?.kind !== 'message') return;
  assert.equal(e.message.text, '');
  assert.deepEqual(e.message.media, [
    { ref: `${AVITO_VOICE_REF}a1b2`, name: 'voice.mp4', contentType: 'audio/mp4' },
  ]);
});

test('a message of the history (the reconciling poll): ours by direction, the customer’s as from the webhook', () => {
  // getMessagesV3's message object (docs/providers/avito.md "Message object"), with the chat's id added by the poll.
  const message = {
    id: 'bdcc5bac2d00345f1cc66fa657813958',
    author_id: 141906442,
    created: 1571654040,
    direction: 'in',
    type: 'text',
    content: { text: 'привет!' },
    is_read: true,
    read: 1571654100,
    chat_id: 'u2i-abc',
  };
  const [e] = avitoMessage(channel(), message);
  assert.equal(e?.kind === 'message' && e.message.text, 'привет!');
  assert.equal(e?.kind === 'message' && e.message.client.externalId, 'u2i-abc');
  assert.deepEqual(avitoMessage(channel(), { ...message, direction: 'out', author_id: 7 }), []);
});

test('skipped: our own messages, another account, the empty check; system messages and unknown events ignored', () => {
  assert.deepEqual(parseAvito(channel(), req(hook({ author_id: USER }))), []);
  assert.deepEqual(parseAvito(channel(), req(hook({ user_id: 1 }))), []);
  assert.deepEqual(parseAvito(channel(), req({})), []);
  assert.deepEqual(parseAvito(channel(), req(undefined)), []);
  assert.deepEqual(
    parseAvito(
      channel(),
      req(hook({ type: 'system', content: { flow_id: 'sbc_seller_notification', text: 'x' } })),
    ),
    [{ kind: 'ignored', what: 'message:system' }],
  );
  assert.deepEqual(parseAvito(channel(), req(hook({}, 'chat_read'))), [
    { kind: 'ignored', what: 'chat_read' },
  ]);
});

test('malformed: unreadable, or a notice in the dialog when the message and chat can be named', () => {
  assert.equal(parseAvito(channel(), req({ payload: 'x' }))[0]?.kind, 'unreadable');
  assert.equal(parseAvito(channel(), req(hook({ chat_id: 5 })))[0]?.kind, 'unreadable');
  const [e] = parseAvito(channel(), req(hook({ type: 7 })));
  assert.ok(e?.kind === 'message');
  assert.match(e.message.text, /^\[Unreadable Avito update: type: expected string\]$/);
  assert.equal(e.message.client.externalId, 'u2i-ugpbZyw~GsG0i6y2J6XyVg');
});

test('a chat object gives the customer (not our account) and the listing', () => {
  const chat = {
    id: 'u2i-ugpbZyw~GsG0i6y2J6XyVg',
    context: {
      type: 'item',
      value: {
        id: 1768287444,
        title: 'Mazda 3 2008',
        url: 'https://avito.ru/moskva/avtomobili/mazda_3_2008_1768287444',
      },
    },
    users: [
      { id: USER, name: 'Петр' },
      { id: 141906442, name: 'Guldan' },
    ],
  };
  assert.deepEqual(readChat(chat, String(USER)), {
    name: 'Guldan',
    topic: {
      kind: 'listing',
      id: '1768287444',
      title: 'Mazda 3 2008',
      url: 'https://avito.ru/moskva/avtomobili/mazda_3_2008_1768287444',
    },
  });
  assert.deepEqual(readChat({ users: [] }, String(USER)), { name: null, topic: null });
});
