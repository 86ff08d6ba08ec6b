import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEVINO } from '../../src/channels/viber/devino.ts';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { receiveOwnEvents } from '../../src/modules/channels/receive.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeDevino, startFakeDevino } from '../fakes/devino.ts';
import { type FakeSmsBy, startFakeSmsBy } from '../fakes/smsby.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { makeTeam } from './chats-fixtures.ts';
import { until } from './cluster-fixtures.ts';

/**
 * Viber business messages through the region's real provider: Russia through a fake of Devino Telecom's Viber HTTP
 * API (Basic auth, /send, /status polled by the job runner on the test clock, replies POSTed to our address),
 * Belarus through a fake of SMS.by's API (token, getVibernames, sendQuickViberMessage).
 */
describe('Viber business channel (Devino Telecom, SMS.by)', () => {
  let s: TestServer;
  let devino: FakeDevino;
  let smsby: FakeSmsBy;
  before(async () => {
    [devino, smsby] = await Promise.all([startFakeDevino(), startFakeSmsBy()]);
    s = await startTestServer({
      env: { DEVINO_VIBER_API_BASE_URL: devino.baseUrl, SMSBY_API_BASE_URL: smsby.baseUrl },
    });
    devino.reach = (url) => url.replace('http://localhost:3000', s.url);
  });
  after(async () => {
    await s.close();
    await Promise.all([devino.close(), smsby.close()]);
  });

  const russia = (teamId: string, extra: Record<string, unknown> = {}) => ({
    type: 'viber',
    name: `Viber RU ${Math.random().toString(36).slice(2, 8)}`,
    teamId,
    region: 'ru',
    login: devino.login,
    password: devino.password,
    serviceId: devino.subject,
    phone: '+7 (495) 123-45-67',
    ...extra,
  });
  const belarus = (teamId: string, extra: Record<string, unknown> = {}) => ({
    type: 'viber',
    name: `Viber BY ${Math.random().toString(36).slice(2, 8)}`,
    teamId,
    region: 'by',
    login: smsby.login,
    password: smsby.token,
    serviceId: smsby.viberNameId,
    phone: '+375 29 111-22-33',
    ...extra,
  });
  type Setup = { org: TestOrg; channelId: string; replyUrl: string };
  async function connect(extra: Record<string, unknown> = {}): Promise<Setup> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', russia(teamId, extra));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { id, inboundUrl, inboundKey } = res.body.entity;
    devino.replyUrl = `http://localhost:3000${inboundUrl}?key=${inboundKey}`;
    return { org, channelId: id, replyUrl: devino.replyUrl };
  }
  /** Waits until the channel's status poll has ended, then moves the clock to its next pass and waits for that. */
  const pollRow = async (channelId: string) =>
    (
      await s.db.query<{ claimed_by: string | null; due_at: Date }>(
        'select claimed_by, due_at from channel_polls where channel_id = $1',
        [channelId],
      )
    )[0];
  const passDone = (channelId: string) =>
    until(async () => {
      const row = await pollRow(channelId);
      return (
        (row && row.claimed_by === null && row.due_at.getTime() > s.clock.now().getTime() && row) || undefined
      );
    }, 'a poll pass to end');
  const nextPass = async (channelId: string) => {
    const row = await passDone(channelId);
    s.clock.advance(row.due_at.getTime() - s.clock.now().getTime());
    return passDone(channelId);
  };
  const sentText = (text: string) =>
    devino.sent.filter((m) => (m.message.content as { text?: string }).text === text);

  test('connecting Russia: required fields, the Devino login checked, the sender, the SMS fallback', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (extra: Record<string, unknown>) =>
      org.admin.api.post('/api/channels', russia(teamId, extra));
    const empty = await post({ login: '', password: '', serviceId: '', phone: '', region: undefined });
    assert.equal(empty.status, 400);
    for (const f of ['login', 'password', 'serviceId', 'phone', 'region'])
      assert.equal(empty.body.error.fields[f], 'Please fill in all required fields', f);
    assert.equal((await post({ phone: '12' })).body.error.fields.phone, 'Phone number specified incorrectly');
    const wrong = await post({ password: 'nope' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error.fields.password, 'Password specified incorrectly');
    assert.ok(
      devino.calls.some((c) => c.path === '/status' && !c.authorised),
      'checked with Basic at /status',
    );
    const longSender = await post({ serviceId: 'MyShopIsTooLong' });
    assert.equal(longSender.body.error.fields.serviceId, 'Incorrect token/ID specified');
    const noSmsSender = await post({ smsFallback: true });
    assert.equal(noSmsSender.body.error.fields.smsSender, 'Please fill in all required fields');
    devino.failNext('/status', 503);
    const down = await post({});
    assert.equal(down.status, 502);
    assert.equal(down.body.error.details.reason, 'unreachable');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing kept');

    const made = await post({ smsFallback: true, smsSender: devino.smsSender });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const { id, inboundKey, inboundUrl } = made.body.entity;
    assert.equal(inboundUrl, `/api/webhooks/viber/${id}`);
    assert.ok(inboundKey, 'the reply address key is shown once');
    const shown = (await org.admin.api.get(`/api/channels/${id}`)).body.entity;
    assert.deepEqual(shown.settings, {
      region: 'ru',
      login: devino.login,
      serviceId: devino.subject,
      phone: '+74951234567',
      serviceName: null,
      smsFallback: true,
      smsSender: devino.smsSender,
    });
    assert.ok(!JSON.stringify(shown).includes(devino.password), 'the password is write-only');
    assert.equal(shown.inboundKey, undefined);
    // Editing without the password keeps it; the fallback can be turned off.
    const edited = await org.admin.api.patch(`/api/channels/${id}`, { smsFallback: false });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.entity.settings.smsFallback, false);
    assert.equal(edited.body.entity.settings.smsSender, null);
  });

  test('connecting Belarus: the SMS.by API key and the Viber sender id checked with getVibernames', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (extra: Record<string, unknown>) =>
      org.admin.api.post('/api/channels', belarus(teamId, extra));
    assert.equal(
      (await post({ password: 'wrong' })).body.error.fields.password,
      'Password specified incorrectly',
    );
    assert.equal(
      (await post({ serviceId: '999' })).body.error.fields.serviceId,
      'Incorrect token/ID specified',
    );
    assert.equal(
      (await post({ serviceId: 'MyShop' })).body.error.fields.serviceId,
      'Incorrect token/ID specified',
    );
    smsby.failNext('getVibernames', 500);
    assert.equal((await post({})).body.error.details.reason, 'unreachable');
    const made = await post({ smsFallback: true, smsSender: 'Shop' });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.entity.settings.serviceName, 'MyShop BY');
    assert.equal(made.body.entity.settings.smsFallback, false, 'SMS.by documents no Viber→SMS fallback');
  });

  test('Russia: a reply comes in once, the answer goes out, delivered and read are polled', async () => {
    const { org, channelId, replyUrl } = await connect();
    const hello = devino.replyItem('79160001122', 'Здравствуйте');
    assert.equal(await devino.reply([hello], replyUrl.replace(/key=[^&]+/, 'key=wrong')), 401);
    assert.equal(await devino.reply([hello], replyUrl.replace(/\?key=.*/, '')), 401);
    assert.equal((await chatsOf(org)).length, 0, 'nothing stored');
    assert.equal(await devino.reply([hello]), 200);
    assert.equal(await devino.reply([hello]), 200, 'Devino retries until answered: stored once');
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1);
    assert.deepEqual(
      (await messagesOf(org, chats[0].id)).map((m: { text: string }) => m.text),
      ['Здравствуйте'],
    );
    const chatId = chats[0].id;
    const { byId, waitStatus, send, sendRateLimited } = await replyTo(s, org, chatId);
    const text = await send({ text: 'Здравствуйте, чем помочь?' });
    await waitStatus(text, 'sent');
    const [out] = sentText('Здравствуйте, чем помочь?');
    assert.deepEqual(
      {
        subject: out?.message.subject,
        address: out?.message.address,
        type: out?.message.type,
        contentType: out?.message.contentType,
        priority: out?.message.priority,
        validity: out?.message.validityPeriodSec,
        resendSms: out?.resendSms,
      },
      {
        subject: devino.subject,
        address: '79160001122',
        type: 'viber',
        contentType: 'text',
        priority: 'high',
        validity: DEVINO.validitySeconds,
        resendSms: false,
      },
    );
    assert.equal((await byId(text)).externalId ?? out?.providerId, out?.providerId);
    devino.setStatus(out?.providerId ?? '', 'delivered');
    await nextPass(channelId);
    await waitStatus(text, 'delivered');
    devino.setStatus(out?.providerId ?? '', 'read');
    await nextPass(channelId);
    await waitStatus(text, 'read');
    const statusCall = devino.calls.filter((c) => c.path === '/status').at(-1);
    assert.ok(
      (statusCall?.body as { messages: string[] }).messages.includes(out?.providerId ?? ''),
      'the 64-bit providerId asked about exactly',
    );
    // A reply naming our message (parentId) lands in the same chat.
    assert.equal(await devino.reply([devino.replyItem('79160001122', 'Спасибо', out?.providerId)]), 200);
    await until(
      async () => (await messagesOf(org, chatId)).some((m: { text: string }) => m.text === 'Спасибо'),
      'the reply in the same chat',
    );

    // A picture goes as Devino's image message; a long text in 1000-character parts, in one /send call.
    const key = await s.db.tx((q) =>
      saveFile(s.app, q, org.id, Buffer.from([0xff, 0xd8, 0xff, 1]), 'image/jpeg'),
    );
    const calls = devino.calls.length;
    const pic = await send({
      text: 'x'.repeat(1500),
      attachments: [
        { url: `http://localhost:3000/api/files/${key}`, name: 'r.jpg', contentType: 'image/jpeg' },
      ],
    });
    await waitStatus(pic, 'sent');
    const sends = devino.calls.slice(calls).filter((c) => c.path === '/send');
    assert.equal(sends.length, 1);
    assert.deepEqual(
      devino.sent
        .slice(-3)
        .map((m) => [m.message.contentType, (m.message.content as { text?: string }).text?.length]),
      [
        ['text', 1000],
        ['text', 500],
        ['image', undefined],
      ],
    );
    assert.equal(
      (devino.sent.at(-1)?.message.content as { imageUrl?: string }).imageUrl,
      `http://localhost:3000/api/files/${key}`,
    );

    // 5xx and 429 are retried; Devino took nothing then, so the message goes once.
    devino.failNext('/send', 502);
    const retried = await send({ text: 'After a 502' });
    assert.equal((await byId(retried)).status, 'pending');
    s.clock.advance(120_000);
    await drainOutbox(s.app);
    await waitStatus(retried, 'sent');
    assert.equal(sentText('After a 502').length, 1, 'not doubled');
    devino.failNext('/send', 429);
    await sendRateLimited({ text: 'Slow' }, 31_000);
    assert.equal(sentText('Slow').length, 1, 'not doubled');

    // A phone without Viber and no fallback: undelivered, with Devino's reason.
    devino.noViber.add('79160001122');
    const gone = await send({ text: 'Are you there?' });
    await waitStatus(gone, 'sent');
    await nextPass(channelId);
    await waitStatus(gone, 'undelivered');
    assert.equal((await byId(gone)).statusReason, 'undelivered: not-viber-user');
    devino.noViber.delete('79160001122');
    const edit = await org.admin.api.patch(`/api/chats/${chatId}/messages/${gone}`, { text: 'Changed' });
    assert.equal(edit.status, 409, 'Devino cannot change a sent message');
  });

  test('Russia with the SMS fallback: the text carries the SMS fields, Viber failing then SMS delivered', async () => {
    const { org, channelId } = await connect({ smsFallback: true, smsSender: devino.smsSender });
    devino.noViber.add('79160003344');
    assert.equal(await devino.reply([devino.replyItem('79160003344', 'Есть доставка?')]), 200);
    const chatId = (await chatsOf(org))[0].id;
    const { byId, waitStatus, send } = await replyTo(s, org, chatId);
    const key = await s.db.tx((q) =>
      saveFile(s.app, q, org.id, Buffer.from([0xff, 0xd8, 0xff, 2]), 'image/jpeg'),
    );
    const id = await send({
      text: 'Да, завтра',
      attachments: [
        { url: `http://localhost:3000/api/files/${key}`, name: 'map.jpg', contentType: 'image/jpeg' },
      ],
    });
    await waitStatus(id, 'sent');
    const [text] = sentText('Да, завтра');
    assert.deepEqual(
      {
        resendSms: text?.resendSms,
        smsText: text?.message.smsText,
        smsSrcAddress: text?.message.smsSrcAddress,
        validity: text?.message.validityPeriodSec,
      },
      {
        resendSms: true,
        smsText: 'Да, завтра',
        smsSrcAddress: devino.smsSender,
        validity: DEVINO.fallbackValiditySeconds,
      },
    );
    const image = devino.sent.at(-1);
    assert.equal(image?.message.contentType, 'image');
    assert.equal(image?.resendSms, false, 'a picture cannot fall back to SMS: sent without it');
    await nextPass(channelId);
    await waitStatus(id, 'delivered');
    assert.equal((await byId(id)).statusReason ?? null, null);
    devino.noViber.delete('79160003344');
  });

  test('Belarus: text out through sendQuickViberMessage, retried without doubling', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', belarus(teamId));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // SMS.by documents no replies for single messages: the client is one the operator writes to first.
    const [seeded] = await receiveOwnEvents(s.app, res.body.entity.id, 'viber', [
      {
        kind: 'message',
        message: {
          externalMessageId: 'seed-1',
          client: { externalId: '375291234567', name: 'Olga' },
          text: 'Здравствуйте',
          attachments: [],
        },
      },
    ]);
    const chatId = (seeded?.result as { chatId: string }).chatId;
    const { waitStatus, send } = await replyTo(s, org, chatId);
    const id = await send({ text: 'Добрый день!' });
    await waitStatus(id, 'sent');
    const sent = smsby.sent.at(-1);
    assert.deepEqual(
      { phone: sent?.params.phone, vibername_id: sent?.params.vibername_id, message: sent?.params.message },
      { phone: '375291234567', vibername_id: smsby.viberNameId, message: 'Добрый день!' },
    );
    assert.equal(sent?.params.token, smsby.token);
    smsby.failNext('sendQuickViberMessage', 500);
    const again = await send({ text: 'После 500' });
    s.clock.advance(120_000);
    await drainOutbox(s.app);
    await waitStatus(again, 'sent');
    assert.equal(smsby.sent.filter((m) => m.params.message === 'После 500').length, 1, 'not doubled');
  });
});
