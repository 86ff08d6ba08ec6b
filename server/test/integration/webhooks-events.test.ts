import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  LOG_ONLY_EVENT_TYPES,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
  type WebhookEnvelope,
  type WebhookEventType,
} from '@smartconnect/contracts';
import { runPipeline } from '../../src/jobs/pipeline.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, type TestChannel } from './chats-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';
import { type Received, startReceiver, waitFor } from './webhooks-fixtures.ts';

/**
 * The event webhooks of clients, ratings and mailings (issue 34): client.created, client.updated, client.merged,
 * rating.created and mailing.finished reach an endpoint subscribed to them, signed, with the object as the REST API
 * presents it; an endpoint of other types and another organisation's endpoints get none; no socket receives them.
 */

// biome-ignore lint/suspicious/noExplicitAny: the data of many event types
type Hit = Received & { envelope: WebhookEnvelope<any> };

/** A profile as the client events carry it: without comments and history. */
const eventProfile = ({ comments: _c, history: _h, ...client }: Record<string, unknown>) => client;

describe('event webhooks: clients, ratings and mailings', { timeout: 180_000 }, () => {
  let s: TestServer;
  let receiver: ReturnType<typeof startReceiver>;
  let base: string;

  before(async () => {
    s = await startTestServer({ env: { MAILING_RATE_LIMITS: 'api=0' } });
    receiver = startReceiver();
    base = await receiver.start();
  });
  after(async () => {
    await receiver?.close();
    await s?.close();
  });

  const subscribe = async (o: TestOrg, path: string, eventTypes: string[]) => {
    const res = await o.admin.api.post('/api/integrations/webhooks', { url: `${base}${path}`, eventTypes });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity as WebhookEndpointDto & { secret: string };
  };
  const deliveries = async (o: TestOrg, id: string) => {
    const res = await o.admin.api.get(`/api/integrations/webhooks/${id}/deliveries?limit=100`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity.items as WebhookDeliveryDto[];
  };
  /**
   * The deliveries a path received (test events and the API channel's own calls left out), in event order; each one's
   * data is what the contract documents for its type.
   */
  const hitsAt = (path: string): Hit[] =>
    receiver.received
      .filter((r) => r.path === path && r.headers['smartconnect-delivery-id'])
      .map((r) => {
        const envelope = JSON.parse(r.body) as Hit['envelope'];
        const documented = WEBHOOK_EVENT_DATA[envelope.type as WebhookEventType].schema.safeParse(
          envelope.data,
        );
        assert.ok(documented.success, `${envelope.type}: ${JSON.stringify(documented.error?.issues)}`);
        return { ...r, envelope };
      })
      .sort((a, b) => Number(a.envelope.id) - Number(b.envelope.id));
  const typesAt = (path: string) => hitsAt(path).map((h) => h.envelope.type);
  /** The signature check of README "Event webhooks": HMAC-SHA256 of "<t>.<body>" with the endpoint's secret. */
  const signedWith = (hit: Received, secret: string) => {
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(hit.headers['smartconnect-signature'])) ?? [];
    if (!t) return false;
    const expected = createHmac('sha256', secret).update(`${t}.${hit.body}`).digest();
    return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
  };
  const clientOf = async (o: TestOrg, chatId: string) =>
    (await o.admin.api.get(`/api/chats/${chatId}`)).body.entity.client.id as string;
  const profileOf = async (o: TestOrg, clientId: string) => {
    const res = await o.admin.api.get(`/api/clients/${clientId}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity;
  };
  const newChat = async (ch: TestChannel, client: string, name: string, text = 'Hello') => {
    const res = await inbound(s, ch, { client, name, text });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity.chatId as string;
  };
  /** Every delivery the endpoints have been given by now has been sent (none pending, none in the making). */
  const settled = (o: TestOrg, ids: string[]) =>
    waitFor(async () => {
      for (const id of ids) if ((await deliveries(o, id)).some((d) => d.status === 'pending')) return false;
      return true;
    });
  const logOnly = new Set<string>(LOG_ONLY_EVENT_TYPES);

  test("client.created: a new contact's first message, sent once though the provider and the delivery retry", async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const hooked = await subscribe(org, '/flaky', ['client.created']);
    const chatsOnly = await subscribe(org, '/ok/created-chats', ['chat.created']);
    const theirs = await subscribe(other, '/ok/created-other', ['client.created', 'client.updated']);
    const socket = await RealtimeClient.connect(s.url, org.admin.token);
    try {
      const channel = await makeChannel(org, await makeTeam(org));
      const otherChannel = await makeChannel(other, await makeTeam(other));

      // The provider sends the first message twice (its webhook retried), then one more: one client is made.
      const first = { client: 'nina-1', name: 'Nina New', externalMessageId: 'nina-m1', text: 'Hi' };
      const sent = await inbound(s, channel, first);
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const retried = await inbound(s, channel, first);
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.equal(retried.body.entity.messageId, sent.body.entity.messageId);
      assert.equal((await inbound(s, channel, { client: 'nina-1', name: 'Nina New' })).status, 200);
      await newChat(otherChannel, 'bob-1', 'Bob Other');
      const clientId = await clientOf(org, sent.body.entity.chatId);

      // The endpoint fails the first attempt: the same event again a minute later, delivered.
      await waitFor(async () => (await deliveries(org, hooked.id)).find((d) => d.attempts === 1));
      s.clock.advance(WEBHOOK_LIMITS.retryFirstMs);
      const log = await waitFor(async () => {
        const list = await deliveries(org, hooked.id);
        return list.every((d) => d.status === 'delivered') && list;
      });
      assert.equal(log.length, 1, 'one delivery: one client was made');
      assert.equal(log[0].attempts, 2);
      assert.equal(log[0].eventType, 'client.created');
      const hits = hitsAt('/flaky');
      assert.equal(hits.length, 2);
      assert.equal(hits[0].body, hits[1].body, 'the retry sends the same bytes');
      assert.equal(hits[1].headers['smartconnect-event-id'], hits[0].envelope.id);
      assert.ok(signedWith(hits[1], hooked.secret), 'signed with the endpoint secret');
      assert.equal(signedWith(hits[1], theirs.secret), false);
      const { envelope } = hits[1];
      assert.equal(envelope.type, 'client.created');
      assert.equal(envelope.organisationId, org.id);
      assert.equal(envelope.data.id, clientId);
      assert.equal(envelope.data.name, 'Nina New');
      assert.deepEqual(envelope.data.contacts, [
        {
          channelId: channel.id,
          externalId: 'nina-1',
          name: 'Nina New',
          username: null,
          email: null,
          phone: null,
        },
      ]);
      assert.equal('comments' in envelope.data, false);
      assert.equal('history' in envelope.data, false);
      assert.deepEqual(envelope.data, eventProfile(await profileOf(org, clientId)));
      const logged = await s.db.query<{ n: number }>(
        "select count(*)::int as n from events where type = 'client.created' and payload->>'id' = $1",
        [clientId],
      );
      assert.equal(logged[0].n, 1, 'one client.created in the log');

      // An endpoint of other types gets its types only; the other organisation's endpoint only its own client.
      await waitFor(
        async () => hitsAt('/ok/created-other').length >= 1 && hitsAt('/ok/created-chats').length >= 1,
      );
      await settled(org, [chatsOnly.id]);
      assert.deepEqual(typesAt('/ok/created-chats'), ['chat.created']);
      await settled(other, [theirs.id]);
      const foreign = hitsAt('/ok/created-other');
      assert.deepEqual(
        foreign.map((h) => [h.envelope.type, h.envelope.organisationId, h.envelope.data.name]),
        [['client.created', other.id, 'Bob Other']],
      );
      assert.ok(signedWith(foreign[0], theirs.secret));

      // The operators' sockets got the chat, never the webhook-only events; nor does a socket resuming from before.
      await socket.waitFor((frames) => frames.some((f) => f.type === 'chat.created'));
      assert.deepEqual(
        socket.events.filter((f) => logOnly.has(f.type)),
        [],
      );
      const resumed = await RealtimeClient.connect(s.url, org.admin.token, socket.frames[0].id);
      try {
        assert.equal(resumed.frames[0].type, 'hello');
        assert.equal(resumed.frames[0].payload.resumed, true);
        // The replay brings what the live socket got, and no log-only event.
        const live = socket.events.map((f) => f.id);
        await resumed.waitFor((frames) => live.every((id) => frames.some((f) => f.id === id)));
        assert.deepEqual(
          resumed.events.map((f) => f.type).filter((type) => logOnly.has(type)),
          [],
        );
      } finally {
        resumed.close();
      }
    } finally {
      socket.close();
    }
  });

  test('client.created: an SMS callback from a new phone makes one client, a repeat none', async () => {
    const org = await createOrganisation(s);
    const hooked = await subscribe(org, '/ok/sms-clients', ['client.created']);
    const made = await org.admin.api.post('/api/channels', {
      type: 'sms',
      name: 'SMS',
      teamId: await makeTeam(org),
      service: 'other',
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const { inboundUrl, inboundKey } = made.body.entity;
    const callback = () =>
      fetch(`${s.url}${inboundUrl}?key=${encodeURIComponent(inboundKey)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          messages: [
            { id: 'sms-1', phone: '+7 916 555-00-07', text: 'Code 1234' },
            { id: 'sms-2', phone: '+7 916 555-00-07', text: 'Code 5678' },
          ],
        }),
      });
    assert.equal((await callback()).status, 200);
    assert.equal((await callback()).status, 200, 'the service sends it again');
    await waitFor(async () => hitsAt('/ok/sms-clients').length >= 1);
    await settled(org, [hooked.id]);
    const hits = hitsAt('/ok/sms-clients');
    assert.equal(hits.length, 1);
    const client = hits[0].envelope.data;
    assert.equal(client.name, '+79165550007');
    assert.deepEqual(client.details, [{ kind: 'phone', value: '+79165550007' }]);
    assert.deepEqual(client, eventProfile(await profileOf(org, client.id)));
  });

  test('client.updated and client.merged carry the profile, to subscribers of those types only', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const hooked = await subscribe(org, '/ok/updates', ['client.updated', 'client.merged']);
    const createdOnly = await subscribe(org, '/ok/updates-created', ['client.created']);
    const theirs = await subscribe(other, '/ok/updates-other', ['client.updated', 'client.merged']);
    const socket = await RealtimeClient.connect(s.url, org.admin.token);
    try {
      const channel = await makeChannel(org, await makeTeam(org));
      const ann = await clientOf(org, await newChat(channel, 'ann-1', 'Ann Lee'));
      const twin = await clientOf(org, await newChat(channel, 'ann-2', 'Ann L.'));

      const patched = await org.admin.api.patch(`/api/clients/${ann}`, {
        name: 'Ann Renamed',
        tags: ['vip'],
        contacts: [{ kind: 'email', value: 'ann@example.com' }],
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal((await org.admin.api.post('/api/blacklist', { clientId: ann })).status, 200);
      assert.equal((await org.admin.api.delete(`/api/blacklist/${ann}`)).status, 200);
      const merged = await org.admin.api.post('/api/clients/merge', { targetId: ann, sourceIds: [twin] });
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      // The provider sends a new name: the client takes it (an operator's rename holds until then).
      await newChat(channel, 'ann-1', 'Ann Provider', 'It is me again');
      // The other organisation edits a client of its own.
      const otherChannel = await makeChannel(other, await makeTeam(other));
      const bob = await clientOf(other, await newChat(otherChannel, 'bob-2', 'Bob'));
      assert.equal((await other.admin.api.patch(`/api/clients/${bob}`, { tags: ['theirs'] })).status, 200);

      await waitFor(async () => hitsAt('/ok/updates').length >= 5 && hitsAt('/ok/updates-other').length >= 1);
      await settled(org, [hooked.id, createdOnly.id]);
      await settled(other, [theirs.id]);
      const hits = hitsAt('/ok/updates');
      assert.deepEqual(
        hits.map((h) => h.envelope.type),
        ['client.updated', 'client.updated', 'client.updated', 'client.merged', 'client.updated'],
      );
      for (const h of hits) {
        assert.ok(signedWith(h, hooked.secret));
        assert.equal(h.envelope.organisationId, org.id);
      }
      const [edited, blocked, unblocked, merge, renamed] = hits.map((h) => h.envelope.data);
      assert.equal(edited.id, ann);
      assert.equal(edited.name, 'Ann Renamed');
      assert.deepEqual(edited.tags, ['vip']);
      assert.deepEqual(edited.details, [{ kind: 'email', value: 'ann@example.com' }]);
      assert.equal(edited.blocked, false);
      assert.equal(blocked.blocked, true);
      assert.equal(typeof blocked.blockedAt, 'string');
      assert.equal(unblocked.blocked, false);
      // The kept client, with the merged one's contact, and who was merged into it.
      assert.equal(merge.client.id, ann);
      assert.deepEqual(merge.mergedIds, [twin]);
      assert.deepEqual(merge.client.contacts.map((c: { externalId: string }) => c.externalId).sort(), [
        'ann-1',
        'ann-2',
      ]);
      assert.equal(renamed.name, 'Ann Provider');
      assert.deepEqual(renamed, eventProfile(await profileOf(org, ann)));

      // Subscribed to client.created only: the two clients made, nothing else.
      assert.deepEqual(
        hitsAt('/ok/updates-created').map((h) => [h.envelope.type, h.envelope.data.id]),
        [
          ['client.created', ann],
          ['client.created', twin],
        ],
      );
      // The other organisation's endpoint: its own client's change only.
      assert.deepEqual(
        hitsAt('/ok/updates-other').map((h) => [
          h.envelope.type,
          h.envelope.organisationId,
          h.envelope.data.id,
        ]),
        [['client.updated', other.id, bob]],
      );
      assert.deepEqual(
        socket.events.filter((f) => logOnly.has(f.type)),
        [],
      );
      // The other organisation reads no client.created: the log keeps none of its.
      const logged = await s.db.query<{ type: string }>(
        "select type from events where organisation_id = $1 and type like 'client.%' order by id",
        [other.id],
      );
      assert.deepEqual(
        logged.map((r) => r.type),
        ['client.updated'],
      );
    } finally {
      socket.close();
    }
  });

  test('rating.created: the client’s score with its chat, to subscribers only', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const hooked = await subscribe(org, '/ok/ratings', ['rating.created']);
    const closings = await subscribe(org, '/ok/ratings-closed', ['chat.closed']);
    const theirs = await subscribe(other, '/ok/ratings-other', ['rating.created']);
    const teamId = await makeTeam(org);
    const operator = await org.user({ teams: [teamId] });
    await goOnline(operator);
    const channel = await makeChannel(org, teamId);
    const assessed = await org.admin.api.patch(`/api/channels/${channel.id}`, {
      assessment: { enabled: true, text: 'Rate us' },
    });
    assert.equal(assessed.status, 200, JSON.stringify(assessed.body));
    const categoryId = (await org.admin.api.post('/api/categories', { name: 'General' })).body.entity.id;

    const chatId = await newChat(channel, 'rated-1', 'Rita');
    const closed = await operator.api.post(`/api/chats/${chatId}/close`, { categoryId });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const messages = (await org.admin.api.get(`/api/chats/${chatId}/messages?limit=100`)).body.entity.items;
    const link = messages
      .map((m: { text: string }) => /\/link-action\/([0-9a-f-]{36})$/m.exec(m.text)?.[1])
      .find(Boolean);
    assert.ok(link, 'the client was asked');
    const rated = await s.api.post(`/api/link-actions/${link}`, { score: 4 });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    assert.equal((await s.api.post(`/api/link-actions/${link}`, { score: 1 })).status, 409);

    await waitFor(async () => hitsAt('/ok/ratings').length >= 1 && hitsAt('/ok/ratings-closed').length >= 1);
    await settled(org, [hooked.id, closings.id]);
    const hits = hitsAt('/ok/ratings');
    assert.equal(hits.length, 1, 'rated once');
    assert.ok(signedWith(hits[0], hooked.secret));
    assert.equal(hits[0].envelope.type, 'rating.created');
    assert.equal(hits[0].envelope.organisationId, org.id);
    const [listed] = (await org.admin.api.get(`/api/chats/${chatId}/ratings`)).body.entity;
    assert.deepEqual(hits[0].envelope.data, { chatId, ...listed });
    assert.equal(hits[0].envelope.data.score, 4);
    assert.equal(hits[0].envelope.data.value, 'GOOD');
    assert.deepEqual(typesAt('/ok/ratings-closed'), ['chat.closed']);
    await settled(other, [theirs.id]);
    assert.deepEqual(hitsAt('/ok/ratings-other'), []);
  });

  test('mailing.finished: the mailing with its figures when its run ends, finished or cancelled', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const hooked = await subscribe(org, '/ok/mailings', ['mailing.finished']);
    const chatsOnly = await subscribe(org, '/ok/mailings-chats', ['chat.created']);
    const theirs = await subscribe(other, '/ok/mailings-other', ['mailing.finished']);
    const channel = await makeChannel(org, await makeTeam(org), { webhookUrl: `${base}/ok/channel` });
    for (const name of ['Mia', 'Max']) {
      const chatId = await newChat(channel, name, name);
      await s.db.query("update chats set status = 'closed', closed_at = now() where id = $1", [chatId]);
    }
    await runPipeline(s.app);

    const create = async (body: Record<string, unknown>) => {
      const res = await org.admin.api.post('/api/mailings', {
        channelId: channel.id,
        marketingType: 'service',
        text: 'Hello {client_name}',
        ...body,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.entity.id as string;
    };
    const mailing = await create({ name: 'Spring news' });
    assert.equal((await org.admin.api.post(`/api/mailings/${mailing}/start`)).status, 200);
    const done = await waitFor(async () => {
      const m = (await org.admin.api.get(`/api/mailings/${mailing}`)).body.entity;
      return m.status === 'finished' && m;
    });
    // Scheduled for next week, then cancelled: its run ended too.
    const later = await create({
      name: 'Never sent',
      scheduledAt: new Date(s.clock.now().getTime() + 7 * 86_400_000).toISOString(),
    });
    const scheduled = await org.admin.api.post(`/api/mailings/${later}/start`);
    assert.equal(scheduled.body.entity.status, 'scheduled');
    assert.equal((await org.admin.api.post(`/api/mailings/${later}/cancel`)).status, 200);

    await waitFor(async () => hitsAt('/ok/mailings').length >= 2);
    await settled(org, [hooked.id, chatsOnly.id]);
    const hits = hitsAt('/ok/mailings');
    assert.deepEqual(
      hits.map((h) => [h.envelope.type, h.envelope.data.id, h.envelope.data.status]),
      [
        ['mailing.finished', mailing, 'finished'],
        ['mailing.finished', later, 'cancelled'],
      ],
    );
    for (const h of hits) assert.ok(signedWith(h, hooked.secret));
    const finished = hits[0].envelope.data;
    assert.equal(finished.name, 'Spring news');
    assert.equal(finished.finishedAt, done.finishedAt);
    assert.deepEqual(finished.stats, done.stats);
    assert.equal(finished.stats.recipients, 2);
    assert.equal(finished.stats.sent, 2);
    assert.equal(finished.stats.failed, 0);
    assert.equal(hits[1].envelope.data.name, 'Never sent');
    assert.deepEqual(typesAt('/ok/mailings-chats'), ['chat.created', 'chat.created']);
    await settled(other, [theirs.id]);
    assert.deepEqual(hitsAt('/ok/mailings-other'), []);
  });

  test('the API reference describes each event: when it is sent, the schema of its data, an example body', async () => {
    const doc = (await s.api.get('/api/openapi.json')).body;
    const hooks = doc['x-webhook-events'];
    assert.deepEqual(hooks.types, [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]);
    assert.deepEqual(Object.keys(hooks.events), [...WEBHOOK_EVENT_TYPES]);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const { description, data, example } = hooks.events[type];
      assert.equal(description, WEBHOOK_EVENT_DATA[type].description);
      assert.equal(data.type, 'object', type);
      assert.equal(example.type, type);
      const parsed = WEBHOOK_EVENT_DATA[type].schema.safeParse(example.data);
      assert.ok(parsed.success, `${type}: ${JSON.stringify(parsed.error?.issues)}`);
    }
    assert.equal(hooks.events['mailing.finished'].example.data.status, 'finished');
    const page = await fetch(`${s.url}/api/docs/app.js`);
    assert.match(await page.text(), /Example body/);
  });
});
