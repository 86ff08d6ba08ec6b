import assert from 'node:assert/strict';
import { createCipheriv, createHmac } from 'node:crypto';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { AppError } from '../../http/errors.ts';
import type { RawRequest } from '../types.ts';
import { jwtValid, signJwt } from './api.ts';
import { encryptFile, keyFromHex, signatureBase64 } from './media.ts';
import { parseApple } from './parse.ts';
import { BUSINESS_EXTENSION_BID, listPicker, partId } from './send.ts';

// Payloads written from Apple's samples and the reference they quote (docs/providers/apple-business.md): every
// request's body is gzip-compressed JSON with Apple's message dictionary.
const CUSTOMER = 'urn:mbid:AQAAY2hlbnRlc3QtY3VzdG9tZXI';
const BUSINESS = 'b9159070-c454-4135-8bf3-049809624818';
const apple = (body: unknown, headers: Record<string, string> = {}): RawRequest => ({
  headers: { 'source-id': CUSTOMER, 'destination-id': BUSINESS, ...headers },
  query: {},
  rawBody: gzipSync(Buffer.from(JSON.stringify(body))),
  body: undefined,
});
const message = (over: Record<string, unknown>) => ({
  id: '93527aa0-068b-48d6-8ad5-504ac906f429',
  sourceId: CUSTOMER,
  destinationId: BUSINESS,
  v: 1,
  locale: 'en_US',
  ...over,
});

test('a text message is the customer message, under Apple’s id, named by a stand-in of the opaque id', () => {
  assert.deepEqual(parseApple(apple(message({ type: 'text', body: 'Hello' }))), [
    {
      kind: 'message',
      message: {
        externalMessageId: '93527aa0-068b-48d6-8ad5-504ac906f429',
        client: { externalId: CUSTOMER, name: 'Apple client urn:mbid' },
        text: 'Hello',
        attachments: [],
        media: [],
      },
    },
  ]);
});

test('attachments (Apple’s sample fields) become files to fetch; U+FFFC marks are dropped from the text', () => {
  const [e] = parseApple(
    apple(
      message({
        type: 'text',
        body: '\uFFFC\uFFFC',
        attachments: [
          {
            name: '52106351067__A31A08AE-A449-4EDD-A735-458D17ADF9EA.JPG',
            mimeType: 'image/jpg',
            size: 60688,
            key: '00ab986f7523802c840e21ce94ec8f40ce579a52daf1fb9eae3fd6cae54ba6a7fa',
            url: 'https://p29-content.icloud.com/MY5733969D858549138ABDEAD466D0FB95EB5F42CC20E72881655D606018310070',
            owner:
              'MY5733969D858549138ABDEAD466D0FB95EB5F42CC20E72881655D606018310070.21F788CE698EE1A9.C01USN00',
            signature: '813ebf44a69677aa5eca8d3460096ed4c3d6c3b021',
          },
        ],
      }),
    ),
  );
  assert.equal(e?.kind, 'message');
  const m = e?.kind === 'message' ? e.message : undefined;
  assert.equal(m?.text, '');
  assert.equal(m?.media?.length, 1);
  assert.equal(m?.media?.[0]?.name, '52106351067__A31A08AE-A449-4EDD-A735-458D17ADF9EA.JPG');
  assert.equal(m?.media?.[0]?.contentType, 'image/jpg');
  assert.equal(m?.media?.[0]?.size, 60688);
  const ref = JSON.parse(m?.media?.[0]?.ref ?? '{}');
  assert.equal(ref.signature, '813ebf44a69677aa5eca8d3460096ed4c3d6c3b021');
  assert.equal(signatureBase64(ref.signature), Buffer.from(ref.signature, 'hex').toString('base64'));
  assert.equal(signatureBase64('gadu/cZzKa8='), 'gadu/cZzKa8=', 'a Base64 signature stays');
});

