import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type FakeApns, startFakeApns } from '../../../test/fakes/apns.ts';
import { ApnsClient, classifyApns, parseApnsKey } from './apns.ts';

describe('APNs HTTP/2 client', () => {
  let fake: FakeApns;
  const clients: ApnsClient[] = [];
  before(async () => {
    fake = await startFakeApns();
  });
  after(async () => {
    for (const c of clients) c.close();
    await fake.close();
  });
  const client = (over: { key?: string; teamId?: string } = {}, now?: () => number) => {
    const c = new ApnsClient(
      { key: over.key ?? fake.p8, keyId: fake.keyId, teamId: over.teamId ?? fake.teamId },
      { baseUrl: fake.baseUrl, now },
    );
    clients.push(c);
    return c;
  };
  const alert = (deviceToken: string) => ({
    deviceToken,
    topic: fake.bundleId,
    title: 'Shop',
    body: 'Hello',
  });

  test('reads a .p8 key; refuses what is not a P-256 key', () => {
    assert.ok(parseApnsKey(fake.p8));
    assert.equal(parseApnsKey('not a key'), null);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    assert.equal(parseApnsKey(rsa.toString()), null);
  });

  test('posts /3/device/{token} with the provider token and headers; one connection for many pushes', async () => {
    const c = client();
    const token = fake.deviceToken();
    const before = fake.connections;
    const first = await c.send({ ...alert(token), data: { chatId: 'c1' } });
    assert.ok(first.ok && first.apnsId);
    await Promise.all([1, 2, 3].map(() => c.send(alert(token))));
    assert.equal(fake.connections, before + 1);
    assert.equal(c.connections, 1);
    const sent = fake.sent.find((x) => x.payload.chatId === 'c1');
    assert.ok(sent);
    assert.equal(sent.deviceToken, token);
    assert.deepEqual(sent.payload, {
      chatId: 'c1',
      aps: { alert: { title: 'Shop', body: 'Hello' }, sound: 'default' },
    });
    assert.equal(sent.headers['apns-topic'], fake.bundleId);
    assert.equal(sent.headers['apns-push-type'], 'alert');
    assert.equal(sent.headers['apns-priority'], '10');
    assert.match(sent.headers['apns-expiration'] ?? '', /^\d+$/);
  });

  test('the provider token is reused up to 50 minutes, renewed after; ExpiredProviderToken renews once if 20 min old', async () => {
    let now = Date.now() - 75 * 60_000;
    const c = client({}, () => now);
    const t1 = c.providerToken();
    now += 49 * 60_000;
    assert.equal(c.providerToken(), t1);
    now += 2 * 60_000;
    const t2 = c.providerToken();
    assert.notEqual(t2, t1);
    assert.equal(c.providerToken(true), null, 'never renewed within 20 minutes');
    now = Date.now();
    // The server says the token is expired: a new one (its current one is over 20 minutes old) and the push goes.
    fake.expireTokensIssuedBefore = Math.floor((Date.now() - 60_000) / 1000);
    const res = await c.send(alert(fake.deviceToken()));
    fake.expireTokensIssuedBefore = 0;
    assert.ok(res.ok);
  });

  test("Apple's reasons: BadDeviceToken and 410 Unregistered are dead; InvalidProviderToken auth; 429 and 5xx retry", async () => {
    const c = client();
    const bad = await c.send(alert('not-hex'));
    assert.ok(!bad.ok && bad.kind === 'dead' && bad.reason === 'BadDeviceToken');
    const gone = fake.deviceToken();
    fake.unregistered.add(gone);
    const unregistered = await c.send(alert(gone));
    assert.ok(!unregistered.ok && unregistered.kind === 'dead' && unregistered.status === 410);
    const wrongTopic = await c.send({ ...alert(fake.deviceToken()), topic: 'com.other.app' });
    assert.ok(!wrongTopic.ok && wrongTopic.kind === 'dead' && wrongTopic.reason === 'DeviceTokenNotForTopic');
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    const refused = await client({ key: other.toString() }).send(alert(fake.deviceToken()));
    assert.ok(!refused.ok && refused.kind === 'auth' && refused.reason === 'InvalidProviderToken');
    fake.failNext({ status: 429, reason: 'TooManyRequests' });
    const busy = await c.send(alert(fake.deviceToken()));
    assert.ok(!busy.ok && busy.kind === 'retry' && busy.retryAfterMs);
    fake.failNext({ status: 503, reason: 'ServiceUnavailable' });
    const down = await c.send(alert(fake.deviceToken()));
    assert.ok(!down.ok && down.kind === 'retry');
    assert.equal(classifyApns(413, 'PayloadTooLarge').kind, 'invalid');
  });

  test('a lost connection is opened again', async () => {
    const c = client();
    assert.ok((await c.send(alert(fake.deviceToken()))).ok);
    c.close();
    assert.ok((await c.send(alert(fake.deviceToken()))).ok);
    assert.equal(c.connections, 2);
  });
});
