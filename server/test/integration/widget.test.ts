import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WIDGET_LIMITS, WIDGET_SOCKETS } from '@smartconnect/contracts';
import { WebSocket } from 'ws';
import { siteChatAdapter } from '../../src/channels/site_chat/index.ts';
import {
  createOrganisation,
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestUser,
} from '../helpers.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

// biome-ignore lint/suspicious/noExplicitAny: frames of many shapes
type Frame = { type: string; [k: string]: any };

/** A widget's socket: collects frames, waits for conditions on them. */
async function openSocket(url: string) {
  const ws = new WebSocket(url.replace(/^http/, 'ws'));
  const frames: Frame[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (d) => {
    frames.push(JSON.parse(String(d)));
    for (const w of waiters) w();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_q, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  const waitFor = (pred: (f: Frame[]) => boolean, ms = 5000) =>
    new Promise<void>((resolve, reject) => {
      if (pred(frames)) return resolve();
      const t = setTimeout(() => reject(new Error(`timeout; frames: ${JSON.stringify(frames)}`)), ms);
      waiters.push(() => {
        if (pred(frames)) {
          clearTimeout(t);
          resolve();
        }
      });
    });
  return { ws, frames, waitFor };
}

/** The site-chat widget's protocol over HTTP and its websocket, on a real database. */
let s: TestServer;

type Setup = { org: TestOrg; channelId: string; operator: TestUser; teamId: string };
async function setup(settings: Record<string, unknown> = {}): Promise<Setup> {
  const org = await createOrganisation(s);
  const teamId = await makeTeam(org);
  const operator = await org.user({ teams: [teamId] });
  await goOnline(operator);
  const res = await org.admin.api.post('/api/channels', {
    type: 'site_chat',
    name: `Site ${Math.random().toString(36).slice(2, 8)}`,
    teamId,
    ...settings,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { org, channelId: res.body.entity.id, operator, teamId };
}
const w = (channelId: string, path: string, token?: string) =>
  `/api/widget/${channelId}${path}${token ? `${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : ''}`;
const visitor = async (channelId: string) => {
  const res = await s.api.post(w(channelId, '/visitors'));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entity as { visitorId: string; token: string };
};
let seq = 0;
const say = (channelId: string, token: string, text: string, extra: Record<string, unknown> = {}) =>
  s.api.call(
    'POST',
    w(channelId, '/messages', token),
    JSON.stringify({ clientMessageId: `cm-${Date.now()}-${seq++}`, text, ...extra }),
    {
      'content-type': 'text/plain',
    },
  );

describe('site-chat widget protocol', () => {
  before(async () => {
    // TRUST_PROXY: the socket caps' test speaks from addresses of its own (X-Forwarded-For).
    s = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  });
  after(() => s.close());

  test('a site_chat channel is created with its widget settings, read by the widget cross-origin', async () => {
    const { org, channelId } = await setup({
      title: 'Acme help',
      welcomeMessage: 'Hi! How can we help?',
      display: 'open',
      channelList: [{ name: 'Telegram', url: 'https://t.me/acme' }],
    });
    const channel = (await org.admin.api.get(`/api/channels/${channelId}`)).body.entity;
    assert.equal(channel.type, 'site_chat');
    assert.equal(channel.settings.title, 'Acme help');
    assert.equal(channel.settings.visitorKey, undefined, 'the signing key is never answered');
    const res = await fetch(`${s.url}${w(channelId, '/config')}`, {
      headers: { origin: 'http://localhost:9999' },
    });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const config = ((await res.json()) as { entity: Record<string, unknown> }).entity;
    assert.equal(config.title, 'Acme help');
    assert.equal(config.welcomeMessage, 'Hi! How can we help?');
    assert.equal(config.display, 'open');
    assert.equal(config.active, true);
    assert.deepEqual(config.channelList, [{ name: 'Telegram', url: 'https://t.me/acme' }]);
    // A change reaches the next read (open widgets refresh their settings).
    await org.admin.api.patch(`/api/channels/${channelId}`, { title: 'Acme support' });
    assert.equal((await s.api.get(w(channelId, '/config'))).body.entity.title, 'Acme support');
    const bad = await org.admin.api.post('/api/channels', {
      type: 'site_chat',
      name: 'Bad',
      teamId: channel.teamId,
      logo: 'javascript:alert(1)',
      display: 'sideways',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.fields.logo, 'Value specified incorrectly');
    assert.equal(bad.body.error.fields.display, 'Value specified incorrectly');
    assert.equal((await s.api.get(w('00000000-0000-7000-8000-000000000000', '/config'))).status, 404);
  });

  test('a visitor sends, the operator answers, history comes back on return; another visitor reads nothing', async () => {
    const { org, channelId, operator } = await setup();
    const v = await visitor(channelId);
    const sent = await say(channelId, v.token, 'Hello <b>there</b>', { name: 'Ann' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.entity.text, 'Hello <b>there</b>');
    const chats = (await operator.api.get('/api/chats?filter=assigned')).body.entity.items;
    assert.equal(chats.length, 1);
    assert.equal(chats[0].client.name, 'Ann');
    const reply = await operator.api.post(`/api/chats/${chats[0].id}/messages`, { text: 'Hi Ann' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    await operator.api.post(`/api/chats/${chats[0].id}/messages`, { text: 'secret note', internal: true });
    const history = (await s.api.get(w(channelId, '/messages', v.token))).body.entity.items;
    assert.deepEqual(
      history.map((m: { direction: string; text: string }) => `${m.direction}:${m.text}`),
      ['in:Hello <b>there</b>', 'out:Hi Ann'],
      'internal notes never reach the visitor',
    );
    assert.match(history[1].author.name, /User/);
    // Resume: only what came after the last message seen.
    const since = (await s.api.get(w(channelId, `/messages?after=${history[0].id}`, v.token))).body.entity
      .items;
    assert.deepEqual(
      since.map((m: { text: string }) => m.text),
      ['Hi Ann'],
    );
    // Read marks move our message forward.
    const read = await s.api.call(
      'POST',
      w(channelId, '/read', v.token),
      JSON.stringify({ messageIds: [history[1].id], status: 'read' }),
      {
        'content-type': 'text/plain',
      },
    );
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const ours = (await org.admin.api.get(`/api/chats/${chats[0].id}/messages`)).body.entity.items.find(
      (m: { id: string }) => m.id === history[1].id,
    );
    assert.equal(ours.status, 'read');
    // Another visitor sees none of it.
    const other = await visitor(channelId);
    assert.deepEqual((await s.api.get(w(channelId, '/messages', other.token))).body.entity.items, []);
  });

  test('anonymous visitors get distinct readable names, in the organisation language; never merge suggestions', async () => {
    const { org, channelId } = await setup();
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const v = await visitor(channelId);
      assert.equal((await say(channelId, v.token, `hello ${i}`)).status, 200);
      assert.equal((await say(channelId, v.token, `again ${i}`)).status, 200);
    }
    // (The team's operator is In work: the chats went to them.)
    const chats = (await org.admin.api.get('/api/chats?filter=assigned')).body.entity.items as {
      client: { name: string };
    }[];
    for (const c of chats) names.push(c.client.name);
    assert.equal(names.length, 3);
    for (const n of names) assert.match(n, /^Visitor #\d{4}$/);
    assert.equal(new Set(names).size, 3, `three visitors, three names: ${names.join(', ')}`);
    // Placeholder names say nothing about who someone is: no merge is suggested on them (nor on the bare 'Visitor').
    const named = await visitor(channelId);
    await say(channelId, named.token, 'hi', { name: 'Visitor' });
    const suggestions = (await org.admin.api.get('/api/clients/merge/suggestions')).body.entity;
    const items = (Array.isArray(suggestions) ? suggestions : suggestions.items) as { reason: string }[];
    assert.deepEqual(
      items.filter((x) => x.reason === 'name'),
      [],
    );
    // A Russian organisation's visitors are 'Посетитель #…'.
    const ru = await setup();
    await s.app.db.query(`update organisations set language = 'rus' where id = $1`, [ru.org.id]);
    const rv = await visitor(ru.channelId);
    assert.equal((await say(ru.channelId, rv.token, 'привет')).status, 200);
    const [ruChat] = (await ru.org.admin.api.get('/api/chats?filter=assigned')).body.entity.items;
    assert.match(ruChat.client.name, /^Посетитель #\d{4}$/);
  });

  test("a forged, altered or other channel's visitor token is refused; the webhook route refuses visitors", async () => {
    const a = await setup();
    const b = await setup();
    const v = await visitor(a.channelId);
    await say(a.channelId, v.token, 'mine');
    const [id, sig] = v.token.split('~');
    const forged = [`${id}~${sig.slice(0, -2)}AA`, `v.AAAAAAAAAAAAAAAAAAAAAAAA~${sig}`, id, '', 'v.x~y'];
    for (const token of forged) {
      assert.equal((await s.api.get(w(a.channelId, '/messages', token))).status, 401, token);
      assert.equal((await say(a.channelId, token, 'x')).status, 401, token);
    }
    assert.equal((await s.api.get(w(a.channelId, '/messages'))).status, 401);
    // A token of channel A means nothing on channel B.
    assert.equal((await s.api.get(w(b.channelId, '/messages', v.token))).status, 401);
    // Visitors cannot bypass the widget's checks through the common webhook route.
    const direct = await s.api.call(
      'POST',
      `/api/webhooks/site_chat/${a.channelId}`,
      JSON.stringify({
        kind: 'message',
        clientMessageId: 'zzzzzzzz',
        name: 'X',
        text: 'direct',
        attachments: [],
      }),
      { 'content-type': 'application/json', 'x-visitor-token': v.token },
    );
    assert.equal(direct.status, 401);
  });

  test("files: type checked by content, size limit, only the visitor's own uploads can be attached", async () => {
    const { org, channelId, operator } = await setup();
    const v = await visitor(channelId);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = (token: string, data: Uint8Array, name: string) =>
      s.api.call('POST', w(channelId, `/files?name=${encodeURIComponent(name)}`, token), data, {
        'content-type': 'text/plain',
      });
    const fake = await upload(v.token, new TextEncoder().encode('<script>alert(1)</script>'), 'pic.png');
    assert.equal(fake.status, 400, 'a script named .png is refused');
    const tooBig = await upload(v.token, new Uint8Array(WIDGET_LIMITS.fileMaxBytes + 10).fill(1), 'big.pdf');
    assert.equal(tooBig.status, 413);
    const ok = await upload(v.token, png, 'dot.png');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.entity.contentType, 'image/png');
    const other = await visitor(channelId);
    assert.equal(
      (await say(channelId, other.token, '', { files: [ok.body.entity.key] })).status,
      400,
      "another visitor's file",
    );
    const sent = await say(channelId, v.token, '', { files: [ok.body.entity.key] });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const att = sent.body.entity.attachments[0];
    assert.equal(att.name, 'dot.png');
    const fileRes = await fetch(att.url.replace('http://localhost:3000', s.url));
    assert.equal(fileRes.status, 200);
    assert.equal(fileRes.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.deepEqual(Buffer.from(await fileRes.arrayBuffer()), png);
    const chat = (await operator.api.get('/api/chats?filter=assigned')).body.entity.items[0];
    const msgs = (await org.admin.api.get(`/api/chats/${chat.id}/messages`)).body.entity.items;
    assert.match(msgs[0].attachments[0].url, /^\/api\/files\//);
  });

  test('the websocket pushes operator messages live and resumes after a drop without a miss', async () => {
    const { channelId, operator } = await setup();
    const v = await visitor(channelId);
    await say(channelId, v.token, 'hello');
    const chat = (await operator.api.get('/api/chats?filter=assigned')).body.entity.items[0];
    const sock = await openSocket(`${s.url}${w(channelId, '/ws', v.token)}`);
    await sock.waitFor((f) => f.some((x) => x.type === 'history'));
    assert.deepEqual(
      sock.frames.find((f) => f.type === 'history')?.items.map((m: { text: string }) => m.text),
      ['hello'],
    );
    await operator.api.post(`/api/chats/${chat.id}/messages`, { text: 'live one' });
    await sock.waitFor((f) => f.some((x) => x.type === 'message' && x.message.text === 'live one'));
    await operator.api.post(`/api/chats/${chat.id}/messages`, { text: 'note', internal: true });
    const last = sock.frames.filter((f) => f.type === 'message').at(-1)?.message;
    sock.ws.terminate();
    // While the visitor is away the operator writes; the resumed socket brings it.
    await operator.api.post(`/api/chats/${chat.id}/messages`, { text: 'while away' });
    const again = await openSocket(`${s.url}${w(channelId, `/ws?after=${last.id}`, v.token)}`);
    await again.waitFor((f) => f.some((x) => x.type === 'history'));
    assert.deepEqual(
      again.frames.find((f) => f.type === 'history')?.items.map((m: { text: string }) => m.text),
      ['while away'],
    );
    again.ws.send('ping');
    await again.waitFor((f) => f.some((x) => x.type === 'pong'));
    assert.ok(!again.frames.some((f) => JSON.stringify(f).includes('note')), 'internal notes never pushed');
    again.ws.close();
    await assert.rejects(openSocket(`${s.url}${w(channelId, '/ws', `${v.token}x`)}`), /401/);
  });

  test('widget sockets are capped per visitor (10) and per address (50): one more is refused with 4009, the open ones work', async () => {
    const { channelId, operator } = await setup();
    const open: WebSocket[] = [];
    /** Opens a socket from `address`: its first frame (history), or the code it was closed with. */
    const attempt = (token: string, address: string) =>
      new Promise<{ ws: WebSocket; code?: number }>((resolve, reject) => {
        const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}${w(channelId, '/ws', token)}`, {
          headers: { 'x-forwarded-for': address },
        });
        ws.once('message', () => {
          open.push(ws);
          resolve({ ws });
        });
        ws.once('close', (code) => resolve({ ws, code }));
        ws.once('error', reject);
      });
    const newVisitor = async (address: string) => {
      const res = await s.api.call('POST', w(channelId, '/visitors'), undefined, {
        'x-forwarded-for': address,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.entity.token as string;
    };
    try {
      const address = '198.51.100.7';
      const v = await newVisitor(address);
      await say(channelId, v, 'hello');
      const mine: WebSocket[] = [];
      for (let i = 0; i < WIDGET_SOCKETS.perVisitor; i++) {
        const r = await attempt(v, address);
        assert.equal(r.code, undefined, `socket ${i + 1} is open`);
        mine.push(r.ws);
      }
      const extra = await attempt(v, address);
      assert.equal(extra.code, WIDGET_SOCKETS.tooManySocketsCode, 'the 11th of one visitor is refused');
      // The open ones still work: a ping is answered and an operator's message reaches every one.
      const frames = mine.map(() => [] as string[]);
      for (const [i, ws] of mine.entries()) ws.on('message', (d) => frames[i].push(String(d)));
      mine[0].send('ping');
      const chat = (await operator.api.get('/api/chats?filter=assigned')).body.entity.items[0];
      await operator.api.post(`/api/chats/${chat.id}/messages`, { text: 'to every tab' });
      const deadline = Date.now() + 5000;
      while (frames.some((f) => !f.some((x) => x.includes('to every tab'))) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      assert.ok(
        frames.every((f) => f.some((x) => x.includes('to every tab'))),
        'delivered to all ten',
      );
      assert.ok(frames[0].some((x) => x.includes('pong')));
      // A closed one frees its place.
      mine[0].close();
      await new Promise((r) => setTimeout(r, 200));
      assert.equal((await attempt(v, address)).code, undefined, 'a place freed is taken again');
      // Per address: four more visitors fill it to 50; the next socket from there is refused, from elsewhere not.
      for (let k = 0; k < 4; k++) {
        const other = await newVisitor(address);
        for (let i = 0; i < WIDGET_SOCKETS.perVisitor; i++)
          assert.equal((await attempt(other, address)).code, undefined, `visitor ${k + 2}, socket ${i + 1}`);
      }
      const sixth = await newVisitor(address);
      assert.equal(
        (await attempt(sixth, address)).code,
        WIDGET_SOCKETS.tooManySocketsCode,
        'the 51st of an address',
      );
      assert.equal((await attempt(sixth, '198.51.100.8')).code, undefined, 'another address is not refused');
    } finally {
      for (const ws of open) ws.terminate();
    }
  });

  test('typing shows both ways: the visitor to the operators who see the chat, the operator to the visitor', async () => {
    const { org, channelId, operator, teamId } = await setup();
    const v = await visitor(channelId);
    await say(channelId, v.token, 'hello');
    const chat = (await operator.api.get('/api/chats?filter=assigned')).body.entity.items[0];
    const mine = await RealtimeClient.connect(s.url, operator.token);
    const colleague = await org.user({ teams: [teamId] });
    const theirs = await RealtimeClient.connect(s.url, colleague.token);
    const sock = await openSocket(`${s.url}${w(channelId, '/ws', v.token)}`);
    await sock.waitFor((f) => f.some((x) => x.type === 'history'));

    sock.ws.send('typing');
    await mine.waitFor((f) => f.some((x) => x.type === 'chat.typing'));
    const signal = mine.frames.find((f) => f.type === 'chat.typing');
    assert.equal(signal?.id, '', 'a signal does not move the cursor');
    assert.deepEqual(signal?.payload, { chatId: chat.id, by: 'client' });

    const typed = await operator.api.post(`/api/chats/${chat.id}/typing`);
    assert.equal(typed.status, 200, JSON.stringify(typed.body));
    await sock.waitFor((f) => f.some((x) => x.type === 'typing'));
    assert.equal(sock.frames.find((f) => f.type === 'typing')?.name, `User ${operator.email}`);
    // A colleague who does not see the chat (it is the operator's) gets neither signal, and cannot send one.
    assert.equal((await colleague.api.post(`/api/chats/${chat.id}/typing`)).status, 404);
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.post(`/api/chats/${chat.id}/typing`)).status, 404);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!theirs.frames.some((f) => f.type === 'chat.typing'));
    // Nothing was stored: a resume brings no typing back.
    const resumed = await RealtimeClient.connect(s.url, operator.token, mine.frames[0].id);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!resumed.frames.some((f) => f.type === 'chat.typing'));
    for (const c of [mine, theirs, resumed]) c.ws.close();
    sock.ws.close();
  });

  test('a visitor introduces themselves: name, e-mail and phone on their contact, after their first message', async () => {
    const { org, channelId, operator } = await setup();
    const v = await visitor(channelId);
    const intro = (body: unknown, token = v.token) =>
      s.api.call('POST', w(channelId, '/profile', token), JSON.stringify(body), {
        'content-type': 'text/plain',
      });
    const early = await intro({ name: 'Ann' });
    assert.equal(early.status, 404, 'no contact before the first message');
    assert.equal(early.body.code, 'profileNotFoundException');
    await say(channelId, v.token, 'hello');
    const bad = await intro({ email: 'not an e-mail' });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.error?.fields?.email ?? bad.body.fields?.email, JSON.stringify(bad.body));
    assert.equal(
      (await intro({ name: 'Ann', email: 'ann@example.com', phone: '+44 20 7946 0000' })).status,
      200,
    );
    // An empty value keeps what was given.
    assert.equal((await intro({ name: 'Ann Lee', email: '' })).status, 200);
    assert.equal((await intro({ name: 'Mallory' }, `${v.token}x`)).status, 401);
    const chat = (await operator.api.get('/api/chats?filter=assigned')).body.entity.items[0];
    const client = (await org.admin.api.get(`/api/clients/${chat.client.id}`)).body.entity;
    assert.equal(client.name, 'Ann Lee');
    assert.deepEqual(
      client.contacts.map((c: Record<string, unknown>) => [c.name, c.email, c.phone]),
      // The phone in E.164, as every stored phone (issue 29).
      [['Ann Lee', 'ann@example.com', '+442079460000']],
    );
  });

  test('/widget.js is served for any site to embed', async () => {
    execFileSync(process.execPath, [fileURLToPath(new URL('../../../widget/build.mjs', import.meta.url))]);
    const res = await fetch(`${s.url}/widget.js`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.match(await res.text(), /api\/widget\//);
  });

  test('a visitor message goes to the ingest in process: not signed, verified nor parsed by the adapter; a resend is one message', async () => {
    const { org, channelId, operator } = await setup();
    const v = await visitor(channelId);
    const calls: string[] = [];
    const { verify, parse } = siteChatAdapter;
    siteChatAdapter.verify = (...args) => {
      calls.push('verify');
      return verify(...args);
    };
    siteChatAdapter.parse = (...args) => {
      calls.push('parse');
      return parse(...args);
    };
    try {
      const send = () =>
        s.api.call(
          'POST',
          w(channelId, '/messages', v.token),
          JSON.stringify({ clientMessageId: 'once-only', text: 'Hello once', name: 'Bea' }),
          { 'content-type': 'text/plain' },
        );
      const first = await send();
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const again = await send();
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.entity.id, first.body.entity.id, 'the same clientMessageId is one message');
      assert.equal(first.body.entity.direction, 'in');
      assert.equal(first.body.entity.text, 'Hello once');
      const history = (await s.api.get(w(channelId, '/messages', v.token))).body.entity.items;
      assert.deepEqual(
        history.map((m: { text: string }) => m.text),
        ['Hello once'],
      );
      const [chat] = (await operator.api.get('/api/chats?filter=assigned')).body.entity.items;
      assert.equal(chat.client.name, 'Bea');
      const stored = await s.app.db.query<{ external_id: string; count: string }>(
        `select m.external_message_id as external_id, count(*) over () as count from messages m join chats c on c.id = m.chat_id
          where c.channel_id = $1 and m.direction = 'in'`,
        [channelId],
      );
      assert.deepEqual(
        stored.map((r) => [r.external_id, Number(r.count)]),
        [[`${v.visitorId}:once-only`, 1]],
        'stored under the visitor-scoped id, once',
      );
      assert.ok(org);
    } finally {
      siteChatAdapter.verify = verify;
      siteChatAdapter.parse = parse;
    }
    assert.deepEqual(calls, [], 'nothing is signed for the adapter to verify and parse again');
  });

  test('an inactive channel refuses visitor messages', async () => {
    const { org, channelId } = await setup();
    const v = await visitor(channelId);
    await org.admin.api.patch(`/api/channels/${channelId}`, { status: 'inactive' });
    assert.equal((await s.api.get(w(channelId, '/config'))).body.entity.active, false);
    const res = await say(channelId, v.token, 'anyone?');
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'deactivatedChannelException');
  });
});