test('an attachment of the wrong shape is a notice in the client’s dialog, not a failure', () => {
  const [e] = parseApple(apple(message({ type: 'text', body: 'x', attachments: [{ name: 'a' }] })));
  assert.equal(e?.kind, 'message');
  assert.match(
    e?.kind === 'message' ? e.message.text : '',
    /^\[Unreadable Apple update: attachments\.0\.key/,
  );
});

test('a list picker reply is a postback: the selected item’s identifier is our button’s payload', () => {
  const reply = message({
    type: 'interactive',
    interactiveData: {
      bid: BUSINESS_EXTENSION_BID,
      data: {
        version: '1.0',
        requestIdentifier: '3EF748B5-3DC5-47AE-B185-91E91518D105',
        listPicker: {
          sections: [
            { order: 0, title: 'Fruit', items: [{ identifier: 'order:cancel', order: 1, title: 'Cancel' }] },
          ],
        },
        replyMessage: { style: 'icon', title: 'Selected: Cancel' },
      },
    },
  });
  assert.deepEqual(parseApple(apple(reply)), [
    {
      kind: 'postback',
      data: 'order:cancel',
      message: {
        externalMessageId: '93527aa0-068b-48d6-8ad5-504ac906f429',
        client: { externalId: CUSTOMER, name: 'Apple client urn:mbid' },
        text: 'Cancel',
        attachments: [],
      },
    },
  ]);
});

test('other interactive replies are shown by their title; a large one by reference is a notice', () => {
  const auth = message({
    type: 'interactive',
    interactiveData: {
      bid: BUSINESS_EXTENSION_BID,
      data: { replyMessage: { style: 'icon', title: 'Authentication Failed' }, version: '1.0' },
    },
  });
  const [a] = parseApple(apple(auth));
  assert.equal(a?.kind === 'message' ? a.message.text : '', '[Apple: Authentication Failed]');
  const byRef = message({
    type: 'interactive',
    interactiveDataRef: {
      bid: BUSINESS_EXTENSION_BID,
      key: '00c0d1827fdc858fe7b42421de1fb289c2ee0a9463d787ce4f118506f970bd6e38',
      url: 'https://p61-content.icloud.com/M58C0A1A2EB62B6E899B4F28996E8DA229E1914295299C39944B2F2CA7482AE50.C01USN00',
      owner: 'M58C0A2A1EB62B4E859B4F28996E8DA229E1914295299C39944B2F2CA7482AE50.C01USN00',
      signature: '81a619c81da5a01c6139219a5d20e17430c631e1eb',
      size: 1200,
    },
  });
  const [b] = parseApple(apple(byRef));
  assert.equal(b?.kind === 'message' ? b.message.text : '', '[Apple: interactive reply too large to show]');
});

test('typing is the client’s typing signal, unknown types are ignored; close is a visible notice under its id', () => {
  const client = { externalId: 'urn:mbid:AQAAY2hlbnRlc3Q' };
  const from = { sourceId: client.externalId };
  assert.deepEqual(parseApple(apple(message({ type: 'typing_start', ...from }))), [
    { kind: 'typing', client, active: true },
  ]);
  assert.deepEqual(parseApple(apple(message({ type: 'typing_end', ...from }))), [
    { kind: 'typing', client, active: false },
  ]);
  assert.deepEqual(parseApple(apple(message({ type: 'richLink' }))), [{ kind: 'ignored', what: 'richLink' }]);
  const [c] = parseApple(apple(message({ type: 'close' })));
  assert.equal(c?.kind === 'message' ? c.message.text : '', '[Apple: the client closed the conversation]');
  assert.equal(
    c?.kind === 'message' ? c.message.externalMessageId : '',
    '93527aa0-068b-48d6-8ad5-504ac906f429',
  );
});

test('the sender comes from the body, else the source-id header; plain JSON is read too', () => {
  const { sourceId: _s, ...noSource } = message({ type: 'text', body: 'hi' });
  const [e] = parseApple(apple(noSource));
  assert.equal(e?.kind === 'message' ? e.message.client.externalId : '', CUSTOMER);
  const plain = { ...apple({}), rawBody: Buffer.from('{}'), body: message({ type: 'text', body: 'plain' }) };
  const [p] = parseApple(plain);
  assert.equal(p?.kind === 'message' ? p.message.text : '', 'plain');
});

test('a malformed request is a 400 (validation error) and names the problem', () => {
  const refused = (req: RawRequest) =>
    assert.throws(
      () => parseApple(req),
      (err) => err instanceof AppError && err.code === 'validationException',
    );
  refused({ ...apple({}), rawBody: Buffer.from([0x1f, 0x8b, 0, 1, 2]) });
  refused({ ...apple({}), rawBody: gzipSync(Buffer.from('not json')) });
  refused({ ...apple({}), rawBody: Buffer.from('not json') });
  refused(apple({ type: 'text', body: 'no id' }));
  refused(apple(message({ type: 'text', sourceId: undefined }), { 'source-id': '' }));
  refused(apple([1, 2]));
});

test('JWT: ours is {iss, iat} HS256 with the Base64-decoded secret; Apple’s is checked by signature, aud and time', () => {
  const secret = Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
  const creds = { mspId: 'msp-1', secret };
  const ours = signJwt(creds, 1_700_000_000);
  const [head, claims, signature] = ours.split('.');
  assert.deepEqual(JSON.parse(Buffer.from(claims ?? '', 'base64url').toString()), {
    iss: 'msp-1',
    iat: 1_700_000_000,
  });
  assert.equal(
    signature,
    createHmac('sha256', Buffer.from(secret, 'base64')).update(`${head}.${claims}`).digest('base64url'),
  );
  const appleJwt = (c: Record<string, unknown>, key = secret, alg = 'HS256') => {
    const h = `${Buffer.from(JSON.stringify({ alg })).toString('base64url')}.${Buffer.from(JSON.stringify(c)).toString('base64url')}`;
    return `${h}.${createHmac('sha256', Buffer.from(key, 'base64')).update(h).digest('base64url')}`;
  };
  const now = 1_700_000_000_000;
  assert.ok(jwtValid(appleJwt({ aud: 'msp-1', iat: now / 1000 }), creds, now));
  assert.ok(jwtValid(appleJwt({ aud: ['other', 'msp-1'], iat: now / 1000 }), creds, now));
  assert.ok(!jwtValid(appleJwt({ aud: 'msp-2', iat: now / 1000 }), creds, now), 'another MSP');
  assert.ok(
    !jwtValid(appleJwt({ aud: 'msp-1' }, Buffer.from('x').toString('base64')), creds, now),
    'another key',
  );
  assert.ok(!jwtValid(appleJwt({ aud: 'msp-1', exp: now / 1000 - 1 }), creds, now), 'expired');
  assert.ok(
    !jwtValid(appleJwt({ aud: 'msp-1', iat: now / 1000 - 7200 }), creds, now),
    'issued two hours ago',
  );
  assert.ok(!jwtValid(appleJwt({ aud: 'msp-1' }, secret, 'none'), creds, now), 'another algorithm');
  assert.ok(!jwtValid('a.b', creds, now));
});

test('files are AES-256-CTR with a zero IV and a `00`-prefixed hex key, as Apple’s sample encrypts them', () => {
  const data = Buffer.from('a customer receipt');
  const { encrypted, key } = encryptFile(data);
  assert.match(key, /^00[0-9a-f]{64}$/);
  const raw = keyFromHex(key);
  assert.ok(raw);
  const again = createCipheriv('aes-256-ctr', raw, Buffer.alloc(16));
  assert.deepEqual(Buffer.concat([again.update(data), again.final()]), encrypted);
  assert.equal(keyFromHex('00zz'), null);
});

test('our postback buttons are one list picker section; link buttons are not items; part ids are stable UUIDs', () => {
  const picker = listPicker('How can we help?\nMore text', [
    [
      { text: 'Track', payload: 'order:track' },
      { text: 'Site', url: 'https://shop.example' },
    ],
  ]) as { bid: string; data: { listPicker: { sections: { title: string; items: unknown[] }[] } } };
  assert.equal(picker.bid, BUSINESS_EXTENSION_BID);
  assert.equal(picker.data.listPicker.sections[0]?.title, 'How can we help?');
  assert.deepEqual(picker.data.listPicker.sections[0]?.items, [
    { identifier: 'order:track', title: 'Track', order: 0, style: 'default' },
  ]);
  assert.equal(listPicker('x', [[{ text: 'Site', url: 'https://shop.example' }]]), null);
  assert.equal(partId('d1', 0), partId('d1', 0));
  assert.notEqual(partId('d1', 0), partId('d1', 1));
  assert.match(partId('d1', 0), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
