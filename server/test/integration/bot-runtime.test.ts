import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS, type PlanOption } from '@smartconnect/contracts';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { forgetBotVersions } from '../../src/modules/bot-runtime/runtime.ts';
import { type FakeTelegram, startFakeTelegram, type TgMessage } from '../fakes/telegram.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { jpeg } from '../route-fixtures.ts';
import { botNode, insertPublishedBot, ruleToBot } from './bot-fixtures.ts';
import { makeTeam } from './chats-fixtures.ts';

const node = botNode;

/** Chat bots through the runtime: a rule sends a new Telegram chat into a published bot (inserted with SQL). */
describe('chat bot runtime', () => {
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

  /** A published bot (version 1) of the organisation, as the editor's publish would store it. */
  const makeBot = (org: TestOrg, nodes: unknown[], defaultMessage = 'Sorry, I did not get that') =>
    insertPublishedBot(s, org, nodes, defaultMessage);

  /** An organisation with a Telegram channel and a rule sending every new chat into the bot. */
  async function setup(nodes: unknown[], options: PlanOption[] = [...PLAN_OPTIONS]) {
    const org = await createOrganisation(s, { options });
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
    const secret = tg.webhook?.secretToken as string;
    const botId = await makeBot(org, nodes);
    await ruleToBot(org, botId);
    return { org, teamId, hook, secret, botId };
  }

  type Msg = { id: string; text: string; direction: string; bot: { id: string } | null; buttons: unknown };
  const messagesOf = async (org: TestOrg, chatId: string) =>
    (await org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items as Msg[];
  /** Waits until the chat has `count` messages (the pipeline runs after the webhook's answer). */
  async function settle(org: TestOrg, chatId: string, count: number) {
    for (let i = 0; i < 100; i++) {
      const ms = await messagesOf(org, chatId);
      if (ms.length >= count) {
        await new Promise((r) => setTimeout(r, 50));
        return messagesOf(org, chatId);
      }
      await new Promise((r) => setTimeout(r, 30));
    }
    assert.fail(`the chat did not reach ${count} messages: ${JSON.stringify(await messagesOf(org, chatId))}`);
  }
  const chatsOf = (org: TestOrg) =>
    s.db.query<{ id: string }>('select id from chats where organisation_id = $1 order by created_at', [
      org.id,
    ]);
  const chatOfClient = async (org: TestOrg) => (await chatsOf(org))[0];
  const chatById = async (org: TestOrg, id: string) =>
    (await org.admin.api.get(`/api/chats/${id}`)).body.entity;

  const shop = () => [
    node('a', {
      root: true,
      reply: { text: 'Welcome! Choose:', fileId: null },
      buttons: [
        { id: 'b1', text: 'Prices', next: 'p' },
        { id: 'b2', text: 'Operator', next: 'h' },
        { id: 'b3', text: 'Our site', next: null, url: 'https://shop.example/help' },
      ],
      intents: [{ id: 'i1', intent: 'ESCALATE_TO_AGENT', next: 'h' }],
    }),
    node('p', {
      reply: { text: 'Prices are low', fileId: null },
      buttons: [{ id: 'b4', text: 'Back', next: 'a' }],
    }),
    node('h', {
      reply: { text: 'Goodbye from the bot', fileId: null },
      actions: [{ id: 'f', kind: 'final', type: 'close' }],
    }),
  ];

  test('a rule sends a new chat into the bot; inline keyboard; button press, typed text, default message, intent, close; duplicates change nothing; a restart continues', async () => {
    // Without OPTION_CATEGORY: a chat may close without a request category (with it, the bot hands the chat to people).
    const { org, hook, secret, botId } = await setup(
      shop(),
      PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY'),
    );
    const from = { id: 5101, first_name: 'Ann' };
    const before = tg.requests.length;
    assert.equal(await tg.deliver(tg.updates.text(from, 'Hi'), hook, secret), 200);
    const chat = await chatOfClient(org);
    let ms = await settle(org, chat.id, 2);
    assert.equal(ms[1].text, 'Welcome! Choose:');
    assert.equal(ms[1].bot?.id, botId, 'the reply is marked as the bot’s');
    await drainOutbox(s.app);
    const sent = tg.requests.slice(before).filter((r) => r.method === 'sendMessage');
    const markup = sent.at(-1)?.params.reply_markup as {
      inline_keyboard: { text: string; callback_data?: string; url?: string }[][];
    };
    assert.deepEqual(markup.inline_keyboard.slice(0, 2), [
      [{ text: 'Prices', callback_data: 'b1' }],
      [{ text: 'Operator', callback_data: 'b2' }],
    ]);
    const link = markup.inline_keyboard[2][0];
    assert.match(link.url ?? '', /^http:\/\/localhost:3000\/bot-action\/[0-9a-f-]{36}$/);
    // The tracked link redirects to the button's address and counts the click; a hostile id goes home.
    const path = new URL(link.url as string).pathname;
    const go = await fetch(`${s.url}${path}`, { redirect: 'manual' });
    assert.equal(go.status, 302);
    assert.equal(go.headers.get('location'), 'https://shop.example/help');
    const [clicks] = await s.db.query<{ clicks: number }>('select clicks from chat_bot_links');
    assert.equal(clicks.clicks, 1);
    for (const bad of ['not-a-uuid', randomUUID(), '%27%20or%201%3D1--']) {
      const r = await fetch(`${s.url}/bot-action/${bad}`, { redirect: 'manual' });
      assert.equal(r.status, 302);
      assert.equal(r.headers.get('location'), '/');
    }

    // A press of "Prices" (Telegram callback query: the payload reaches the stage).
    const press = tg.updates.callback(from, 'b1', tg.sent.at(-1) as TgMessage);
    assert.equal(await tg.deliver(press, hook, secret), 200);
    ms = await settle(org, chat.id, 4);
    assert.equal(ms[3].text, 'Prices are low');
    // The same press delivered again changes nothing.
    assert.equal(await tg.deliver(press, hook, secret), 200);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await messagesOf(org, chat.id)).length, 4);

    // A process restart: the versions read are forgotten, the dialog's state is in the database.
    forgetBotVersions();
    // Typed text matching a button ("back"), then something the bot does not understand.
    assert.equal(await tg.deliver(tg.updates.text(from, 'back!'), hook, secret), 200);
    ms = await settle(org, chat.id, 6);
    assert.equal(ms[5].text, 'Welcome! Choose:');
    assert.equal(await tg.deliver(tg.updates.text(from, 'what is the weather'), hook, secret), 200);
    ms = await settle(org, chat.id, 8);
    assert.equal(ms[7].text, 'Sorry, I did not get that');
    // An intent: the client asks for a person; the node's ESCALATE_TO_AGENT route ends with closing the chat.
    assert.equal(await tg.deliver(tg.updates.text(from, 'Connect me to a human please'), hook, secret), 200);
    ms = await settle(org, chat.id, 10);
    assert.equal(ms[9].text, 'Goodbye from the bot');
    for (let i = 0; i < 50 && (await chatById(org, chat.id)).status !== 'closed'; i++)
      await new Promise((r) => setTimeout(r, 30));
    assert.equal((await chatById(org, chat.id)).status, 'closed');
    const [d] = await s.db.query<{ intent: string; end_reason: string }>(
      'select intent, end_reason from chat_bot_dialogs where chat_id = $1',
      [chat.id],
    );
    assert.deepEqual(d, { intent: 'ESCALATE_TO_AGENT', end_reason: 'close' });
  });

  test('an operator taking the chat over ends the bot', async () => {
    const { org, hook, secret } = await setup(shop());
    const from = { id: 5102, first_name: 'Bo' };
    assert.equal(await tg.deliver(tg.updates.text(from, 'Hello'), hook, secret), 200);
    const chat = await chatOfClient(org);
    await settle(org, chat.id, 2);
    await org.admin.api.patch('/api/presence', { status: 'online' });
    const take = await org.admin.api.post(`/api/chats/${chat.id}/take`, {});
    assert.equal(take.status, 200, JSON.stringify(take.body));
    const [d] = await s.db.query<{ end_reason: string }>(
      'select end_reason from chat_bot_dialogs where chat_id = $1',
      [chat.id],
    );
    assert.equal(d.end_reason, 'operator');
    assert.equal(await tg.deliver(tg.updates.text(from, 'Prices'), hook, secret), 200);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await messagesOf(org, chat.id)).length, 3, 'the bot no longer answers');
  });

  test('transfer to a chat bot: the operator hands the chat back; the bot answers from its root on the channel; history; refusals', async () => {
    const { org, hook, secret, botId } = await setup(shop());
    const from = { id: 5103, first_name: 'Cy' };
    assert.equal(await tg.deliver(tg.updates.text(from, 'Hello'), hook, secret), 200);
    const chat = await chatOfClient(org);
    await settle(org, chat.id, 2);
    await org.admin.api.patch('/api/presence', { status: 'online' });
    assert.equal((await org.admin.api.post(`/api/chats/${chat.id}/take`, {})).status, 200);
    // The bot goes on at its root node after a newer version was published: the current one answers.
    const v2 = JSON.stringify({
      nodes: shop().map((n) => (n.id === 'a' ? { ...n, reply: { text: 'Welcome back!', fileId: null } } : n)),
    });
    await s.db.query(
      `insert into chat_bot_versions (bot_id, version, organisation_id, graph, default_message, published_at)
       values ($1, 2, $2, $3, 'Sorry?', now())`,
      [botId, org.id, v2],
    );
    await s.db.query('update chat_bots set published_version = 2 where id = $1', [botId]);

    // The published bots are listed for any signed-in user of the organisation (an unpublished one is not).
    const draft = await org.admin.api.post('/api/chat-bots', { name: 'Draft bot', defaultMessage: 'Hm?' });
    assert.equal(draft.status, 200, JSON.stringify(draft.body));
    const operator = await org.user({ name: 'Plain Operator', role: 'OPERATOR' });
    const listed = await operator.api.get('/api/chat-bots/published');
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(
      listed.body.entity.items.map((b: { id: string }) => b.id),
      [botId],
    );

    // Refusals: an unpublished bot, another organisation's bot, a chat the caller does not hold, another organisation.
    const transfer = (api: TestOrg['admin']['api'], body: unknown, id = chat.id) =>
      api.post(`/api/chats/${id}/transfer`, body);
    const unpublished = await transfer(org.admin.api, { botId: draft.body.entity.id });
    assert.equal(unpublished.status, 409);
    assert.equal(unpublished.body.code, 'chatBotNotPublishedException');
    const otherOrg = await createOrganisation(s, { options: [...PLAN_OPTIONS] });
    const otherBot = await makeBot(otherOrg, shop());
    const foreignBot = await transfer(org.admin.api, { botId: otherBot });
    assert.equal(foreignBot.status, 404);
    assert.equal(foreignBot.body.code, 'chatBotNotFoundException');
    const notMine = await transfer(operator.api, { botId });
    assert.ok([403, 404].includes(notMine.status), JSON.stringify(notMine.body));
    const foreignChat = await transfer(otherOrg.admin.api, { botId: otherBot });
    assert.equal(foreignChat.status, 404, JSON.stringify(foreignChat.body));
    assert.equal((await chatById(org, chat.id)).status, 'in_progress', 'nothing changed');

    const before = tg.requests.length;
    const res = await transfer(org.admin.api, { botId });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.entity.status, 'waiting');
    assert.equal(res.body.entity.operator, null, 'the chat left the operator');
    let ms = await messagesOf(org, chat.id);
    assert.equal(ms.at(-1)?.text, 'Welcome back!');
    assert.equal(ms.at(-1)?.bot?.id, botId);
    await drainOutbox(s.app);
    const sent = tg.requests.slice(before).filter((r) => r.method === 'sendMessage');
    assert.equal(sent.at(-1)?.params.text, 'Welcome back!', 'the reply went out on Telegram');
    assert.ok(sent.at(-1)?.params.reply_markup, 'with its buttons');
    const history = (await org.admin.api.get(`/api/chats/${chat.id}/history`)).body.entity.items as {
      kind: string;
      toBotId: string | null;
      botName: string | null;
    }[];
    const event = history.filter((h) => h.kind === 'transfer').at(-1);
    assert.equal(event?.toBotId, botId);
    assert.match(event?.botName ?? '', /^Bot /);
    const [d] = await s.db.query<{ version: number; node_id: string }>(
      'select version, node_id from chat_bot_dialogs where chat_id = $1 and ended_at is null',
      [chat.id],
    );
    assert.deepEqual(d, { version: 2, node_id: 'a' });

    // The client's next message is the bot's again.
    const count = ms.length;
    assert.equal(await tg.deliver(tg.updates.text(from, 'Prices'), hook, secret), 200);
    ms = await settle(org, chat.id, count + 2);
    assert.equal(ms.at(-1)?.text, 'Prices are low');

    // Without OPTION_CHAT_BOT the transfer (and the list) is refused, and the chat stays with its operator.
    assert.equal((await org.admin.api.post(`/api/chats/${chat.id}/take`, {})).status, 200);
    await s.db.query(
      `update organisations set options = array_remove(options, 'OPTION_CHAT_BOT') where id = $1`,
      [org.id],
    );
    const noOption = await transfer(org.admin.api, { botId });
    assert.equal(noOption.status, 403, JSON.stringify(noOption.body));
    assert.equal(noOption.body.code, 'optionUnavailableException');
    assert.equal((await chatById(org, chat.id)).status, 'in_progress');
  });

  test("a node's reply file: uploaded through /api/files, saved and published by its key; sent as a photo or a document", async () => {
    const { org, hook, secret } = await setup(shop());
    const upload = async (bytes: Uint8Array, type: string, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([bytes], { type }), name);
      const res = await org.admin.api.post('/api/files', form);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.entity.url as string).split('/').pop() as string;
    };
    const photo = await upload(jpeg(), 'image/jpeg', 'menu.jpg');
    const pdf = await upload(new TextEncoder().encode('%PDF-1.4\n%%EOF\n'), 'application/pdf', 'prices.pdf');
    // The editor's path: a new bot whose draft names the files by key, published (the structure check accepts it).
    const created = await org.admin.api.post('/api/chat-bots', {
      name: 'Files bot',
      defaultMessage: 'Sorry?',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.entity.id as string;
    const draft = {
      nodes: [
        node('a', {
          root: true,
          reply: { text: 'Our menu', fileId: photo, fileName: 'menu.jpg' },
          buttons: [{ id: 'x1', text: 'Prices', next: 'p' }],
        }),
        node('p', {
          reply: { text: '', fileId: pdf, fileName: 'prices.pdf' },
          actions: [{ id: 'f', kind: 'final', type: 'none' }],
        }),
      ],
    };
    const saved = await org.admin.api.patch(`/api/chat-bots/${id}`, { draft });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.entity.draft.nodes[0].reply.fileName, 'menu.jpg');
    const bad = await org.admin.api.patch(`/api/chat-bots/${id}`, {
      draft: { nodes: [node('a', { root: true, reply: { text: '', fileId: '../etc/passwd' } })] },
    });
    assert.equal(bad.status, 400, 'a file key is a stored key, nothing else');
    assert.equal((await org.admin.api.post(`/api/chat-bots/${id}/publish`)).status, 200);
    const rules = (await org.admin.api.get('/api/routing-rules')).body.entity.items as { id: string }[];
    for (const r of rules) await org.admin.api.delete(`/api/routing-rules/${r.id}`);
    const rule = await org.admin.api.post('/api/routing-rules', {
      name: 'To the files bot',
      conditions: { clients: 'any' },
      action: { type: 'chat_bot', botId: id },
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));

    const from = { id: 5104, first_name: 'Di' };
    const before = tg.requests.length;
    assert.equal(await tg.deliver(tg.updates.text(from, 'Hi'), hook, secret), 200);
    const chat = await chatOfClient(org);
    let ms = await settle(org, chat.id, 2);
    const withFile = ms[1] as Msg & { attachments: { url: string; name?: string; contentType?: string }[] };
    assert.equal(withFile.text, 'Our menu');
    assert.equal(withFile.attachments[0].url, `/api/files/${photo}`);
    assert.equal(withFile.attachments[0].name, 'menu.jpg');
    await drainOutbox(s.app);
    const sentPhoto = tg.requests.slice(before).find((r) => r.method === 'sendPhoto');
    assert.ok(sentPhoto, `a photo: ${tg.requests.slice(before).map((r) => r.method)}`);
    assert.equal(await tg.deliver(tg.updates.text(from, 'Prices'), hook, secret), 200);
    ms = await settle(org, chat.id, 4);
    await drainOutbox(s.app);
    const doc = tg.requests.slice(before).find((r) => r.method === 'sendDocument');
    assert.ok(doc, `a document: ${tg.requests.slice(before).map((r) => r.method)}`);
    assert.equal(tg.sent.at(-1)?.document?.file_name, 'prices.pdf');
  });

  test('triggers by the local time of two zones; final actions team and none', async () => {
    const nodes = (teamId: string) => [
      node('t', {
        root: true,
        triggers: [
          { id: 'day', start: '09:00', end: '18:00', timeZone: 'Europe/Moscow', next: 'day' },
          { id: 'night', start: '22:00', end: '02:00', timeZone: 'America/New_York', next: 'night' },
        ],
      }),
      node('day', {
        reply: { text: 'Moscow office is open', fileId: null },
        actions: [{ id: 'f', kind: 'final', type: 'team', teamId }],
      }),
      node('night', {
        reply: { text: 'Night shift', fileId: null },
        actions: [{ id: 'f', kind: 'final', type: 'none' }],
      }),
    ];
    // Tomorrow 10:00 UTC (13:00 in Moscow).
    const day = new Date(s.clock.now());
    day.setUTCDate(day.getUTCDate() + 1);
    day.setUTCHours(10, 0, 0, 0);
    s.clock.advance(day.getTime() - s.clock.now().getTime());
    const org = await createOrganisation(s);
    const team2 = await makeTeam(org, { method: 'manual' });
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'telegram',
      name: 'Bot',
      teamId,
      token: tg.token,
      updatesVia: 'webhook',
    });
    const hook = `${s.url}/api/webhooks/telegram/${res.body.entity.id}`;
    const secret = tg.webhook?.secretToken as string;
    const botId = await makeBot(org, nodes(team2));
    await org.admin.api.post('/api/routing-rules', {
      name: 'Bot',
      conditions: { clients: 'any' },
      action: { type: 'chat_bot', botId },
    });
    assert.equal(await tg.deliver(tg.updates.text({ id: 5103, first_name: 'Cy' }, 'Hi'), hook, secret), 200);
    const c1 = await chatOfClient(org);
    const m1 = await settle(org, c1.id, 2);
    assert.equal(m1[1].text, 'Moscow office is open');
    assert.equal((await chatById(org, c1.id)).team.id, team2, 'final action team: moved to that team');

    // The day after, 04:00 UTC: 07:00 in Moscow (closed), 23:00 in New York (the night window over midnight).
    s.clock.advance(18 * 3_600_000);
    assert.equal(await tg.deliver(tg.updates.text({ id: 5104, first_name: 'Di' }, 'Hi'), hook, secret), 200);
    const list = await chatsOf(org);
    const c2 = list.find((c) => c.id !== c1.id) as { id: string };
    const m2 = await settle(org, c2.id, 2);
    assert.equal(m2[1].text, 'Night shift');
    const chat2 = await chatById(org, c2.id);
    assert.equal(chat2.status, 'waiting', 'final action none: the chat stays for people');
    assert.equal(chat2.team.id, teamId);
  });

  test('the widget shows the bot buttons natively; pressing one sends its payload; a number still answers', async () => {
    const org = await createOrganisation(s, { options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY') });
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', { type: 'site_chat', name: 'Site', teamId });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id as string;
    const botId = await makeBot(org, shop());
    await org.admin.api.post('/api/routing-rules', {
      name: 'Bot',
      conditions: { clients: 'any' },
      action: { type: 'chat_bot', botId },
    });
    const v = (await s.api.post(`/api/widget/${channelId}/visitors`)).body.entity as { token: string };
    let k = 0;
    const say = (text: string, payload?: string) =>
      s.api.call(
        'POST',
        `/api/widget/${channelId}/messages?token=${encodeURIComponent(v.token)}`,
        JSON.stringify({ clientMessageId: `bot-widget-${Date.now()}-${k++}`, text, payload }),
        { 'content-type': 'text/plain' },
      );
    assert.equal((await say('Hello')).status, 200);
    const chat = await chatOfClient(org);
    let ms = await settle(org, chat.id, 2);
    assert.equal(ms[1].text, 'Welcome! Choose:', 'no numbered lines: the widget shows buttons');
    const rows = ms[1].buttons as { text: string; payload?: string; url?: string }[][];
    assert.equal(rows.length, 3);
    assert.deepEqual(rows[0], [{ text: 'Prices', payload: 'b1' }]);
    assert.match(rows[2][0].url ?? '', /^http:\/\/localhost:3000\/bot-action\/[0-9a-f-]{36}$/);
    // The visitor's widget is told the buttons (history and live frames share the presenter).
    const hist = await s.api.get(`/api/widget/${channelId}/messages?token=${encodeURIComponent(v.token)}`);
    assert.equal(hist.status, 200, JSON.stringify(hist.body));
    const items = hist.body.entity.items as { direction: string; buttons: unknown; bot: boolean }[];
    assert.deepEqual(items.at(-1)?.buttons, ms[1].buttons);
    assert.equal(items.at(-1)?.bot, true, "marked as the bot's");
    assert.equal(items[0].buttons, null, "the visitor's own message has none");
    assert.equal(items[0].bot, false);

    // Pressing "Prices": its label is the visitor's text, its payload steps the bot.
    assert.equal((await say('Prices', 'b1')).status, 200);
    ms = await settle(org, chat.id, 4);
    assert.equal(ms[2].text, 'Prices');
    assert.equal(ms[3].text, 'Prices are low');
    assert.deepEqual(ms[3].buttons, [[{ text: 'Back', payload: 'b4' }]]);
    // A payload is at most 64 bytes (Telegram's callback_data, the shared limit).
    const long = await say('Back', 'x'.repeat(65));
    assert.equal(long.status, 400);
    // Typing still works: the label answers.
    assert.equal((await say('back')).status, 200);
    ms = await settle(org, chat.id, 6);
    assert.equal(ms[5].text, 'Welcome! Choose:');
  });
});
