import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MESSAGE_TEXT_MAX } from '@smartconnect/contracts';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram.ts';
import { type FakeViber, startFakeViber } from '../fakes/viber.ts';
import { type FakeVk, startFakeVk } from '../fakes/vk.ts';
import { type FakeWhatsApp, startFakeWhatsApp } from '../fakes/whatsapp.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf } from '../replies.ts';
import { inbound, makeChannel, makeTeam, type TestChannel } from './chats-fixtures.ts';

/**
 * Issue 29, finding 1: a client name of 200,000 letters, from any channel, cannot stall ingest, for its organisation
 * or another; and a message the database refuses is stored once as a notice rather than refused forever. (The
 * figures at the sizes: bench/ingest-isolation.ts.)
 */
const HUGE = 200_000;
const hugeName = (letter: string) => letter.repeat(HUGE);

describe('ingest isolation: hostile names and poison messages', () => {
  let s: TestServer;
  let tg: FakeTelegram;
  let vb: FakeViber;
  let vk: FakeVk;
  let wa: FakeWhatsApp;
  before(async () => {
    [tg, vb, vk, wa] = await Promise.all([
      startFakeTelegram(),
      startFakeViber(),
      startFakeVk(),
      startFakeWhatsApp(),
    ]);
    vk.perSecond = 1_000;
    s = await startTestServer({
      env: {
        TELEGRAM_API_BASE_URL: tg.baseUrl,
        VIBER_API_BASE_URL: vb.baseUrl,
        VK_API_BASE_URL: vk.baseUrl,
        WHATSAPP_API_BASE_URL: wa.baseUrl,
        INGEST_STATEMENT_TIMEOUT_MS: '1000',
      },
    });
    vb.reach = (url) => url.replace('http://localhost:3000', s.url);
  });
  after(async () => {
    await s.close();
    await Promise.all([tg.close(), vb.close(), vk.close(), wa.close()]);
  });

  async function channel(org: TestOrg, body: Record<string, unknown>): Promise<string> {
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      name: `${body.type} ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      ...body,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity.id;
  }

  /** Another organisation's messages, one after the other: how long each took to be answered (ms). */
  async function timed(other: TestChannel, count: number, tag: string): Promise<number[]> {
    const took: number[] = [];
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const res = await inbound(s, other, { client: `${tag}-${i % 3}`, text: `${tag} ${i}` });
      took.push(performance.now() - t0);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    return took;
  }
  const p99 = (xs: number[]) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.99) - 1)];

  test('200,000-letter names through every webhook channel and the widget: names bounded, the rest kept, another organisation unaffected', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const otherChannel = await makeChannel(other, await makeTeam(other));
    const tgId = await channel(org, { type: 'telegram', token: tg.token, updatesVia: 'webhook' });
    const tgSecret = tg.webhook?.secretToken as string;
    const vbId = await channel(org, { type: 'viber_bot', token: vb.token });
    const vkId = await channel(org, {
      type: 'vk_bot',
      groupId: String(vk.groupId),
      token: vk.token,
      secret: vk.secret,
      confirmation: vk.confirmation,
    });
    const waId = await channel(org, {
      type: 'whatsapp',
      phoneNumberId: wa.phoneNumberId,
      wabaId: wa.wabaId,
      accessToken: wa.accessToken,
      appSecret: wa.appSecret,
      verifyToken: 'my-verify-token-1',
    });
    const apiChannel = await makeChannel(org, await makeTeam(org));
    const siteId = await channel(org, { type: 'site_chat' });
    const hook = (type: string, id: string) => `${s.url}/api/webhooks/${type}/${id}`;
    // VK's updates carry no name: users.get tells it, in an answer our client reads at most 64 KiB of.
    vk.users.set(4242, { first_name: 'в'.repeat(20_000), last_name: 'Петров' });

    // Warm up, then the other organisation's normal time.
    await timed(otherChannel, 5, 'warm');
    const baseline = await timed(otherChannel, 20, 'base');

    const attacks = async () => {
      const answers: [string, number][] = [];
      for (let i = 0; i < 2; i++) {
        answers.push([
          'telegram',
          await tg.deliver(
            tg.updates.text({ id: 700 + i, first_name: hugeName('ж'), username: 'u'.repeat(100) }, `tg ${i}`),
            hook('telegram', tgId),
            tgSecret,
          ),
        ]);
        answers.push([
          'viber_bot',
          await vb.deliver(
            hook('viber_bot', vbId),
            vb.message({ id: `viber-user-${i}=`, name: hugeName('ш') }, { type: 'text', text: `viber ${i}` }),
          ),
        ]);
        answers.push([
          'vk_bot',
          (await vk.deliver(hook('vk_bot', vkId), vk.messageNew(4242, { text: `vk ${i}` }))).status,
        ]);
        answers.push([
          'whatsapp',
          await wa.deliver(
            hook('whatsapp', waId),
            wa.payload({
              contacts: [{ profile: { name: hugeName('щ') }, wa_id: `7900123456${i}` }],
              messages: [wa.message(`7900123456${i}`, 'text', { text: { body: `wa ${i}` } })],
            }),
          ),
        ]);
        // The API channel's schema refuses a name over 255 characters, at once and with its field.
        const api = await inbound(s, apiChannel, { client: `api-${i}`, name: hugeName('a') });
        answers.push(['api', api.status]);
        assert.equal(api.body.error?.fields?.['client.name'], 'Name specified incorrectly');
        // The widget takes a visitor's name of at most 64 characters: a longer one is refused (its body is over the
        // widget's limit first).
        const visitor = (await s.api.post(`/api/widget/${siteId}/visitors`)).body.entity;
        const said = await s.api.call(
          'POST',
          `/api/widget/${siteId}/messages?token=${encodeURIComponent(visitor.token)}`,
          JSON.stringify({ clientMessageId: `w-${i}`, text: `widget ${i}`, name: hugeName('z') }),
          { 'content-type': 'text/plain' },
        );
        answers.push(['site_chat', said.status]);
      }
      return answers;
    };
    const [answers, during] = await Promise.all([attacks(), timed(otherChannel, 20, 'during')]);
    for (const [type, status] of answers)
      if (type === 'site_chat') assert.ok([400, 413].includes(status), `site_chat: ${status}`);
      else assert.equal(status, type === 'api' ? 400 : 200, type);

    // Another organisation's messages answered within their normal time: 2x its p99, or 1.5 s on a machine loaded
    // by other tests (the names of the previous code held every organisation for seconds to minutes; the 2x figure
    // on a quiet machine is bench/ingest-isolation.ts's).
    const limit = Math.max(2 * p99(baseline), 1_500);
    assert.ok(
      p99(during) <= limit,
      `p99 ${p99(during).toFixed(0)} ms during the attack, limit ${limit.toFixed(0)} ms`,
    );

    // Each provider's name cut to its bound; what was cut is at the end of the message's text.
    const chats = await chatsOf(org);
    const byText = new Map<string, { name: string; text: string }>();
    for (const chat of chats)
      for (const m of await messagesOf(org, chat.id))
        byText.set(m.text.split('\n')[0], { name: chat.client.name, text: m.text });
    for (const [first, max] of [
      ['tg 0', 129],
      ['viber 0', 255],
      ['vk 0', 255],
      ['wa 0', 255],
    ] as const) {
      const got = byText.get(first);
      assert.ok(got, `${first} stored`);
      assert.ok(
        got.name.length <= max && got.name.length >= max - 10,
        `${first}: name of ${got.name.length}`,
      );
      assert.ok(got.name.endsWith('…'));
      // (VK's name comes from users.get, cut where its answer is cached: no rest to keep.)
      if (first !== 'vk 0') assert.match(got.text, /\n\[Name: /);
      assert.ok(got.text.length <= MESSAGE_TEXT_MAX);
    }
    // The merge suggestions of that organisation still answer at once.
    const t0 = performance.now();
    const suggestions = await org.admin.api.get('/api/clients/merge/suggestions');
    assert.equal(suggestions.status, 200, JSON.stringify(suggestions.body));
    assert.ok(performance.now() - t0 < 2_000);
  });

  test('a message the database refuses is stored once as a notice; the rest of its batch is stored as usual', async () => {
    const org = await createOrganisation(s);
    const ch = await makeChannel(org, await makeTeam(org));
    // A planted fault: the database refuses this client's name (a data exception), as a poison row would be.
    await s.db.exec(`
      create or replace function test_poison_name() returns trigger language plpgsql as $$
      begin
        if new.name = 'Poison Pill' then raise exception 'poisoned' using errcode = '22023'; end if;
        if new.name = 'Slow Pill' then perform pg_sleep(3); end if;
        return new;
      end $$;
      drop trigger if exists test_poison_name on clients;
      create trigger test_poison_name before insert or update on clients for each row execute function test_poison_name();
    `);
    try {
      const sent = await Promise.all([
        inbound(s, ch, { client: 'good-1', name: 'Good One', text: 'first', externalMessageId: 'g1' }),
        inbound(s, ch, {
          client: 'bad',
          name: 'Poison Pill',
          text: 'the poisoned text',
          externalMessageId: 'p1',
        }),
        inbound(s, ch, { client: 'good-2', name: 'Good Two', text: 'second', externalMessageId: 'g2' }),
      ]);
      for (const r of sent) assert.equal(r.status, 200, JSON.stringify(r.body));
      // The provider's retry of the poison message is a duplicate of the notice, not a second try.
      const retry = await inbound(s, ch, {
        client: 'bad',
        name: 'Poison Pill',
        text: 'x',
        externalMessageId: 'p1',
      });
      assert.equal(retry.status, 200);
      assert.equal(retry.body.entity.duplicate, true);
      const chats = await chatsOf(org);
      assert.equal(chats.length, 3);
      const poisoned = chats.find((c: { client: { name: string } }) => c.client.name === 'bad');
      assert.ok(poisoned, 'the notice names the client by their id');
      const [notice] = await messagesOf(org, poisoned.id);
      assert.equal(
        notice.text,
        '[This message could not be stored as received: the database refused it (22023)]\nthe poisoned text',
      );

      if (s.db.kind === 'postgres') {
        // A statement that runs past the ingest timeout is cancelled; the message is stored as a notice, and
        // another organisation's message waits at most for that timeout.
        const other = await createOrganisation(s);
        const otherChannel = await makeChannel(other, await makeTeam(other));
        const slow = inbound(s, ch, {
          client: 'slow',
          name: 'Slow Pill',
          text: 'slowly',
          externalMessageId: 's1',
        });
        await new Promise((r) => setTimeout(r, 50));
        const t0 = performance.now();
        assert.equal((await inbound(s, otherChannel, { text: 'meanwhile' })).status, 200);
        assert.ok(performance.now() - t0 < 2_500, 'not held by the slow statement');
        assert.equal((await slow).status, 200);
        const slowChat = (await chatsOf(org)).find(
          (c: { client: { name: string } }) => c.client.name === 'slow',
        );
        assert.ok(slowChat);
        assert.equal(
          (await messagesOf(org, slowChat.id))[0].text,
          '[This message could not be stored as received: it took too long to store]\nslowly',
        );
      }
    } finally {
      await s.db.exec('drop trigger if exists test_poison_name on clients');
    }
  });
});
