import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeViberBusiness, startFakeViberBusiness } from '../fakes/viber-business.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';

/** Viber business through a regional delivery provider, end to end against a fake of its HTTP API. */
describe('Viber business channel (regional delivery provider)', () => {
  let s: TestServer;
  let vb: FakeViberBusiness;
  before(async () => {
    vb = await startFakeViberBusiness();
    s = await startTestServer({ env: { VIBER_BUSINESS_RU_BASE_URL: vb.baseUrl } });
    vb.reach = (url) => url.replace('http://localhost:3000', s.url);
  });
  after(async () => {
    await s.close();
    await vb.close();
  });

  const body = (teamId: string, extra: Record<string, unknown> = {}) => ({
    type: 'viber',
    name: `Viber business ${Math.random().toString(36).slice(2, 8)}`,
    teamId,
    region: 'ru',
    login: vb.login,
    password: vb.password,
    serviceId: vb.serviceId,
    phone: '+7 (495) 123-45-67',
    ...extra,
  });
  async function connect(): Promise<{ org: TestOrg; channelId: string }> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', body(teamId));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { org, channelId: res.body.entity.id };
  }

  test('connecting: required fields, the account checked with Basic credentials, the service id, the callback set', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (extra: Record<string, unknown>) => org.admin.api.post('/api/channels', body(teamId, extra));
    const empty = await post({ login: '', password: '', serviceId: '', phone: '', region: undefined });
    assert.equal(empty.status, 400);
    for (const f of ['login', 'password', 'serviceId', 'phone', 'region'])
      assert.equal(empty.body.error.fields[f], 'Please fill in all required fields', f);
    assert.equal((await post({ phone: '12' })).body.error.fields.phone, 'Phone number specified incorrectly');
    const wrongPassword = await post({ password: 'nope' });
    assert.equal(wrongPassword.status, 400);
    assert.equal(wrongPassword.body.error.fields.password, 'Password specified incorrectly');
    const wrongService = await post({ serviceId: 'someone_else' });
    assert.equal(wrongService.status, 400);
    assert.equal(wrongService.body.error.fields.serviceId, 'Incorrect token/ID specified');
    const noRegion = await post({ region: 'by' });
    assert.equal(noRegion.status, 502, 'Belarus has no provider address in this installation');
    assert.equal(noRegion.body.error.details.reason, 'unreachable');
    vb.failNext('/v1/services/', 500, 'internal');
    const hookRefused = await post({});
    assert.equal(hookRefused.status, 502);
    assert.equal(hookRefused.body.error.details.reason, 'webhook');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing kept');

    const { org: org2, channelId } = await connect();
    assert.equal(vb.callback?.url, `http://localhost:3000/api/webhooks/viber/${channelId}`);
    const shown = (await org2.admin.api.get(`/api/channels/${channelId}`)).body.entity;
    assert.deepEqual(shown.settings, {
      region: 'ru',
      login: vb.login,
      serviceId: vb.serviceId,
      phone: '+74951234567',
      serviceName: 'Shop Viber business',
    });
    assert.ok(!JSON.stringify(shown).includes(vb.password), 'the password is write-only');
    assert.ok(!JSON.stringify(shown).includes(vb.callback?.secret ?? '-'), 'the callback secret too');
    // Deactivating removes the callback; activating sets it again with the same secret.
    const secret = vb.callback?.secret;
    assert.equal(
      (await org2.admin.api.patch(`/api/channels/${channelId}`, { status: 'inactive' })).status,
      200,
    );
    assert.equal(vb.callback, null);
    assert.equal(
      (await org2.admin.api.patch(`/api/channels/${channelId}`, { status: 'active' })).status,
      200,
    );
    assert.equal((vb.callback as FakeViberBusiness['callback'])?.secret, secret);
    // Editing without the password keeps it.
    const renamed = await org2.admin.api.patch(`/api/channels/${channelId}`, { phone: '+74950000000' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.entity.settings.phone, '+74950000000');
  });

  test('callbacks are checked by signature; text, picture and file; a repeated id changes nothing', async () => {
    const { org } = await connect();
    const hello = vb.message('+7 916 000-11-22', { text: 'Здравствуйте' }, 'Anna Petrova');
    assert.equal(await vb.deliver(hello, null), 401);
    assert.equal(await vb.deliver(hello, `sha256=${'0'.repeat(64)}`), 401);
    assert.equal((await chatsOf(org)).length, 0, 'nothing stored');
    assert.equal(await vb.deliver(hello), 200);
    assert.equal(await vb.deliver(hello), 200, 'a retry is answered too');
    const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]);
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 9]);
    assert.equal(
      await vb.deliver(
        vb.message('79160001122', { text: 'photo', image: { url: vb.addFile(jpg, 'image/jpeg') } }),
      ),
      200,
    );
    assert.equal(
      await vb.deliver(
        vb.message('79160001122', {
          file: { url: vb.addFile(pdf, 'application/pdf'), name: 'invoice.pdf', size: 5 },
        }),
      ),
      200,
    );
    assert.equal(await vb.deliver({ event: 'something_new' }), 200, 'unknown events are ignored');
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1, 'one client by phone');
    assert.equal(chats[0].client.name, 'Anna Petrova');
    const got = await messagesOf(org, chats[0].id);
    assert.deepEqual(
      got.map((m: { text: string }) => m.text),
      ['Здравствуйте', 'photo', ''],
    );
    const [pic, doc] = [got[1].attachments[0], got[2].attachments[0]];
    assert.equal(doc.name, 'invoice.pdf');
    assert.deepEqual(new Uint8Array(await (await fetch(s.url + pic.url)).arrayBuffer()), jpg);
    assert.deepEqual(new Uint8Array(await (await fetch(s.url + doc.url)).arrayBuffer()), pdf);
    const malformed = await vb.deliver({ event: 'message', text: 'no phone' });
    assert.equal(malformed, 400);
  });

  test('replies go to the phone with the picture; delivery reports; rate limit; a phone without Viber', async () => {
    const { org } = await connect();
    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    assert.equal(await vb.deliver(vb.message('375291234567', { text: 'Добрый день' })), 200);
    const chatId = (await chatsOf(org))[0].id;
    const { byId, waitStatus, send, sendRateLimited } = await replyTo(s, org, chatId);
    const text = await send({ text: 'Здравствуйте, чем помочь?' });
    await waitStatus(text, 'sent');
    const sent = vb.sent.at(-1);
    assert.deepEqual(
      { phone: sent?.body.phone, serviceId: sent?.body.serviceId, text: sent?.body.text },
      { phone: '375291234567', serviceId: vb.serviceId, text: 'Здравствуйте, чем помочь?' },
    );
    assert.equal(await vb.deliver(vb.status(sent?.messageId ?? '', 'delivered')), 200);
    await waitStatus(text, 'delivered');
    assert.equal(await vb.deliver(vb.status(sent?.messageId ?? '', 'read')), 200);
    await waitStatus(text, 'read');

    const key = await s.db.tx((q) =>
      saveFile(s.app, q, org.id, Buffer.from([0xff, 0xd8, 0xff, 1]), 'image/jpeg'),
    );
    const pic = await send({
      text: 'Ваш чек',
      attachments: [
        { url: `http://localhost:3000/api/files/${key}`, name: 'r.jpg', contentType: 'image/jpeg' },
      ],
    });
    await waitStatus(pic, 'sent');
    assert.deepEqual(
      { text: vb.sent.at(-1)?.body.text, imageUrl: vb.sent.at(-1)?.body.imageUrl },
      { text: 'Ваш чек', imageUrl: `http://localhost:3000/api/files/${key}` },
    );
    const long = await send({ text: 'x'.repeat(1500) });
    await waitStatus(long, 'sent');
    assert.deepEqual(
      vb.sent.slice(-2).map((m) => String(m.body.text).length),
      [1000, 500],
      'split at the provider limit',
    );

    vb.failNext('/v1/messages', 429, 'rate_limited');
    await sendRateLimited({ text: 'Slow' }, 31_000);

    vb.noViber.add('375291234567');
    const gone = await send({ text: 'Are you there?' });
    await waitStatus(gone, 'undelivered');
    assert.equal((await byId(gone)).statusReason, 'not_viber_user: not viber user');
    vb.noViber.delete('375291234567');
    const later = await send({ text: 'Later' });
    await waitStatus(later, 'sent');
    assert.equal(await vb.deliver(vb.status(vb.sent.at(-1)?.messageId ?? '', 'expired', 'TTL expired')), 200);
    await waitStatus(later, 'undelivered');
    assert.equal((await byId(later)).statusReason, 'TTL expired');
    // Editing a sent message is refused: the provider cannot change it.
    const edit = await org.admin.api.patch(`/api/chats/${chatId}/messages/${later}`, { text: 'Changed' });
    assert.equal(edit.status, 409);
  });
});
