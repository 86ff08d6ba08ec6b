import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { devicesOf, registerDevice } from '../../src/channels/mobile_app/devices.ts';
import { identityHash, identityValid } from '../../src/channels/mobile_app/identity.ts';
import { closePushClients } from '../../src/channels/mobile_app/send.ts';
import { receiveOwnEvents } from '../../src/modules/channels/receive.ts';
import { type FakeApns, startFakeApns } from '../fakes/apns.ts';
import { type FakeFcm, startFakeFcm } from '../fakes/fcm.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { makeTeam } from './chats-fixtures.ts';

/**
 * The mobile app channel (`mobile_app`, issue 34): created and edited with its identity secret and push credentials
 * (checked against fakes of Google's token endpoint and FCM HTTP v1, and of APNs over HTTP/2), and an operator's reply
 * pushed to the app user's devices.
 */
describe('mobile app channel', () => {
  let s: TestServer;
  let fcm: FakeFcm;
  let apns: FakeApns;
  before(async () => {
    fcm = await startFakeFcm();
    apns = await startFakeApns();
    s = await startTestServer({
      env: { FCM_API_BASE_URL: fcm.baseUrl, FCM_TOKEN_URL: fcm.tokenUrl, APNS_BASE_URL: apns.baseUrl },
    });
  });
  after(async () => {
    closePushClients();
    await s.close();
    await fcm.close();
    await apns.close();
  });

  const apnsFields = () => ({
    apnsKey: apns.p8,
    apnsKeyId: apns.keyId,
    apnsTeamId: apns.teamId,
    apnsBundleId: apns.bundleId,
    apnsEnvironment: 'sandbox',
  });

  async function create(org: TestOrg, over: Record<string, unknown> = {}) {
    const teamId = await makeTeam(org, { method: 'manual' });
    return org.admin.api.post('/api/channels', {
      type: 'mobile_app',
      name: `Shop app ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      fcmServiceAccount: fcm.serviceAccount,
      ...apnsFields(),
      ...over,
    });
  }

  test('creating checks the service account (a token taken) and the APNs key (a token signed); secrets never shown', async () => {
    const org = await createOrganisation(s);
    const wrongKey = await create(org, { fcmServiceAccount: fcm.wrongKeyAccount() });
    assert.equal(wrongKey.status, 400, JSON.stringify(wrongKey.body));
    assert.equal(wrongKey.body.error.fields.fcmServiceAccount, 'Incorrect token/ID specified');
    const notJson = await create(org, { fcmServiceAccount: '{"type": "service_account"' });
    assert.equal(notJson.body.error.fields.fcmServiceAccount, 'Incorrect token/ID specified');
    const badP8 = await create(org, {
      apnsKey: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----',
    });
    assert.equal(badP8.status, 400);
    assert.equal(badP8.body.error.fields.apnsKey, 'Incorrect token/ID specified');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    const rsaP8 = await create(org, { apnsKey: rsa.toString() });
    assert.equal(rsaP8.body.error.fields.apnsKey, 'Incorrect token/ID specified');
    const noKeyId = await create(org, { apnsKeyId: undefined });
    assert.equal(noKeyId.body.error.fields.apnsKeyId, 'Please fill in all required fields');
    const badTeam = await create(org, { apnsTeamId: 'lower-case' });
    assert.equal(badTeam.body.error.fields.apnsTeamId, 'Incorrect token/ID specified');
    // Google's token endpoint out of reach: the channel creation error other channels answer.
    const down = await startTestServer({
      env: { FCM_API_BASE_URL: fcm.baseUrl, FCM_TOKEN_URL: 'http://127.0.0.1:9/token' },
    });
    try {
      const downOrg = await createOrganisation(down);
      const teamId = await makeTeam(downOrg);
      const res = await downOrg.admin.api.post('/api/channels', {
        type: 'mobile_app',
        name: 'App',
        teamId,
        fcmServiceAccount: fcm.serviceAccount,
      });
      assert.equal(res.status, 502, JSON.stringify(res.body));
      assert.equal(res.body.code, 'channelCreationException');
    } finally {
      await down.close();
    }
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing stored');

    const ok = await create(org);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const created = ok.body.entity;
    assert.match(created.identitySecret, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(created.settings, {
      fcmProjectId: fcm.projectId,
      fcmClientEmail: JSON.parse(fcm.serviceAccount).client_email,
      apnsKeyId: apns.keyId,
      apnsTeamId: apns.teamId,
      apnsBundleId: apns.bundleId,
      apnsEnvironment: 'sandbox',
      identitySecretEnd: created.identitySecret.slice(-4),
      fcm: true,
      apns: true,
    });
    for (const path of [`/api/channels/${created.id}`, '/api/channels']) {
      const text = JSON.stringify((await org.admin.api.get(path)).body);
      assert.ok(!text.includes(created.identitySecret), 'the identity secret is shown once');
      assert.ok(!text.includes('PRIVATE KEY'), 'no private key is shown');
      assert.ok(!text.includes(JSON.parse(fcm.serviceAccount).private_key_id));
    }
    // Another organisation cannot read or change it.
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.get(`/api/channels/${created.id}`)).status, 404);
    assert.equal(
      (await other.admin.api.patch(`/api/channels/${created.id}`, { rotateIdentitySecret: true })).status,
      404,
    );
    assert.equal((await other.admin.api.get('/api/channels')).body.entity.total, 0);
  });

  test('editing: the identity secret rotates (answered once); credentials are checked again, removed when emptied', async () => {
    const org = await createOrganisation(s);
    const created = (await create(org, { fcmServiceAccount: undefined })).body.entity;
    assert.equal(created.settings.fcm, false);
    const id = created.id as string;
    const renamed = await org.admin.api.patch(`/api/channels/${id}`, { name: 'Renamed app' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.entity.identitySecret, undefined, 'kept, not shown');
    const rotated = await org.admin.api.patch(`/api/channels/${id}`, { rotateIdentitySecret: true });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const secret = rotated.body.entity.identitySecret as string;
    assert.ok(secret && secret !== created.identitySecret);
    assert.equal(rotated.body.entity.settings.identitySecretEnd, secret.slice(-4));
    assert.ok(!JSON.stringify((await org.admin.api.get(`/api/channels/${id}`)).body).includes(secret));

    const wrong = await org.admin.api.patch(`/api/channels/${id}`, {
      fcmServiceAccount: fcm.wrongKeyAccount(),
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error.fields.fcmServiceAccount, 'Incorrect token/ID specified');
    const added = await org.admin.api.patch(`/api/channels/${id}`, { fcmServiceAccount: fcm.serviceAccount });
    assert.equal(added.status, 200);
    assert.equal(added.body.entity.settings.fcmProjectId, fcm.projectId);
    const badKey = await org.admin.api.patch(`/api/channels/${id}`, { apnsKey: 'garbage' });
    assert.equal(badKey.body.error.fields.apnsKey, 'Incorrect token/ID specified');
    const newBundle = await org.admin.api.patch(`/api/channels/${id}`, { apnsBundleId: 'com.example.other' });
    assert.equal(newBundle.body.entity.settings.apnsBundleId, 'com.example.other', 'the stored key is kept');
    const noApns = await org.admin.api.patch(`/api/channels/${id}`, { apnsKey: '' });
    assert.equal(noApns.status, 200);
    assert.equal(noApns.body.entity.settings.apns, false);
    assert.equal(noApns.body.entity.settings.apnsKeyId, null);
  });

  /** A mobile app chat as the SDK will open it: the app user's message in, their devices registered. */
  async function appChat(
    devices: { provider: 'fcm' | 'apns'; token: string }[],
    over: Record<string, unknown> = {},
  ) {
    const org = await createOrganisation(s);
    const res = await create(org, over);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id as string;
    const user = `user-${Math.random().toString(36).slice(2, 8)}`;
    for (const d of devices)
      await registerDevice(s.app.db, { organisationId: org.id, channelId, clientExternalId: user, ...d });
    await receiveOwnEvents(s.app, channelId, 'mobile_app', [
      {
        kind: 'message',
        message: {
          externalMessageId: `m-${user}`,
          client: { externalId: user, name: 'Jane' },
          text: 'Where is my order?',
          attachments: [],
        },
      },
    ]);
    const [chat] = await chatsOf(org);
    assert.ok(chat, 'the chat is open');
    return { org, channelId, user, chatId: chat.id as string, name: res.body.entity.name as string };
  }

  test("an operator's reply is pushed to the user's FCM and APNs devices with the documented shapes", async () => {
    const fcmToken = `fcm-${Math.random().toString(36).slice(2)}`;
    const apnsToken = apns.deviceToken();
    const { org, chatId, name, channelId } = await appChat([
      { provider: 'fcm', token: fcmToken },
      { provider: 'apns', token: apnsToken },
    ]);
    const reply = await replyTo(s, org, chatId);
    const id = await reply.send({ text: 'Your order ships today.' });
    await reply.waitStatus(id, 'sent');
    const viaFcm = fcm.sent.find((m) => m.token === fcmToken);
    assert.deepEqual(viaFcm, {
      token: fcmToken,
      notification: { title: name, body: 'Your order ships today.' },
      data: { chatId, messageId: id },
    });
    const viaApns = apns.sent.find((m) => m.deviceToken === apnsToken);
    assert.ok(viaApns);
    assert.deepEqual(viaApns.payload, {
      chatId,
      messageId: id,
      aps: { alert: { title: name, body: 'Your order ships today.' }, sound: 'default' },
    });
    assert.equal(viaApns.headers['apns-topic'], apns.bundleId);
    assert.equal(viaApns.headers['apns-push-type'], 'alert');
    assert.equal(viaApns.headers['apns-id'], id);
    // A second reply reuses the access token and the HTTP/2 connection.
    const tokens = fcm.tokensIssued;
    const connections = apns.connections;
    await reply.waitStatus(await reply.send({ text: 'Anything else?' }), 'sent');
    assert.equal(fcm.tokensIssued, tokens);
    assert.equal(apns.connections, connections);
    // The identity secret signs the app's users (the SDK's check, next part).
    const rotated = (await org.admin.api.patch(`/api/channels/${channelId}`, { rotateIdentitySecret: true }))
      .body.entity.identitySecret as string;
    assert.ok(identityValid(rotated, 'user-1', identityHash(rotated, 'user-1')));
    assert.ok(!identityValid(rotated, 'user-2', identityHash(rotated, 'user-1')));
  });

  test('a dead token is removed; no device (or only dead ones) fails the delivery with the reason; 429 waits', async () => {
    const live = apns.deviceToken();
    const dead = apns.deviceToken();
    apns.unregistered.add(dead);
    fcm.unregistered.add('fcm-dead');
    const { org, chatId, channelId, user } = await appChat([
      { provider: 'apns', token: live },
      { provider: 'apns', token: dead },
      { provider: 'fcm', token: 'fcm-dead' },
    ]);
    const reply = await replyTo(s, org, chatId);
    await reply.waitStatus(await reply.send({ text: 'First' }), 'sent');
    const left = await devicesOf(s.app.db, org.id, channelId, user);
    assert.deepEqual(
      left.map((d) => d.token),
      [live],
      'the unregistered APNs and FCM tokens are forgotten',
    );
    // FCM asks to wait: the message stays pending and goes after Retry-After.
    apns.unregistered.add(live);
    await registerDevice(s.app.db, {
      organisationId: org.id,
      channelId,
      clientExternalId: user,
      provider: 'fcm',
      token: 'fcm-ok',
    });
    fcm.failNext({ status: 429, errorCode: 'QUOTA_EXCEEDED', retryAfter: '30' });
    await reply.sendRateLimited({ text: 'Second' }, 30_000);
    assert.ok(fcm.sent.some((m) => m.token === 'fcm-ok' && m.notification.body === 'Second'));
    assert.deepEqual(
      (await devicesOf(s.app.db, org.id, channelId, user)).map((d) => d.token),
      ['fcm-ok'],
    );
    // Only dead devices: undelivered, they are gone, and the next reply says there is no device.
    fcm.unregistered.add('fcm-ok');
    fcm.unregistered.add('fcm-bad');
    await registerDevice(s.app.db, {
      organisationId: org.id,
      channelId,
      clientExternalId: user,
      provider: 'fcm',
      token: 'fcm-bad',
    });
    fcm.failNext({ status: 400, errorCode: 'INVALID_ARGUMENT', tokenField: true });
    const third = await reply.send({ text: 'Third' });
    await reply.waitStatus(third, 'undelivered');
    const m3 = (await messagesOf(org, chatId)).find((m: { id: string }) => m.id === third);
    assert.match(m3.statusReason, /unregistered/i);
    assert.equal((await devicesOf(s.app.db, org.id, channelId, user)).length, 0);
    // A dead device is not the channel's credentials problem.
    assert.equal((await org.admin.api.get('/api/channels/problems')).body.entity.total, 0);
    const fourth = await reply.send({ text: 'Fourth' });
    await reply.waitStatus(fourth, 'undelivered');
    const m4 = (await messagesOf(org, chatId)).find((m: { id: string }) => m.id === fourth);
    assert.equal(m4.statusReason, 'The app user has no device registered for push notifications');
  });

  test("a key Apple refuses (wrong key id) fails the reply and opens the channel's token problem", async () => {
    const token = apns.deviceToken();
    const { org, chatId, channelId } = await appChat([{ provider: 'apns', token }], {
      fcmServiceAccount: undefined,
      apnsKeyId: 'ZZZ999ZZZZ',
    });
    const reply = await replyTo(s, org, chatId);
    const id = await reply.send({ text: 'Hello' });
    await reply.waitStatus(id, 'undelivered');
    const m = (await messagesOf(org, chatId)).find((x: { id: string }) => x.id === id);
    assert.match(m.statusReason, /Push credentials refused: 403 InvalidProviderToken/);
    const problems = (await org.admin.api.get('/api/channels/problems')).body.entity.items;
    assert.deepEqual(
      problems.map((p: { channelId: string; kind: string }) => [p.channelId, p.kind]),
      [[channelId, 'token_refused']],
    );
  });

  test('the common webhook route refuses a mobile app channel', async () => {
    const { channelId } = await appChat([]);
    const res = await fetch(`${s.url}/api/webhooks/mobile_app/${channelId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 401);
  });
});