/** Limits count per visitor and per address in rows every instance shares: a server of their own. */
describe('site-chat widget limits', () => {
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('length limit, per-visitor and per-address rate limits answer clear errors', async () => {
    const { channelId } = await setup();
    const v = await visitor(channelId);
    const long = await say(channelId, v.token, 'x'.repeat(WIDGET_LIMITS.textMax + 1));
    assert.equal(long.status, 400);
    assert.equal(long.body.error.fields.text, 'Value specified incorrectly');
    assert.equal((await say(channelId, v.token, 'x'.repeat(WIDGET_LIMITS.textMax))).status, 200);
    assert.equal((await say(channelId, v.token, '   ')).status, 400);
    let status = 200;
    let sent = 1;
    while (status === 200 && sent < 100) {
      status = (await say(channelId, v.token, `m${sent}`)).status;
      sent++;
    }
    assert.equal(status, 429);
    assert.equal(sent - 1, WIDGET_LIMITS.visitorMessagesPerMinute, 'the visitor limit is the one hit first');
    // The address limit holds across visitors: new identities do not reset it.
    let total = WIDGET_LIMITS.visitorMessagesPerMinute;
    let last = 200;
    while (last === 200 && total <= WIDGET_LIMITS.addressMessagesPerMinute) {
      const other = await visitor(channelId);
      for (let i = 0; i < 10 && last === 200; i++) {
        last = (await say(channelId, other.token, 'hi')).status;
        if (last === 200) total++;
      }
    }
    assert.equal(last, 429);
    assert.equal(total, WIDGET_LIMITS.addressMessagesPerMinute);
    const fresh = await visitor(channelId);
    const refused = await say(channelId, fresh.token, 'hi');
    assert.equal(refused.status, 429, 'a fresh visitor of a busy address is refused');
    assert.equal(refused.body.code, 'tooManyRequestsException');
    // After the window the visitor may write again.
    s.clock.advance(61_000);
    assert.equal((await say(channelId, v.token, 'later')).status, 200);
  });
});
