import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.ts';
import { type FakeDevino, startFakeDevino } from '../fakes/devino.ts';
import { type FakeMeta, startFakeMeta } from '../fakes/meta.ts';
import { type FakeTelegram, startFakeTelegram, type TgUpdate } from '../fakes/telegram.ts';
import { type FakeViber, startFakeViber } from '../fakes/viber.ts';
import { type FakeVk, startFakeVk } from '../fakes/vk.ts';
import { type FakeWhatsApp, startFakeWhatsApp } from '../fakes/whatsapp.ts';
import { type FakeWhatsAppBsp, startFakeWhatsAppBsp } from '../fakes/whatsapp-bsp.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { makeTeam } from './chats-fixtures.ts';

/**
 * Signed provider payloads of the wrong shape, per channel type that has a webhook (issue 29): each known field of
 * each kind of update a provider sends, replaced in turn with null, a number, a string, an array, an object, a
 * string with NUL, a lone surrogate and a 100k string, correctly signed. A provider retries anything but a 2xx
 * forever, so the answer must be a 2xx (an unreadable part is a notice, channels/unreadable.ts), or, where the
 * provider reads a 4xx as final (the regional Viber provider), a 400; never a 5xx. After each type's walk the
 * channel still takes a normal message. Nothing may be logged as an unhandled error.
 */

type Json = null | number | string | boolean | Json[] | { [k: string]: Json };
type Payload = Record<string, Json>;

const VALUES: [string, Json][] = [
  ['null', null],
  ['number', 12345],
  ['string', 'fuzz'],
  ['array', ['a', 1, null]],
  ['object', { a: 'b' }],
  ['NUL string', 'a\u0000b'],
  ['lone surrogate', 'x\uD800y'],
  ['100k string', 'x'.repeat(100_000)],
];
const BODIES: [string, Json][] = [
  ['null', null],
  ['array', []],
  ['string', 'fuzz'],
  ['number', 1],
  ['empty object', {}],
];

