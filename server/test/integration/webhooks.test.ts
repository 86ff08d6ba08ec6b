import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { PLAN_OPTIONS, type WebhookDeliveryDto, type WebhookEndpointDto } from '@smartconnect/contracts';
import { insertEvents } from '../../src/realtime/queries.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { inbound, makeChannel, makeTeam } from './chats-fixtures.ts';
import { type Received, startReceiver, waitFor } from './webhooks-fixtures.ts';

type Verify = (
  rawBody: string,
  header: string | undefined,
  secret: string,
  toleranceSeconds?: number,
) => boolean;

/** The README's verification snippet, exactly as published: its first js block after "## Event webhooks". */
async function readmeSnippet(): Promise<{ verify: Verify; cleanup(): void }> {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Event webhooks'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  assert.ok(match, 'README.md "Event webhooks" has a js block');
  const dir = mkdtempSync(join(tmpdir(), 'sc-webhook-snippet-'));
  const file = join(dir, 'verify.mjs');
  writeFileSync(file, match[1]);
  const mod = (await import(pathToFileURL(file).href)) as { verifyWebhook: Verify };
  return { verify: mod.verifyWebhook, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('event webhooks', { timeout: 180_000 }, () => {
  let s: TestServer;
  let org: TestOrg;
  let receiver: ReturnType<typeof startReceiver>;
  let base: string;
  let snippet: Awaited<ReturnType<typeof readmeSnippet>>;

  before(async () => {
    s = await startTestServer();
    org = await createOrganisation(s);
    receiver = startReceiver();
    base = await receiver.start();
    snippet = await readmeSnippet();
  });
  after(async () => {
    snippet?.cleanup();
    await receiver?.close();
    await s?.close();
  });

  const create = async (path: string, eventTypes: string[], o: TestOrg = org) => {
    const res = await o.admin.api.post('/api/integrations/webhooks', {
      url: `${base}${path}`,
      description: `Receiver ${path}`,
      eventTypes,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity as WebhookEndpointDto & { secret: string };
  };
  const deliveries = async (id: string, o: TestOrg = org) => {
    const res = await o.admin.api.get(`/api/integrations/webhooks/${id}/deliveries?limit=100`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity.items as WebhookDeliveryDto[];
  };

  test('administrators manage endpoints; operators, plans without the API and bad input are refused', async () => {
    const endpoint = await create('/ok', ['chat.created']);
    assert.match(endpoint.secret, /^whsec_/);
    const list = await org.admin.api.get('/api/integrations/webhooks');
    const listed = list.body.entity.items.find((e: WebhookEndpointDto) => e.id === endpoint.id);
    assert.ok(listed);
    assert.equal('secret' in listed, false, 'the secret is shown only once');

    const patched = await org.admin.api.patch(`/api/integrations/webhooks/${endpoint.id}`, {
      eventTypes: ['chat.closed', 'chat.closed', 'message.created'],
      enabled: false,
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.entity.eventTypes, ['chat.closed', 'message.created']);
    assert.equal(patched.body.entity.disabledReason, 'manual');
    const rotated = await org.admin.api.post(`/api/integrations/webhooks/${endpoint.id}/rotate-secret`);
    assert.notEqual(rotated.body.entity.secret, endpoint.secret);

    const bad = await org.admin.api.post('/api/integrations/webhooks', {
      url: 'ftp://example.com/x',
      eventTypes: ['chat.nonsense'],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validationException');
    assert.equal(bad.body.error.fields.url, 'Value specified incorrectly');
    assert.equal(bad.body.error.fields['eventTypes.0'], 'Value specified incorrectly');
    const privateAddress = await org.admin.api.post('/api/integrations/webhooks', {
      url: 'http://10.1.2.3/hook',
      eventTypes: ['chat.created'],
    });
    assert.equal(privateAddress.body.error.fields.url, 'Local and private network addresses are not allowed');

    const operator = await org.user({ role: 'OPERATOR' });
    const refused = await operator.api.get('/api/integrations/webhooks');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'accessDeniedException');
    const noApi = await createOrganisation(s, { options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_API') });
    const withoutOption = await noApi.admin.api.get('/api/integrations/webhooks');
    assert.equal(withoutOption.status, 403);
    assert.equal(withoutOption.body.code, 'optionUnavailableException');

    // Another organisation sees none of it.
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.get(`/api/integrations/webhooks/${endpoint.id}`)).status, 404);
    assert.equal(
      (await other.admin.api.get(`/api/integrations/webhooks/${endpoint.id}/deliveries`)).status,
      404,
    );
    assert.equal((await other.admin.api.post(`/api/integrations/webhooks/${endpoint.id}/test`)).status, 404);
    assert.equal((await other.admin.api.delete(`/api/integrations/webhooks/${endpoint.id}`)).status, 404);
    assert.deepEqual((await other.admin.api.get('/api/integrations/webhooks')).body.entity.items, []);

    assert.equal((await org.admin.api.delete(`/api/integrations/webhooks/${endpoint.id}`)).status, 200);
    assert.equal((await org.admin.api.get(`/api/integrations/webhooks/${endpoint.id}`)).status, 404);
  });

  test('a real event reaches the receiver, signed: the README snippet verifies it', async () => {
    const own = await createOrganisation(s);
    const endpoint = await create('/ok', ['chat.created', 'message.created'], own);
    const channel = await makeChannel(own, await makeTeam(own));
    const before = receiver.received.length;
    const res = await inbound(s, channel, { client: 'signed-1', text: 'Hello hooks' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const got = await waitFor(async () => {
      const mine = receiver.received
        .slice(before)
        .filter((r) => r.headers['smartconnect-delivery-id'] && JSON.parse(r.body).organisationId === own.id);
      return mine.length >= 2 && mine;
    });
    const types = got.map((r) => JSON.parse(r.body).type);
    assert.deepEqual(types.sort(), ['chat.created', 'message.created']);
    for (const r of got) {
      const header = r.headers['smartconnect-signature'] as string;
      assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
      assert.equal(snippet.verify(r.body, header, endpoint.secret), true);
      assert.equal(snippet.verify(`${r.body} `, header, endpoint.secret), false, 'another body fails');
      assert.equal(snippet.verify(r.body, header, 'whsec_wrong'), false, 'another secret fails');
      const old = header.replace(/t=(\d+)/, (_m, t) => `t=${Number(t) - 600}`);
      assert.equal(snippet.verify(r.body, old, endpoint.secret), false, 'an old timestamp fails');
      const envelope = JSON.parse(r.body);
      assert.equal(r.headers['smartconnect-event-id'], envelope.id);
      assert.equal(r.headers['smartconnect-event-type'], envelope.type);
    }
    const message = JSON.parse(got.find((r) => JSON.parse(r.body).type === 'message.created')?.body ?? '{}');
    assert.equal(message.data.text, 'Hello hooks');
    const log = await waitFor(async () => {
      const list = await deliveries(endpoint.id, own);
      return list.length === 2 && list.every((d) => d.status === 'delivered') && list;
    });
    for (const d of log) {
      assert.equal(d.lastStatusCode, 200);
      assert.equal(d.attempts, 1);
      assert.equal(typeof d.lastDurationMs, 'number');
      assert.equal(d.nextAttemptAt, null);
    }
    // The test event is signed the same way.
    const ping = await own.admin.api.post(`/api/integrations/webhooks/${endpoint.id}/test`);
    assert.equal(ping.body.entity.status, 'delivered');
    const last = receiver.received.at(-1) as Received;
    assert.equal(JSON.parse(last.body).type, 'ping');
    assert.equal(
      snippet.verify(last.body, last.headers['smartconnect-signature'] as string, endpoint.secret),
      true,
    );
  });

  test('retries back off for 24 hours, then the delivery fails, the endpoint is disabled and admins told; redelivery works', async () => {
    const own = await createOrganisation(s);
    const endpoint = await create('/fail', ['message.created'], own);
    const channel = await makeChannel(own, await makeTeam(own));
    assert.equal((await inbound(s, channel, { client: 'retry-1' })).status, 200);
    let d = await waitFor(async () => (await deliveries(endpoint.id, own)).find((x) => x.attempts === 1));
    assert.equal(d.status, 'pending');
    assert.equal(d.lastStatusCode, 500);
    assert.equal(d.lastError, 'http_status');
    const firstAt = Date.parse(d.lastAttemptAt as string);
    const waits: number[] = [];
    while (d.status === 'pending') {
      const wait = Date.parse(d.nextAttemptAt as string) - Date.parse(d.lastAttemptAt as string);
      waits.push(wait / MIN);
      s.clock.advance(wait);
      const attempts = d.attempts;
      d = await waitFor(async () =>
        (await deliveries(endpoint.id, own)).find((x) => x.attempts === attempts + 1),
      );
    }
    // A minute, doubling, at most 4 hours apart, the last attempt at the 24th hour.
    assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 64, 128, 240, 240, 240, 240, 225]);
    assert.equal(d.status, 'failed');
    assert.equal(Date.parse(d.lastAttemptAt as string) - firstAt, 24 * HOUR);
    const disabled = (await own.admin.api.get(`/api/integrations/webhooks/${endpoint.id}`)).body.entity;
    assert.equal(disabled.enabled, false);
    assert.equal(disabled.disabledReason, 'failing');
    assert.ok(s.mails.some((m) => m.to === own.admin.email && m.subject.includes(endpoint.url)));

    // The receiver works again: a manual redelivery sends the same event, the endpoint is turned back on.
    receiver.state.healed = true;
    const redelivered = await own.admin.api.post(
      `/api/integrations/webhooks/${endpoint.id}/deliveries/${d.id}/redeliver`,
    );
    assert.equal(redelivered.status, 200, JSON.stringify(redelivered.body));
    assert.equal(redelivered.body.entity.status, 'delivered');
    assert.equal(redelivered.body.entity.lastStatusCode, 200);
    assert.equal(redelivered.body.entity.eventId, d.eventId);
    const enabled = await own.admin.api.patch(`/api/integrations/webhooks/${endpoint.id}`, { enabled: true });
    assert.equal(enabled.body.entity.enabled, true);
    assert.equal(enabled.body.entity.failingSince, null);
    receiver.state.healed = false;
  });

  test('an event whose id commits after a higher one is still delivered', {
    skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL: PGlite runs one transaction at a time',
  }, async () => {
    const own = await createOrganisation(s);
    const endpoint = await create('/ok', ['message.created'], own);
    const event = (text: string) => ({
      organisationId: own.id,
      type: 'message.created' as const,
      payloadJson: JSON.stringify({ text }),
      audience: {},
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lowId = '';
    let taken = () => {};
    const idTaken = new Promise<void>((resolve) => {
      taken = resolve;
    });
    // Takes the lower id, then holds its transaction open while a higher id commits and is dispatched.
    const late = s.db.tx(async (q) => {
      [{ id: lowId }] = await insertEvents(q, [event('late')]);
      taken();
      await gate;
    });
    await idTaken;
    const [{ id: highId }] = await s.db.tx((q) => insertEvents(q, [event('early')]));
    assert.ok(Number(lowId) < Number(highId));
    await waitFor(async () => (await deliveries(endpoint.id, own)).find((d) => d.eventId === highId));
    release();
    await late;
    const delivered = await waitFor(async () =>
      (await deliveries(endpoint.id, own)).find((d) => d.eventId === lowId && d.status === 'delivered'),
    );
    assert.equal(JSON.parse(delivered.body).data.text, 'late');
  });

  test('slow, huge and redirecting receivers are bounded and the log says why', async () => {
    const own = await createOrganisation(s);
    const cases: [string, Partial<WebhookDeliveryDto>][] = [
      ['/redirect', { status: 'failed', lastStatusCode: 302, lastError: 'redirect' }],
      ['/huge', { status: 'delivered', lastStatusCode: 200, lastError: 'answer_truncated' }],
      ['/slow', { status: 'failed', lastStatusCode: null, lastError: 'timeout' }],
    ];
    for (const [path, want] of cases) {
      const endpoint = await create(path, ['chat.closed'], own);
      const started = Date.now();
      const res = await own.admin.api.post(`/api/integrations/webhooks/${endpoint.id}/test`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const got = res.body.entity as WebhookDeliveryDto;
      for (const [key, value] of Object.entries(want))
        assert.equal(got[key as keyof WebhookDeliveryDto], value, path);
      assert.ok(Date.now() - started < 12_000, `${path} answered within the deadline`);
      const logged = (await deliveries(endpoint.id, own))[0];
      assert.equal(logged.lastError, want.lastError);
    }
    // The redirect was not followed: /ok got nothing from it.
    assert.equal(
      receiver.received.filter(
        (r) =>
          r.path === '/ok' &&
          JSON.parse(r.body || '{}').type === 'ping' &&
          r.headers['smartconnect-delivery-id'] === undefined,
      ).length,
      0,
    );
  });
});
