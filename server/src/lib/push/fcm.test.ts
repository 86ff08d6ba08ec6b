import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeFcm, startFakeFcm } from '../../../test/fakes/fcm.ts';
import { classifyFcm, FcmClient, type PushFetch, parseServiceAccount } from './fcm.ts';

const plainFetch: PushFetch = async (url, init) => {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
};

describe('FCM HTTP v1 client', () => {
  let fake: FakeFcm;
  before(async () => {
    fake = await startFakeFcm();
  });
  after(() => fake.close());

  const client = (json = fake.serviceAccount, now?: () => number) => {
    const parsed = parseServiceAccount(json);
    assert.ok(parsed.ok);
    return new FcmClient(parsed.account, {
      fetch: plainFetch,
      apiBase: fake.baseUrl,
      tokenUrl: fake.tokenUrl,
      now,
    });
  };

  test('reads a service account key file; refuses what is not one', () => {
    assert.ok(parseServiceAccount(fake.serviceAccount).ok);
    assert.deepEqual(parseServiceAccount('{'), { ok: false, reason: 'not JSON' });
    const j = JSON.parse(fake.serviceAccount);
    assert.deepEqual(parseServiceAccount(JSON.stringify({ ...j, private_key: 'x' })), {
      ok: false,
      reason: 'private_key',
    });
    assert.deepEqual(parseServiceAccount(JSON.stringify({ ...j, type: 'authorized_user' })), {
      ok: false,
      reason: 'not a service account',
    });
    assert.deepEqual(parseServiceAccount(JSON.stringify({ ...j, client_email: undefined })), {
      ok: false,
      reason: 'client_email',
    });
    assert.deepEqual(parseServiceAccount(JSON.stringify({ ...j, token_uri: 'http://10.0.0.1/token' })), {
      ok: false,
      reason: 'token_uri',
    });
  });

  test('takes an access token by the JWT-bearer grant and keeps it until shortly before it expires', async () => {
    // The client's clock starts 56 minutes ago (the fake checks the assertion against the real time).
    let now = Date.now() - 56 * 60_000;
    const c = client(fake.serviceAccount, () => now);
    const before = fake.tokensIssued;
    const t1 = await c.accessToken();
    assert.equal(await c.accessToken(), t1, 'cached');
    assert.equal(fake.tokensIssued, before + 1);
    now += 56 * 60_000; // within five minutes of the token's expiry
    assert.notEqual(await c.accessToken(), t1);
    assert.equal(fake.tokensIssued, before + 2);
  });

  test('a wrong key is refused by the token endpoint', async () => {
    const c = client(fake.wrongKeyAccount());
    await assert.rejects(c.accessToken(), { name: 'FcmAuthError' });
    const sent = await c.send({ token: 'abc', title: 'T', body: 'B' });
    assert.equal(sent.ok, false);
    assert.equal(!sent.ok && sent.kind, 'auth');
  });

  test('sends {message: {token, notification, data}}; a 401 takes a new token once', async () => {
    const c = client();
    const ok = await c.send({ token: 'device-1', title: 'Shop', body: 'Hello', data: { chatId: 'c1' } });
    assert.ok(ok.ok && ok.name.startsWith(`projects/${fake.projectId}/messages/`));
    assert.deepEqual(fake.sent.at(-1), {
      token: 'device-1',
      notification: { title: 'Shop', body: 'Hello' },
      data: { chatId: 'c1' },
    });
    fake.revokeTokens();
    const issued = fake.tokensIssued;
    assert.ok((await c.send({ token: 'device-1', title: 'Shop', body: 'Again' })).ok);
    assert.equal(fake.tokensIssued, issued + 1);
  });

  test('documented errors: UNREGISTERED and a bad token are dead; 429/503 wait Retry-After; others final', async () => {
    const c = client();
    fake.unregistered.add('gone');
    const gone = await c.send({ token: 'gone', title: 'T', body: 'B' });
    assert.ok(!gone.ok && gone.kind === 'dead' && gone.code === 'UNREGISTERED');
    fake.failNext({ status: 400, errorCode: 'INVALID_ARGUMENT', tokenField: true });
    const bad = await c.send({ token: 'x', title: 'T', body: 'B' });
    assert.ok(!bad.ok && bad.kind === 'dead');
    fake.failNext({ status: 429, errorCode: 'QUOTA_EXCEEDED', retryAfter: '30' });
    const quota = await c.send({ token: 'x', title: 'T', body: 'B' });
    assert.ok(
      !quota.ok && quota.kind === 'retry' && quota.retryAfterMs === 30_000 && quota.code === 'QUOTA_EXCEEDED',
    );
    fake.failNext({ status: 503, errorCode: 'UNAVAILABLE' });
    const down = await c.send({ token: 'x', title: 'T', body: 'B' });
    assert.ok(!down.ok && down.kind === 'retry' && down.retryAfterMs === 60_000);
    fake.failNext({ status: 400, errorCode: 'INVALID_ARGUMENT' });
    const invalid = await c.send({ token: 'x', title: 'T', body: 'B' });
    assert.ok(!invalid.ok && invalid.kind === 'invalid');
    const denied = classifyFcm(403, Buffer.from('{"error":{"status":"PERMISSION_DENIED"}}'), null, 0);
    assert.ok(!denied.ok && denied.kind === 'auth');
  });
});
