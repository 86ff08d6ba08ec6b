import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { drainOutbox, OUTBOX } from '../../src/jobs/outbox.ts';
import { startWebhookReceiver } from '../fakes/webhook.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

/** A provider endpoint: answers each request with the next status of the script (the last one repeats). */
const fakeWebhook = startWebhookReceiver;

async function waitFor(check: () => Promise<boolean> | boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('outbound delivery to the API channel webhook', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  async function setup(statuses: number[]) {
    const hook = await fakeWebhook(statuses);
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId, { webhookUrl: hook.url });
    const chatId = (await inbound(s, ch, { client: 'cust-7' })).body.entity.chatId;
    const status = async (messageId: string) => {
      const list = await op.api.get(`/api/chats/${chatId}/messages`);
      return list.body.entity.items.find((m: { id: string }) => m.id === messageId).status;
    };
    return { hook, org, op, ch, chatId, status };
  }

  test('a failed delivery is retried with backoff; the body is signed with the channel secret', async () => {
    const { hook, op, ch, chatId, status } = await setup([500, 200]);
    try {
      const rec = recordEvents(s);
      const sent = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'Your order shipped' });
      const messageId = sent.body.entity.id;
      await waitFor(() => hook.hits.length === 1);
      await waitFor(
        async () =>
          (
            await s.app.db.query(
              `select 1 from outbox where message_id = $1 and attempts = 1 and last_error is not null`,
              [messageId],
            )
          ).length === 1,
      );
      assert.equal(await status(messageId), 'pending');
      // Not yet due: nothing is sent before the backoff.
      await drainOutbox(s.app);
      assert.equal(hook.hits.length, 1);
      s.clock.advance(OUTBOX.baseDelayMs);
      await drainOutbox(s.app);
      await waitFor(async () => (await status(messageId)) === 'sent');
      assert.equal(hook.hits.length, 2);
      rec.stop();

      for (const hit of hook.hits) {
        const expected = `sha256=${createHmac('sha256', ch.webhookSecret).update(hit.body).digest('hex')}`;
        assert.equal(hit.headers['x-smartconnect-signature'], expected);
        assert.equal(hit.headers['content-type'], 'application/json');
      }
      const payload = JSON.parse(hook.hits[1].body);
      assert.equal(payload.event, 'message.created');
      assert.equal(payload.text, 'Your order shipped');
      assert.equal(payload.client.externalId, 'cust-7');
      assert.equal(payload.messageId, messageId);
      assert.equal(
        hook.hits[0].headers['x-smartconnect-delivery'],
        hook.hits[1].headers['x-smartconnect-delivery'],
      );
      const statusEvents = rec.events.filter((e) => e.type === 'message.status');
      assert.equal(statusEvents.length, 1);
      assert.equal((statusEvents[0].payload as { status: string }).status, 'sent');
      assert.deepEqual(statusEvents[0].audience.userIds, [op.id]);
    } finally {
      await hook.close();
    }
  });

  test('after the last attempt the message is undelivered; a 4xx answer is final at once', async () => {
    const { hook, op, chatId, status } = await setup([503]);
    try {
      const sent = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'ping' });
      const messageId = sent.body.entity.id;
      await waitFor(() => hook.hits.length === 1);
      for (let attempt = 2; attempt <= OUTBOX.maxAttempts; attempt++) {
        await waitFor(
          async () =>
            (
              await s.app.db.query(
                "select 1 from outbox where message_id = $1 and attempts = $2 and next_attempt_at < now() + interval '1 day' and last_error is not null",
                [messageId, attempt - 1],
              )
            ).length === 1,
        );
        s.clock.advance(OUTBOX.maxDelayMs);
        await drainOutbox(s.app);
        await waitFor(() => hook.hits.length === attempt);
      }
      await waitFor(async () => (await status(messageId)) === 'undelivered');
      s.clock.advance(OUTBOX.maxDelayMs * 10);
      await drainOutbox(s.app);
      assert.equal(hook.hits.length, OUTBOX.maxAttempts);
    } finally {
      await hook.close();
    }
    const rejecting = await setup([400]);
    try {
      const sent = await rejecting.op.api.post(`/api/chats/${rejecting.chatId}/messages`, { text: 'bad' });
      await waitFor(async () => (await rejecting.status(sent.body.entity.id)) === 'undelivered');
      assert.equal(rejecting.hook.hits.length, 1);
    } finally {
      await rejecting.hook.close();
    }
  });

  test('an edit is delivered as message.updated', async () => {
    const { hook, op, chatId, status } = await setup([200]);
    try {
      const sent = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'Helo' });
      await waitFor(async () => (await status(sent.body.entity.id)) === 'sent');
      await op.api.patch(`/api/chats/${chatId}/messages/${sent.body.entity.id}`, { text: 'Hello' });
      await waitFor(() => hook.hits.length === 2);
      const payload = JSON.parse(hook.hits[1].body);
      assert.equal(payload.event, 'message.updated');
      assert.equal(payload.text, 'Hello');
      assert.ok(payload.editedAt);
    } finally {
      await hook.close();
    }
  });

  test('the API channel reports delivered and read on our message: forward only, scoped to its own messages', async () => {
    const { hook, org, op, ch, chatId, status } = await setup([200]);
    try {
      const sent = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'Your parcel is on its way' });
      await waitFor(async () => (await status(sent.body.entity.id)) === 'sent');
      // The webhook payload carries our message id: that is what the integrator reports on.
      const messageId = JSON.parse(hook.hits[0].body).messageId;
      assert.equal(messageId, sent.body.entity.id);
      const report = (body: unknown, key = ch.inboundKey, channelId = ch.id) =>
        s.api.as(key).post(`/api/channels/${channelId}/status`, body);

      const rec = recordEvents(s);
      const delivered = await report({ messageId, status: 'delivered' });
      assert.equal(delivered.status, 200, JSON.stringify(delivered.body));
      assert.equal(delivered.body.entity.status, 'delivered');
      assert.equal((await report({ messageId, status: 'read' })).body.entity.status, 'read');
      // Never back: a late 'delivered' answers the message as it is and tells nobody.
      const late = await report({ messageId, status: 'delivered' });
      assert.equal(late.status, 200);
      assert.equal(late.body.entity.status, 'read');
      rec.stop();
      assert.equal(await status(messageId), 'read');
      const events = rec.events.filter((e) => e.type === 'message.status');
      assert.deepEqual(
        events.map((e) => (e.payload as { status: string }).status),
        ['delivered', 'read'],
      );
      assert.deepEqual(events[0].audience, { rights: ['AUTHORITY_ALL_CHATS'], userIds: [op.id] });
      assert.equal(events[0].organisationId, org.id);

      assert.equal((await report({ messageId, status: 'read' }, 'wrong-key')).status, 401);
      assert.equal((await report({ messageId, status: 'sent' })).status, 400);
      assert.equal((await report({ messageId: 'x', status: 'read' })).status, 400);
      const missing = await report({ messageId: '01890000-0000-7000-8000-000000000000', status: 'read' });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'messageNotFoundException');
      // The client's own message and an internal note are not ours to report on.
      const messages = (await op.api.get(`/api/chats/${chatId}/messages`)).body.entity.items;
      const incoming = messages.find((m: { direction: string }) => m.direction === 'in').id;
      assert.equal((await report({ messageId: incoming, status: 'read' })).status, 404);
      const note = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'VIP', internal: true });
      assert.equal((await report({ messageId: note.body.entity.id, status: 'read' })).status, 404);

      // Another channel of the same organisation, and another organisation: their messages are not found.
      const other = await setup([200]);
      try {
        const theirs = await other.op.api.post(`/api/chats/${other.chatId}/messages`, { text: 'theirs' });
        const theirId = theirs.body.entity.id;
        const sibling = await makeChannel(org, ch.teamId, { webhookUrl: hook.url });
        assert.equal(
          (await report({ messageId, status: 'read' }, sibling.inboundKey, sibling.id)).status,
          404,
        );
        const foreign = await report({ messageId: theirId, status: 'read' });
        assert.equal(foreign.status, 404);
        assert.equal(foreign.body.code, 'messageNotFoundException');
        assert.notEqual(await other.status(theirId), 'read');
      } finally {
        await other.hook.close();
      }
    } finally {
      await hook.close();
    }
  });

  test('a delivery report that beats the outbox is not undone by its late “sent”', async () => {
    const { hook, op, ch, chatId, status } = await setup([503, 200]);
    try {
      const sent = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'Hello' });
      const messageId = sent.body.entity.id;
      await waitFor(() => hook.hits.length === 1);
      const res = await s.api
        .as(ch.inboundKey)
        .post(`/api/channels/${ch.id}/status`, { messageId, status: 'delivered' });
      assert.equal(res.status, 200);
      assert.equal(await status(messageId), 'delivered');
      s.clock.advance(OUTBOX.baseDelayMs);
      await drainOutbox(s.app);
      await waitFor(() => hook.hits.length === 2);
      await waitFor(
        async () =>
          (
            await s.app.db.query("select 1 from outbox where message_id = $1 and status = 'done'", [
              messageId,
            ])
          ).length === 1,
      );
      assert.equal(await status(messageId), 'delivered');
    } finally {
      await hook.close();
    }
  });
});
