import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeWhatsAppBsp, startFakeWhatsAppBsp } from '../fakes/whatsapp-bsp.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';

/** WhatsApp through a business solution provider (login and password), end to end against a fake of its API. */
describe('WhatsApp channel through a business solution provider', () => {
  let s: TestServer;
  let bsp: FakeWhatsAppBsp;
  before(async () => {
    bsp = await startFakeWhatsAppBsp();
    s = await startTestServer({ env: { WHATSAPP_BSP_BASE_URL: bsp.baseUrl } });
    bsp.reach = (url) => url.replace('http://localhost:3000', s.url);
  });
  after(async () => {
    await s.close();
    await bsp.close();
  });

  const body = (teamId: string, extra: Record<string, unknown> = {}) => ({
    type: 'whatsapp',
    provider: 'bsp',
    name: `WhatsApp BSP ${Math.random().toString(36).slice(2, 8)}`,
    teamId,
    phone: `+${bsp.waNumber}`,
    login: bsp.login,
    password: bsp.password,
    ...extra,
  });
  /** A connected channel; the admin enters the callback URL with its key at the provider. */
  async function connect(): Promise<{ org: TestOrg; channelId: string; key: string }> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', body(teamId));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const key = res.body.entity.inboundKey as string;
    bsp.callbackUrl = `http://localhost:3000${res.body.entity.inboundUrl}?key=${encodeURIComponent(key)}`;
    return { org, channelId: res.body.entity.id, key };
  }

  test('connecting: required fields, the credentials checked, the password never answered, the key shown once', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (extra: Record<string, unknown>) => org.admin.api.post('/api/channels', body(teamId, extra));
    const empty = await post({ login: '', password: '', phone: '' });
    assert.equal(empty.status, 400);
    for (const f of ['login', 'password', 'phone'])
      assert.equal(empty.body.error.fields[f], 'Please fill in all required fields', f);
    const missing = await post({ login: undefined, password: undefined, phone: undefined });
    assert.equal(missing.status, 400);
    for (const f of ['login', 'password', 'phone'])
      assert.equal(missing.body.error.fields[f], 'Please fill in all required fields', f);
    const wrong = await post({ password: 'nope' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error.fields.password, 'Password specified incorrectly');
    bsp.failNext(503);
    const down = await post({});
    assert.equal(down.status, 502);
    assert.equal(down.body.error.details.reason, 'unreachable');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing kept');

    const { org: org2, channelId, key } = await connect();
    assert.ok(key.length >= 32);
    const optIn = bsp.calls.at(-1);
    assert.deepEqual(
      { method: optIn?.method, phone: optIn?.phone_number, v: optIn?.v, format: optIn?.format },
      { method: 'OPT_IN', phone: bsp.waNumber, v: '1.1', format: 'json' },
    );
    const shown = (await org2.admin.api.get(`/api/channels/${channelId}`)).body.entity;
    assert.equal(shown.settings.provider, 'bsp');
    assert.equal(shown.settings.phone, `+${bsp.waNumber}`);
    assert.equal(shown.settings.login, bsp.login);
    assert.ok(!JSON.stringify(shown).includes(bsp.password), 'the password is write-only');
    assert.ok(!JSON.stringify(shown).includes(key), 'the key is shown once');
    // Editing without the password keeps it and the key; the provider cannot be switched.
    const renamed = await org2.admin.api.patch(`/api/channels/${channelId}`, { login: bsp.login });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    const switched = await org2.admin.api.patch(`/api/channels/${channelId}`, { provider: 'cloud' });
    assert.equal(switched.status, 400);
    assert.equal(switched.body.error.fields.provider, 'Value specified incorrectly');
    assert.equal(await bsp.deliver(bsp.message('447700900123', { text: 'still here' })), 200);
  });

  test('callbacks need the key; text, image and document; a repeated message id changes nothing', async () => {
    const { org } = await connect();
    const hello = bsp.message('447700900123', { text: 'Hello there' }, 'Anna Smith');
    assert.equal(await bsp.deliver(hello, { key: 'wrong-key' }), 401);
    assert.equal(await bsp.deliver(hello, { key: '' }), 401);
    assert.equal((await chatsOf(org)).length, 0, 'nothing stored');
    assert.equal(await bsp.deliver(hello), 200);
    assert.equal(await bsp.deliver(hello), 200, 'a retry is answered too');
    const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]);
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 9]);
    const image = JSON.stringify({
      url: bsp.addFile(jpg, 'image/jpeg'),
      mime_type: 'image/jpeg',
      caption: 'photo',
    });
    assert.equal(await bsp.deliver(bsp.message('447700900123', { type: 'image', image })), 200);
    const document = {
      url: bsp.addFile(pdf, 'application/pdf'),
      mime_type: 'application/pdf',
      name: 'invoice.pdf',
    };
    assert.equal(
      await bsp.deliver(bsp.message('447700900123', { type: 'document', document } as never), { json: true }),
      200,
      'JSON callbacks too',
    );
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1, 'one client by phone');
    assert.equal(chats[0].client.name, 'Anna Smith');
    const got = await messagesOf(org, chats[0].id);
    assert.deepEqual(
      got.map((m: { text: string }) => m.text),
      ['Hello there', 'photo', ''],
    );
    const [pic, doc] = [got[1].attachments[0], got[2].attachments[0]];
    assert.equal(doc.name, 'invoice.pdf');
    assert.ok(pic.url.startsWith('/api/files/'), 'kept in our storage');
    assert.deepEqual(new Uint8Array(await (await fetch(s.url + pic.url)).arrayBuffer()), jpg);
    assert.deepEqual(new Uint8Array(await (await fetch(s.url + doc.url)).arrayBuffer()), pdf);
  });

  test("a BSP channel's chats offer no templates: the chat DTO says so, the list is empty, none is sent", async () => {
    const { org } = await connect();
    assert.equal(await bsp.deliver(bsp.message('447700900666', { text: 'Hello' })), 200);
    const [chat] = await chatsOf(org);
    assert.equal(chat.channel.type, 'whatsapp');
    assert.equal(chat.channel.templates, false, 'the list item');
    const one = await org.admin.api.get(`/api/chats/${chat.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.entity.channel.templates, false, 'the chat');
    const listed = await org.admin.api.get(`/api/chats/${chat.id}/provider-templates`);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.entity.items, []);
    const sent = await org.admin.api.post(`/api/chats/${chat.id}/template-messages`, {
      templateId: 'any',
      variables: [],
    });
    assert.equal(sent.body.code, 'templateNotFoundException');
  });

  test('replies: text and image out, delivery reports, failure with its reason, rate limit, the 24-hour rule', async () => {
    const { org } = await connect();
    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    assert.equal(await bsp.deliver(bsp.message('447700900555', { text: 'Hi' })), 200);
    const chatId = (await chatsOf(org))[0].id;
    const { byId, waitStatus, send, sendRateLimited } = await replyTo(s, org, chatId);
    const text = await send({ text: 'How can I help?' });
    await waitStatus(text, 'sent');
    const sent = bsp.sent.at(-1);
    assert.deepEqual(
      { to: sent?.fields.send_to, type: sent?.fields.msg_type, msg: sent?.fields.msg },
      { to: '447700900555', type: 'TEXT', msg: 'How can I help?' },
    );
    const id = sent?.id ?? '';
    assert.equal(await bsp.deliver(bsp.dlr(id, 'SENT')), 200);
    assert.equal(await bsp.deliver(bsp.dlr(id, 'DELIVERED')), 200);
    await waitStatus(text, 'delivered');
    assert.equal(await bsp.deliver(bsp.dlr(id, 'READ')), 200);
    await waitStatus(text, 'read');
    assert.equal(await bsp.deliver(bsp.dlr(id, 'DELIVERED')), 200, 'a late duplicate');
    assert.equal((await byId(text)).status, 'read', 'changes nothing');

    const key = await s.db.tx((q) =>
      saveFile(s.app, q, org.id, Buffer.from([0xff, 0xd8, 0xff, 1]), 'image/jpeg'),
    );
    const pic = await send({
      text: 'Your receipt',
      attachments: [
        { url: `http://localhost:3000/api/files/${key}`, name: 'r.jpg', contentType: 'image/jpeg' },
      ],
    });
    await waitStatus(pic, 'sent');
    const img = bsp.sent.at(-1)?.fields;
    assert.deepEqual(
      { type: img?.msg_type, url: img?.media_url, caption: img?.caption },
      { type: 'IMAGE', url: `http://localhost:3000/api/files/${key}`, caption: 'Your receipt' },
    );

    const failing = await send({ text: 'Are you there?' });
    await waitStatus(failing, 'sent');
    assert.equal(
      await bsp.deliver(bsp.dlr(bsp.sent.at(-1)?.id ?? '', 'FAILED', 'User is not on WhatsApp', '1002')),
      200,
    );
    await waitStatus(failing, 'undelivered');
    assert.equal((await byId(failing)).statusReason, '1002: User is not on WhatsApp');

    bsp.failNext(429);
    await sendRateLimited({ text: 'Slow' }, 31_000);

    // The provider's own window (175): Undelivered with the reason, not retried.
    bsp.sessionEnded.add('447700900555');
    const racing = await send({ text: 'Late' });
    await waitStatus(racing, 'undelivered');
    assert.match((await byId(racing)).statusReason, /^24-hour session ended \(175: /);
    bsp.sessionEnded.delete('447700900555');

    // Our 24-hour rule holds for this provider too; no templates are offered for it.
    s.clock.advance(25 * 3600_000);
    const late = await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'Too late' });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'sessionEndedException');
    const templates = await org.admin.api.get('/api/whatsapp/templates');
    if (templates.status === 200) assert.equal(templates.body.entity.items?.length ?? 0, 0);
  });
});
