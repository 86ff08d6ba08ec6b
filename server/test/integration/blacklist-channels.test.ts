import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ImapFlow } from 'imapflow';
import { ManualClock } from '../../src/lib/clock.ts';
import { type Dovecot, dovecotMissing, startDovecot } from '../dovecot.ts';
import { type FakeDevino, startFakeDevino } from '../fakes/devino.ts';
import { type FakeMeta, startFakeMeta } from '../fakes/meta.ts';
import { type FakeViber, startFakeViber } from '../fakes/viber.ts';
import { type FakeVk, startFakeVk } from '../fakes/vk.ts';
import { type FakeWhatsApp, startFakeWhatsApp } from '../fakes/whatsapp.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { makeTeam } from './chats-fixtures.ts';

/**
 * Issue 14's blacklist on every messenger and e-mail channel: a blocked client's message, posted in the provider's
 * own format, is stored on their profile (in their latest dialog, left closed) and opens no dialog.
 */
type Say = (text: string) => Promise<void>;

const until = async <T>(what: string, probe: () => Promise<T | undefined | false>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** First message opens a dialog; the client is blocked; the second is kept on the profile, no dialog opens. */
async function blockedFlow(org: TestOrg, say: Say) {
  await say('first');
  const [chat] = await until('the first dialog', async () => {
    const items = (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items;
    return items.length ? items : undefined;
  });
  const clientId = chat.client.id as string;
  const block = await org.admin.api.post('/api/blacklist', { clientId });
  assert.equal(block.status, 200, JSON.stringify(block.body));
  await say('second');
  const texts = async () =>
    (await org.admin.api.get(`/api/clients/${clientId}/chats/${chat.id}/messages`)).body.entity.items.map(
      // An e-mail's text starts with its subject: its last line is the body.
      (m: { text: string }) => m.text.trim().split('\n').at(-1),
    );
  await until('the second message on the profile', async () => (await texts()).length === 2);
  assert.deepEqual(await texts(), ['first', 'second']);
  assert.deepEqual((await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items, []);
  const chats = (await org.admin.api.get(`/api/clients/${clientId}/chats`)).body.entity.items;
  assert.equal(chats.length, 1, 'no new dialog');
  assert.equal(chats[0].status, 'closed');
}

async function channel(org: TestOrg, body: Record<string, unknown>): Promise<string> {
  const teamId = await makeTeam(org, { method: 'manual' });
  const res = await org.admin.api.post('/api/channels', { name: `Ch ${body.type}`, teamId, ...body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entity.id;
}

describe('blacklist on the messenger channels', () => {
  let s: TestServer;
  let wa: FakeWhatsApp;
  let vb: FakeViber;
  let vk: FakeVk;
  let meta: FakeMeta;
  let vbb: FakeDevino;
  before(async () => {
    const clock = new ManualClock();
    wa = await startFakeWhatsApp({ now: () => clock.now().getTime() });
    vb = await startFakeViber();
    vk = await startFakeVk();
    meta = await startFakeMeta({ now: () => clock.now().getTime() });
    vbb = await startFakeDevino();
    s = await startTestServer({
      clock,
      env: {
        WHATSAPP_API_BASE_URL: wa.baseUrl,
        VIBER_API_BASE_URL: vb.baseUrl,
        VK_API_BASE_URL: vk.baseUrl,
        META_GRAPH_BASE_URL: meta.baseUrl,
        META_OAUTH_BASE_URL: meta.baseUrl,
        META_APP_ID: meta.appId,
        META_APP_SECRET: meta.appSecret,
        META_VERIFY_TOKEN: 'meta-verify-token-1',
        DEVINO_VIBER_API_BASE_URL: vbb.baseUrl,
      },
    });
    vb.reach = (url) => url.replace('http://localhost:3000', s.url);
    vbb.reach = (url) => url.replace('http://localhost:3000', s.url);
  });
  after(async () => {
    await s.close();
    await Promise.all([wa.close(), vb.close(), vk.close(), meta.close(), vbb.close()]);
  });

  test('WhatsApp', async () => {
    const org = await createOrganisation(s);
    const id = await channel(org, {
      type: 'whatsapp',
      phoneNumberId: wa.phoneNumberId,
      wabaId: wa.wabaId,
      accessToken: wa.accessToken,
      appSecret: wa.appSecret,
      verifyToken: 'my-verify-token-1',
    });
    await blockedFlow(org, async (text) => {
      const payload = wa.payload({
        contacts: [{ profile: { name: 'Troll' }, wa_id: '79005550011' }],
        messages: [wa.message('79005550011', 'text', { text: { body: text } })],
      });
      assert.equal(await wa.deliver(`${s.url}/api/webhooks/whatsapp/${id}`, payload), 200);
    });
  });

  test('Viber bot', async () => {
    const org = await createOrganisation(s);
    const id = await channel(org, { type: 'viber_bot', token: vb.token });
    await blockedFlow(org, async (text) => {
      const event = vb.message({ id: 'troll=', name: 'Troll' }, { type: 'text', text });
      assert.equal(await vb.deliver(`${s.url}/api/webhooks/viber_bot/${id}`, event), 200);
    });
  });

  test('VK community bot', async () => {
    const org = await createOrganisation(s);
    const id = await channel(org, {
      type: 'vk_bot',
      groupId: String(vk.groupId),
      token: vk.token,
      secret: vk.secret,
      confirmation: vk.confirmation,
    });
    await blockedFlow(org, async (text) => {
      const res = await vk.deliver(`${s.url}/api/webhooks/vk_bot/${id}`, vk.messageNew(777001, { text }));
      assert.equal(res.status, 200);
      assert.equal(res.text, 'ok');
    });
  });

  for (const type of ['instagram', 'facebook'] as const) {
    test(type === 'instagram' ? 'Instagram' : 'Facebook Messenger', async () => {
      const org = await createOrganisation(s);
      const start = await org.admin.api.get(`/api/channels/oauth/start?type=${type}`);
      const atMeta = await fetch(new URL(start.body.entity.url), { redirect: 'manual' });
      const back = new URL(atMeta.headers.get('location') as string);
      const ours = await fetch(`${s.url}${back.pathname}${back.search}`, { redirect: 'manual' });
      const grant = new URL(ours.headers.get('location') as string, 'http://x').searchParams.get('grant');
      const id = await channel(org, { type, grant, pageId: meta.pageId });
      const object = type === 'instagram' ? 'instagram' : 'page';
      await blockedFlow(org, async (text) => {
        const payload = meta.payload(object, [meta.message(object, '9001002', { text })]);
        assert.equal(await meta.deliver(`${s.url}/api/webhooks/${type}/${id}`, payload), 200);
      });
    });
  }

  test('Viber business (Devino Telecom, Russia)', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      name: 'Ch viber',
      teamId,
      type: 'viber',
      region: 'ru',
      login: vbb.login,
      password: vbb.password,
      serviceId: vbb.subject,
      phone: '+74951234567',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const url = `${s.url}${res.body.entity.inboundUrl}?key=${res.body.entity.inboundKey}`;
    await blockedFlow(org, async (text) => {
      assert.equal(await vbb.reply([vbb.replyItem('79005550022', text)], url), 200);
    });
  });
});

describe('blacklist on the e-mail channel', { skip: dovecotMissing() }, () => {
  let s: TestServer;
  let dovecot: Dovecot;
  before(async () => {
    dovecot = await startDovecot();
    dovecot.addUsers(['blocked-box@shop.test'], 'imap-secret');
    s = await startTestServer({ env: { EMAIL_TIMEOUT_MS: '5000' } });
  });
  after(async () => {
    await s?.close();
    await dovecot?.close();
  });

  test('E-mail', async () => {
    const org = await createOrganisation(s);
    const address = 'blocked-box@shop.test';
    // Connecting checks the SMTP login too: a local sink.
    const { startSmtpSink } = await import('../smtp-sink.ts');
    const sink = await startSmtpSink({ users: { [address]: 'smtp-secret' } });
    try {
      await channel(org, {
        type: 'email',
        address,
        receive: {
          host: dovecot.host,
          port: dovecot.port,
          secure: false,
          login: address,
          password: 'imap-secret',
          protocol: 'imap',
        },
        send: {
          host: '127.0.0.1',
          port: sink.port,
          secure: false,
          login: address,
          password: 'smtp-secret',
          protocol: 'smtp',
        },
      });
      let n = 0;
      await blockedFlow(org, async (text) => {
        const client = new ImapFlow({
          host: dovecot.host,
          port: dovecot.port,
          secure: false,
          auth: { user: address, pass: 'imap-secret' },
          logger: false,
        });
        await client.connect();
        await client.append(
          'INBOX',
          Buffer.from(
            [
              'From: Troll <troll@example.com>',
              `To: ${address}`,
              `Subject: Message ${++n}`,
              `Message-ID: <bl-${n}-${Date.now()}@example.com>`,
              `Date: ${new Date().toUTCString()}`,
              'Content-Type: text/plain; charset=utf-8',
              '',
              text,
              '',
            ].join('\r\n'),
          ),
        );
        await client.logout();
      });
    } finally {
      await sink.close();
    }
  });
});
