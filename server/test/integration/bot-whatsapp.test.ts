import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { type FakeWhatsApp, startFakeWhatsApp } from '../fakes/whatsapp.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { botNode, publishedBotForNewChats } from './bot-fixtures.ts';
import { makeTeam } from './chats-fixtures.ts';

const node = botNode;

type Interactive = {
  type: string;
  body: { text: string };
  action: {
    buttons?: { type: string; reply: { id: string; title: string } }[];
    button?: string;
    sections?: { rows: { id: string; title: string }[] }[];
  };
};

/**
 * A chat bot on WhatsApp (the fake Cloud API of server/test/fakes/whatsapp.ts, which checks the documented limits of
 * interactive messages): up to 3 buttons go as reply buttons, more as a list; the reply's id is the payload.
 */
describe('chat bot on WhatsApp: interactive reply buttons and lists', () => {
  let s: TestServer;
  let wa: FakeWhatsApp;
  before(async () => {
    wa = await startFakeWhatsApp();
    s = await startTestServer({ env: { WHATSAPP_API_BASE_URL: wa.baseUrl } });
  });
  after(async () => {
    await s.close();
    await wa.close();
  });

  async function setup(nodes: unknown[]) {
    const org = await createOrganisation(s, { options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY') });
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'whatsapp',
      name: `WA ${randomUUID().slice(0, 6)}`,
      teamId,
      phoneNumberId: wa.phoneNumberId,
      wabaId: wa.wabaId,
      accessToken: wa.accessToken,
      appSecret: wa.appSecret,
      verifyToken: 'my-verify-token-1',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const hook = `${s.url}/api/webhooks/whatsapp/${res.body.entity.id}`;
    await publishedBotForNewChats(s, org, nodes);
    return { org, hook };
  }

  const messagesOf = async (org: TestOrg) => {
    const chat = (
      await s.db.query<{ id: string }>('select id from chats where organisation_id = $1', [org.id])
    )[0];
    if (!chat) return [];
    return (await org.admin.api.get(`/api/chats/${chat.id}/messages`)).body.entity.items as {
      text: string;
      direction: string;
      bot: unknown;
    }[];
  };
  async function settle(org: TestOrg, count: number) {
    for (let i = 0; i < 150; i++) {
      const ms = await messagesOf(org);
      if (ms.length >= count) return ms;
      await new Promise((r) => setTimeout(r, 30));
    }
    assert.fail(`the chat did not reach ${count} messages: ${JSON.stringify(await messagesOf(org))}`);
  }
  /** The interactive messages the fake accepted since `from`. */
  const interactives = (from: number) =>
    wa.sent
      .slice(from)
      .filter((x) => x.body.type === 'interactive')
      .map((x) => x.body.interactive as Interactive);

  test('3 buttons as reply buttons (titles cut to 20), links in the body; more as a list; the reply ids step the bot', async () => {
    const { org, hook } = await setup([
      node('a', {
        root: true,
        reply: { text: 'Welcome! Choose:', fileId: null },
        buttons: [
          { id: 'b1', text: 'Prices and delivery times', next: 'p' },
          { id: 'b2', text: 'Operator', next: 'h' },
          { id: 'b3', text: 'Hours', next: 'h' },
          { id: 'b9', text: 'Our site', next: null, url: 'https://shop.example/help' },
        ],
      }),
      node('p', {
        reply: { text: 'Which one?', fileId: null },
        buttons: ['One', 'Two', 'Three', 'Four', 'A very long fifth option title'].map((text, i) => ({
          id: `p${i}`,
          text,
          next: i === 4 ? 'h' : 'a',
        })),
      }),
      node('h', {
        reply: { text: 'Goodbye from the bot', fileId: null },
        actions: [{ id: 'f', kind: 'final', type: 'close' }],
      }),
    ]);
    const from = '447700900123';
    const start = wa.sent.length;
    const say = (type: string, body: Record<string, unknown>) =>
      wa.deliver(
        hook,
        wa.payload({
          contacts: [{ wa_id: from, profile: { name: 'Ann' } }],
          messages: [wa.message(from, type, body)],
        }),
      );
    assert.equal(await say('text', { text: { body: 'Hi' } }), 200);
    await settle(org, 2);
    await drainOutbox(s.app);
    const [first] = interactives(start);
    assert.ok(first, JSON.stringify(wa.sent.slice(start)));
    assert.equal(first.type, 'button');
    assert.deepEqual(
      first.action.buttons?.map((b) => [b.type, b.reply.id, b.reply.title]),
      [
        ['reply', 'b1', 'Prices and delivery…'],
        ['reply', 'b2', 'Operator'],
        ['reply', 'b3', 'Hours'],
      ],
    );
    assert.ok((first.action.buttons ?? []).every((b) => [...b.reply.title].length <= 20));
    assert.match(
      first.body.text,
      /^Welcome! Choose:\n\nOur site — http:\/\/localhost:3000\/bot-action\/[0-9a-f-]{36}$/,
    );

    // The client presses the first reply button: interactive.button_reply.id is the payload.
    const at = wa.sent.length;
    assert.equal(
      await say('interactive', {
        interactive: { type: 'button_reply', button_reply: { id: 'b1', title: 'Prices and delivery…' } },
      }),
      200,
    );
    let ms = await settle(org, 4);
    assert.equal(ms[2].text, 'Prices and delivery…');
    assert.equal(ms[3].text, 'Which one?');
    await drainOutbox(s.app);
    const [list] = interactives(at);
    assert.ok(list, JSON.stringify(wa.sent.slice(at)));
    assert.equal(list.type, 'list');
    assert.equal(list.body.text, 'Which one?');
    assert.equal(list.action.button, 'Choose');
    assert.deepEqual(
      list.action.sections?.[0].rows.map((r) => [r.id, r.title]),
      [
        ['p0', 'One'],
        ['p1', 'Two'],
        ['p2', 'Three'],
        ['p3', 'Four'],
        ['p4', 'A very long fifth optio…'],
      ],
    );

    // A list reply: list_reply.id is the payload; the bot ends (close).
    assert.equal(
      await say('interactive', {
        interactive: { type: 'list_reply', list_reply: { id: 'p4', title: 'A very long fifth optio…' } },
      }),
      200,
    );
    ms = await settle(org, 6);
    assert.equal(ms[5].text, 'Goodbye from the bot');
    await drainOutbox(s.app);
    assert.equal(wa.sent.at(-1)?.body.type, 'text', 'a reply without buttons is plain text');
  });

  test('the fake refuses what the Cloud API refuses: 4 reply buttons, a title over 20 characters', async () => {
    const post = (interactive: unknown) =>
      fetch(`${wa.baseUrl}/${wa.version}/${wa.phoneNumberId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${wa.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          to: '447700900999',
          type: 'interactive',
          interactive,
        }),
      });
    wa.message('447700900999', 'text', { text: { body: 'hi' } });
    const reply = (id: string, title: string) => ({ type: 'reply', reply: { id, title } });
    const four = await post({
      type: 'button',
      body: { text: 'x' },
      action: { buttons: ['1', '2', '3', '4'].map((i) => reply(i, i)) },
    });
    assert.equal(four.status, 400);
    const long = await post({
      type: 'button',
      body: { text: 'x' },
      action: { buttons: [reply('1', 'x'.repeat(21))] },
    });
    assert.equal(long.status, 400);
    const ok = await post({
      type: 'button',
      body: { text: 'x' },
      action: { buttons: [reply('1', 'x'.repeat(20))] },
    });
    assert.equal(ok.status, 200);
  });
});