/** Every path of a JSON value: objects' keys, arrays' items, nested. */
function paths(value: Json, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

/** A copy of `base` with `value` at `path`. */
function withValue(base: Payload, path: string[], value: Json): Payload {
  const copy = structuredClone(base);
  let node = copy as Record<string, Json>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string, Json>;
  node[path[path.length - 1] as string] = value;
  return copy;
}

/** One channel type under test: its kinds of update (fresh ids for each `n`), how they are delivered signed. */
type Subject = {
  name: string;
  org: TestOrg;
  channelId: string;
  kinds: Record<string, (n: number) => Payload>;
  deliver(body: Json): Promise<number>;
  /** A normal text message from `client` (an id the provider writes as a number where it does). */
  normal(n: number, text: string): Payload;
  /** The normal message's client, as the chat list shows it. */
  normalClient: string;
  /** Fields that authenticate the request (a wrong one is refused: 401). */
  auth?: string[];
  /** The provider reads a 4xx as final: a 400 is allowed. */
  final4xx?: boolean;
};

let seq = 1000;
const next = () => ++seq;

async function walk(subject: Subject): Promise<{ failures: string[]; requests: number }> {
  const failures: string[] = [];
  let requests = 0;
  const check = async (what: string, body: Json, authPath = false) => {
    requests++;
    const t0 = Date.now();
    const status = await subject.deliver(body).catch(() => 0);
    // FUZZ_TRACE=<file>: every request's answer and time, to find a slow or failing one.
    if (process.env.FUZZ_TRACE)
      appendFileSync(process.env.FUZZ_TRACE, `${subject.name} ${what} ${status} ${Date.now() - t0}ms\n`);
    const allowed =
      (status >= 200 && status < 300) ||
      (subject.final4xx && status === 400) ||
      (authPath && (status === 401 || status === 403));
    if (!allowed) failures.push(`${subject.name} ${what}: ${status}`);
  };
  // A field met again in another kind of update (the sender, the chat) is walked once: its last two names
  // (array items as `*`) say which it is.
  const walked = new Set<string>();
  for (const [kind, make] of Object.entries(subject.kinds)) {
    for (const path of paths(make(0))) {
      const key = path
        .slice(-2)
        .map((k) => (/^\d+$/.test(k) ? '*' : k))
        .join('.');
      if (walked.has(key) && path.length > 1) continue;
      walked.add(key);
      const authPath = subject.auth?.includes(path.join('.')) ?? false;
      for (const [label, value] of VALUES)
        await check(`${kind} ${path.join('.')} = ${label}`, withValue(make(next()), path, value), authPath);
    }
  }
  // A whole body of another kind carries no signature where the body holds it (VK's secret): refused, 401.
  for (const [label, body] of BODIES) await check(`body = ${label}`, body, subject.auth !== undefined);
  // The channel still takes a normal message.
  const text = `normal after the walk ${next()}`;
  await check('a normal message', subject.normal(next(), text));
  const chats = (await subject.org.admin.api.get('/api/chats?filter=waiting&limit=500')).body.entity
    .items as {
    id: string;
    client: { externalId: string };
  }[];
  const chat = chats.find((c) => c.client.externalId === subject.normalClient);
  const texts = chat
    ? (
        (await subject.org.admin.api.get(`/api/chats/${chat.id}/messages`)).body.entity.items as {
          text: string;
        }[]
      ).map((m) => m.text)
    : [];
  if (!texts.includes(text))
    failures.push(`${subject.name}: the normal message after the walk was not stored`);
  return { failures, requests };
}

describe('signed provider payloads of the wrong shape never give a 5xx', () => {
  let s: TestServer;
  let tg: FakeTelegram;
  let vb: FakeViber;
  let wa: FakeWhatsApp;
  let vk: FakeVk;
  let meta: FakeMeta;
  let bsp: FakeWhatsAppBsp;
  let vbb: FakeDevino;
  const log: string[] = [];
  before(async () => {
    const clock = new ManualClock();
    [tg, vb, wa, vk, meta, bsp, vbb] = await Promise.all([
      startFakeTelegram(),
      startFakeViber(),
      startFakeWhatsApp({ now: () => clock.now().getTime() }),
      startFakeVk(),
      startFakeMeta({ now: () => clock.now().getTime() }),
      startFakeWhatsAppBsp(),
      startFakeDevino(),
    ]);
    vk.perSecond = 1_000;
    const logStream = new Writable({
      write(chunk, _enc, done) {
        log.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    s = await startTestServer({
      clock,
      logStream,
      env: {
        TELEGRAM_API_BASE_URL: tg.baseUrl,
        VIBER_API_BASE_URL: vb.baseUrl,
        WHATSAPP_API_BASE_URL: wa.baseUrl,
        VK_API_BASE_URL: vk.baseUrl,
        META_GRAPH_BASE_URL: meta.baseUrl,
        META_OAUTH_BASE_URL: meta.baseUrl,
        META_APP_ID: meta.appId,
        META_APP_SECRET: meta.appSecret,
        META_VERIFY_TOKEN: 'meta-verify-token-1',
        WHATSAPP_BSP_BASE_URL: bsp.baseUrl,
        DEVINO_VIBER_API_BASE_URL: vbb.baseUrl,
      },
    });
    const reach = (url: string) => url.replace('http://localhost:3000', s.url);
    vb.reach = reach;
    bsp.reach = reach;
    vbb.reach = reach;
  });
  after(async () => {
    await s.close();
    await Promise.all([tg, vb, wa, vk, meta, bsp, vbb].map((f) => f.close()));
  });

  async function channel(org: TestOrg, fields: Record<string, unknown>) {
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      name: `Fuzz ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      ...fields,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity as { id: string; inboundKey?: string; inboundUrl: string };
  }

  const messagesOf = async (org: TestOrg, externalId: string) => {
    const chats = (await org.admin.api.get('/api/chats?filter=waiting&limit=500')).body.entity.items as {
      id: string;
      client: { externalId: string };
    }[];
    const chat = chats.find((c) => c.client.externalId === externalId);
    if (!chat) return [];
    return (
      (await org.admin.api.get(`/api/chats/${chat.id}/messages`)).body.entity.items as { text: string }[]
    ).map((m) => m.text);
  };
  const lastUnreadable = async (org: TestOrg, channelId: string) =>
    (await org.admin.api.get(`/api/channels/${channelId}`)).body.entity.lastUnreadable as {
      at: string;
      reason: string;
    } | null;

  const results: string[] = [];
  const run = async (subject: Subject) => {
    const started = Date.now();
    const { failures, requests } = await walk(subject);
    results.push(`${subject.name}: ${requests} requests in ${Date.now() - started} ms`);
    assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed`);
  };
  after(() => {
    console.log(results.join('\n'));
  });

  test('Telegram', async () => {
    const org = await createOrganisation(s);
    const ch = await channel(org, { type: 'telegram', token: tg.token, updatesVia: 'webhook' });
    const hook = `${s.url}/api/webhooks/telegram/${ch.id}`;
    const secret = tg.webhook?.secretToken as string;
    const user = {
      id: 7001,
      is_bot: false,
      first_name: 'Ann',
      last_name: 'Lee',
      username: 'annlee',
      language_code: 'en',
    };
    const chat = { id: 7001, type: 'private', first_name: 'Ann', last_name: 'Lee', username: 'annlee' };
    const message = (n: number, extra: Payload): Payload => ({
      message_id: n,
      from: user,
      chat,
      date: 1_700_000_000,
      ...extra,
    });
    const subject: Subject = {
      name: 'telegram',
      org,
      channelId: ch.id,
      deliver: (body) => tg.deliver(body as unknown as TgUpdate, hook, secret),
      kinds: {
        text: (n) => ({
          update_id: n,
          message: message(n, { text: 'Hello', entities: [{ type: 'bold', offset: 0, length: 5 }] }),
        }),
        location: (n) => ({
          update_id: n,
          message: message(n, { location: { latitude: 1.5, longitude: 2.5 } }),
        }),
        contact: (n) => ({
          update_id: n,
          message: message(n, { contact: { phone_number: '+100', first_name: 'Bo', last_name: 'Ng' } }),
        }),
        edited: (n) => ({
          update_id: n,
          edited_message: message(n, { text: 'Edited', edit_date: 1_700_000_100 }),
        }),
        callback: (n) => ({
          update_id: n,
          callback_query: {
            id: `cb${n}`,
            from: user,
            chat_instance: '42',
            data: 'yes',
            message: message(n, {
              text: 'Choose',
              reply_markup: { inline_keyboard: [[{ text: 'Yes', callback_data: 'yes' }]] },
            }),
          },
        }),
        blocked: (n) => ({
          update_id: n,
          my_chat_member: {
            chat,
            from: user,
            date: 1_700_000_000,
            old_chat_member: { status: 'member', user },
            new_chat_member: { status: 'kicked', user, until_date: 0 },
          },
        }),
      },
      normal: (n, text) => ({ update_id: n, message: message(n, { text }) }),
      normalClient: '7001',
    };
    await run(subject);
    // A message whose sender is readable and its text is not: a notice in the client's dialog.
    const n = next();
    assert.equal(await subject.deliver({ update_id: n, message: message(n, { text: { bad: 1 } }) }), 200);
    assert.ok(
      (await messagesOf(org, '7001')).includes('[Unreadable Telegram update: message.text: expected string]'),
      JSON.stringify(await messagesOf(org, '7001')),
    );
    // A callback query that is not an object names no one: answered, logged and shown on the channel.
    assert.equal(await subject.deliver({ update_id: next(), callback_query: 'fuzz' }), 200);
    assert.match(
      (await lastUnreadable(org, ch.id))?.reason ?? '',
      /^Telegram: callback_query: expected object/,
    );
  });

  test('Viber bot', async () => {
    const org = await createOrganisation(s);
    const ch = await channel(org, { type: 'viber_bot', token: vb.token });
    const hook = `${s.url}/api/webhooks/viber_bot/${ch.id}`;
    const sender = {
      id: 'vb-user-1',
      name: 'Ann Lee',
      avatar: 'http://a/b.jpg',
      language: 'en',
      country: 'GB',
      api_version: 10,
    };
    const msg = (n: number, message: Payload): Payload => ({
      event: 'message',
      timestamp: 1_700_000_000_000,
      chat_hostname: 'SN-1',
      message_token: 5_000_000_000 + n,
      sender,
      message,
      silent: false,
    });
    const subject: Subject = {
      name: 'viber_bot',
      org,
      channelId: ch.id,
      deliver: (body) => vb.deliver(hook, body as Record<string, unknown>),
      kinds: {
        text: (n) => msg(n, { type: 'text', text: 'Hello', tracking_data: '{"sc":{"yes":"Yes"}}' }),
        location: (n) => msg(n, { type: 'location', location: { lat: 1.5, lon: 2.5 } }),
        contact: (n) => msg(n, { type: 'contact', contact: { name: 'Bo', phone_number: '+100' } }),
        delivered: (n) => ({ event: 'delivered', timestamp: 1, message_token: n, user_id: 'vb-user-1' }),
        failed: (n) => ({ event: 'failed', timestamp: 1, message_token: n, user_id: 'vb-user-1', desc: 'x' }),
        unsubscribed: (n) => ({
          event: 'unsubscribed',
          timestamp: 1,
          user_id: 'vb-user-1',
          message_token: n,
        }),
        started: (n) => ({
          event: 'conversation_started',
          timestamp: 1,
          message_token: n,
          type: 'open',
          context: 'ctx',
          user: { id: 'vb-user-1', name: 'Ann Lee' },
          subscribed: false,
        }),
      },
      normal: (n, text) => msg(n, { type: 'text', text }),
      normalClient: 'vb-user-1',
    };
    await run(subject);
    const n = next();
    assert.equal(
      await subject.deliver({
        ...msg(n, { type: 'text', text: 'Hi' }),
        sender: { id: 'vb-user-1', name: 12 },
      }),
      200,
    );
    assert.ok(
      (await messagesOf(org, 'vb-user-1')).includes(
        '[Unreadable Viber update: sender.name: expected string]',
      ),
    );
  });

  test('WhatsApp Cloud API', async () => {
    const org = await createOrganisation(s);
    const ch = await channel(org, {
      type: 'whatsapp',
      phoneNumberId: wa.phoneNumberId,
      wabaId: wa.wabaId,
      accessToken: wa.accessToken,
      appSecret: wa.appSecret,
      verifyToken: 'my-verify-token-1',
    });
    const hook = `${s.url}/api/webhooks/whatsapp/${ch.id}`;
    const from = '447700900001';
    const payload = (value: Payload): Payload => ({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: wa.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001111', phone_number_id: wa.phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    });
    const inbound = (n: number, type: string, body: Payload): Payload =>
      payload({
        contacts: [{ wa_id: from, profile: { name: 'Ann Lee' } }],
        messages: [{ from, id: `wamid.in${n}`, timestamp: '1700000000', type, ...body }],
      });
    const subject: Subject = {
      name: 'whatsapp',
      org,
      channelId: ch.id,
      deliver: (body) => wa.deliver(hook, body),
      kinds: {
        text: (n) => inbound(n, 'text', { text: { body: 'Hello' } }),
        contacts: (n) =>
          inbound(n, 'contacts', {
            contacts: [
              { name: { formatted_name: 'Bo Ng' }, phones: [{ phone: '+100', wa_id: '100', type: 'CELL' }] },
            ],
          }),
        location: (n) =>
          inbound(n, 'location', { location: { latitude: 1.5, longitude: 2.5, name: 'X', address: 'Y' } }),
        button: (n) =>
          inbound(n, 'interactive', {
            interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
          }),
        reaction: (n) => inbound(n, 'reaction', { reaction: { message_id: 'wamid.x', emoji: '👍' } }),
        statuses: (n) =>
          payload({
            statuses: [
              { id: `wamid.out${n}`, status: 'delivered', timestamp: '1700000000', recipient_id: from },
              {
                id: `wamid.out${n}b`,
                status: 'failed',
                timestamp: '1700000000',
                recipient_id: from,
                errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'x' } }],
              },
            ],
          }),
      },
      normal: (n, text) => inbound(n, 'text', { text: { body: text } }),
      normalClient: from,
    };
    await run(subject);
    // A status id with NUL reaches no query unclean (issue 29): answered 200.
    assert.equal(
      await subject.deliver(
        payload({ statuses: [{ id: 'wamid.\u0000x', status: 'read', recipient_id: from }] }),
      ),
      200,
    );
    assert.equal(await subject.deliver(payload({ statuses: 'fuzz' })), 200);
    assert.match((await lastUnreadable(org, ch.id))?.reason ?? '', /^WhatsApp: .*statuses: expected array/);
  });

  test('WhatsApp through a business solution provider', async () => {
    const org = await createOrganisation(s);
    const ch = await channel(org, {
      type: 'whatsapp',
      provider: 'bsp',
      phone: `+${bsp.waNumber}`,
      login: bsp.login,
      password: bsp.password,
    });
    const key = ch.inboundKey as string;
    const hook = `${s.url}${ch.inboundUrl}?key=${encodeURIComponent(key)}`;
    const mobile = '447700900002';
    const base = (n: number, fields: Payload): Payload => ({
      waNumber: bsp.waNumber,
      mobile,
      name: 'Ann Lee',
      messageId: `bsp-in-${n}`,
      timestamp: String(1_700_000_000_000 + n),
      ...fields,
    });
    const subject: Subject = {
      name: 'whatsapp bsp',
      org,
      channelId: ch.id,
      deliver: async (body) => {
        const res = await fetch(hook, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        return res.status;
      },
      kinds: {
        text: (n) => base(n, { type: 'text', text: 'Hello' }),
        location: (n) => base(n, { type: 'location', location: '{"latitude":1.5,"longitude":2.5}' }),
        dlr: (n) => ({ externalId: `bsp-out-${n}`, eventType: 'FAILED', cause: 'x', errorCode: '1' }),
      },
      normal: (n, text) => base(n, { type: 'text', text }),
      normalClient: mobile,
    };
    await run(subject);
  });

  test('VK community bot', async () => {
    const org = await createOrganisation(s);
    const ch = await channel(org, {
      type: 'vk_bot',
      groupId: String(vk.groupId),
      token: vk.token,
      secret: vk.secret,
      confirmation: vk.confirmation,
    });
    const hook = `${s.url}/api/webhooks/vk_bot/${ch.id}`;
    const fromId = 9001;
    vk.allowed.add(fromId);
    const event = (n: number, type: string, object: Payload): Payload => ({
      type,
      event_id: `ev${n}`,
      v: '5.199',
      group_id: vk.groupId,
      secret: vk.secret,
      object,
    });
    const message = (n: number, extra: Payload): Payload => ({
      message: {
        date: 1_700_000_000,
        from_id: fromId,
        peer_id: fromId,
        id: n,
        out: 0,
        conversation_message_id: n,
        text: 'Hello',
        attachments: [{ type: 'link', link: { url: 'https://example.com', title: 'Example' } }],
        ...extra,
      },
      client_info: { keyboard: true, inline_keyboard: true, lang_id: 0 },
    });
    const subject: Subject = {
      name: 'vk_bot',
      org,
      channelId: ch.id,
      deliver: async (body) => {
        const res = await fetch(hook, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const text = await res.text();
        // VK retries anything but `ok`: a 200 with another body counts as a failure (999).
        return res.status === 200 && text !== 'ok' ? 999 : res.status;
      },
      kinds: {
        message: (n) => event(n, 'message_new', message(n, {})),
        press: (n) => event(n, 'message_new', message(n, { payload: '{"sc":"yes"}' })),
        reply: (n) =>
          event(n, 'message_reply', { id: n, from_id: -vk.groupId, peer_id: fromId, text: 'Hi', out: 1 }),
        read: (n) => event(n, 'message_read', { from_id: fromId, peer_id: fromId, read_message_id: n }),
        deny: (n) => event(n, 'message_deny', { user_id: fromId }),
      },
      normal: (n, text) => event(n, 'message_new', message(n, { text, attachments: [] })),
      normalClient: String(fromId),
      auth: ['secret', 'group_id'],
    };
    await run(subject);
    const n = next();
    assert.equal(await subject.deliver(event(n, 'message_new', message(n, { attachments: 'fuzz' }))), 200);
    assert.ok(
      (await messagesOf(org, String(fromId))).includes(
        '[Unreadable VK update: object.message.attachments: expected array]',
      ),
    );
  });

  for (const type of ['facebook', 'instagram'] as const)
    test(`Meta: ${type}`, async () => {
      const org = await createOrganisation(s);
      const start = await org.admin.api.get(`/api/channels/oauth/start?type=${type}`);
      const atMeta = await fetch(start.body.entity.url, { redirect: 'manual' });
      const back = new URL(atMeta.headers.get('location') as string);
      const ours = await fetch(`${s.url}${back.pathname}${back.search}`, { redirect: 'manual' });
      const grant = new URL(ours.headers.get('location') as string, 'http://localhost:3000').searchParams.get(
        'grant',
      );
      const ch = await channel(org, { type, grant, pageId: meta.pageId });
      const hook = `${s.url}/api/webhooks/${type}/${ch.id}`;
      const settings = (await org.admin.api.get(`/api/channels/${ch.id}`)).body.entity.settings;
      const account = type === 'instagram' ? settings.accountId : meta.pageId;
      const psid = `psid-${type}-1`;
      const payload = (messaging: Payload): Payload => ({
        object: type === 'instagram' ? 'instagram' : 'page',
        entry: [{ id: account, time: 1_700_000_000_000, messaging: [messaging] }],
      });
      const from = (n: number, body: Payload): Payload => ({
        sender: { id: psid },
        recipient: { id: account },
        timestamp: 1_700_000_000_000 + n,
        ...body,
      });
      const subject: Subject = {
        name: type,
        org,
        channelId: ch.id,
        deliver: (body) => meta.deliver(hook, body),
        kinds: {
          text: (n) =>
            payload(
              from(n, {
                message: {
                  mid: `m.${n}`,
                  text: 'Hello',
                  reply_to: { mid: 'm.0' },
                  attachments: [
                    { type: 'fallback', payload: { url: 'https://example.com', title: 'Example' } },
                  ],
                },
              }),
            ),
          quick: (n) =>
            payload(from(n, { message: { mid: `m.${n}`, text: 'Yes', quick_reply: { payload: 'yes' } } })),
          postback: (n) => payload(from(n, { postback: { mid: `p.${n}`, title: 'Yes', payload: 'yes' } })),
        },
        normal: (n, text) => payload(from(n, { message: { mid: `m.${n}`, text } })),
        normalClient: psid,
      };
      await run(subject);
    });

  test('Viber business (Devino Telecom, Russia)', async () => {
    const org = await createOrganisation(s);
    const ch = await channel(org, {
      type: 'viber',
      region: 'ru',
      login: vbb.login,
      password: vbb.password,
      serviceId: vbb.subject,
      phone: '+7 (495) 123-45-67',
    });
    const phone = '79160001122';
    const url = `http://localhost:3000${ch.inboundUrl}?key=${ch.inboundKey}`;
    // Devino posts a JSON array of replies; each fuzzed reply goes as the array's one item.
    const subject: Subject = {
      name: 'viber business',
      org,
      channelId: ch.id,
      deliver: (body) => vbb.reply([body as Record<string, unknown>], url),
      kinds: {
        text: (n) => ({ ...(vbb.replyItem(phone, 'Hello', '3158611117333282816') as Payload), id: n }),
      },
      normal: (n, text) => ({ ...(vbb.replyItem(phone, text) as Payload), id: n }),
      normalClient: phone,
    };
    await run(subject);
  });

  test('nothing was logged as an unhandled error', () => {
    const logged = log.filter((line) => /unhandled error|"stack"/.test(line));
    assert.deepEqual(
      logged.map((line) => line.slice(0, 400)),
      [],
    );
  });
});
