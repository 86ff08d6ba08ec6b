import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

describe('send idempotency (clientKey on POST /api/chats/{id}/messages)', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  /** A chat handled by operator Olga. */
  async function handledChat() {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const olga = await org.user({ teams: [teamId], name: 'Olga' });
    await goOnline(olga);
    const ch = await makeChannel(org, teamId);
    const chatId: string = (await inbound(s, ch, { client: `c-${Math.random()}` })).body.entity.chatId;
    assert.equal((await chatOf(olga, chatId)).operator.id, olga.id);
    return { org, olga, ch, chatId };
  }

  const key = () => `k-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const stored = async (chatId: string, text: string) =>
    (
      await s.db.query<{ n: number }>(
        'select count(*)::int as n from messages where chat_id = $1 and text = $2',
        [chatId, text],
      )
    )[0]?.n;
  const outboxRows = async (messageId: string) =>
    (
      await s.db.query<{ n: number }>('select count(*)::int as n from outbox where message_id = $1', [
        messageId,
      ])
    )[0]?.n;

  test('a repeat with the same key answers the first message; one message stored, emitted and queued for delivery', async () => {
    const { olga, chatId } = await handledChat();
    const clientKey = key();
    const rec = recordEvents(s);
    const first = await olga.api.post(`/api/chats/${chatId}/messages`, { text: 'Once only', clientKey });
    const again = await olga.api.post(`/api/chats/${chatId}/messages`, { text: 'Once only', clientKey });
    rec.stop();
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.entity.id, first.body.entity.id);
    assert.equal(again.body.entity.text, 'Once only');
    assert.equal(await stored(chatId, 'Once only'), 1);
    assert.equal(await outboxRows(first.body.entity.id), 1);
    const created = rec.events.filter(
      (e) => e.type === 'message.created' && (e.payload as { id: string }).id === first.body.entity.id,
    );
    assert.equal(created.length, 1);
    // A new key is a new message; no key at all never deduplicates.
    assert.notEqual(
      (await olga.api.post(`/api/chats/${chatId}/messages`, { text: 'Once only', clientKey: key() })).body
        .entity.id,
      first.body.entity.id,
    );
    await olga.api.post(`/api/chats/${chatId}/messages`, { text: 'No key' });
    await olga.api.post(`/api/chats/${chatId}/messages`, { text: 'No key' });
    assert.equal(await stored(chatId, 'No key'), 2);
  });

  test('two concurrent sends with the same key store one message and both answer it', async () => {
    const { olga, chatId } = await handledChat();
    const clientKey = key();
    const body = { text: 'Raced', clientKey };
    const [a, b, c] = await Promise.all([
      olga.api.post(`/api/chats/${chatId}/messages`, body),
      olga.api.post(`/api/chats/${chatId}/messages`, body),
      olga.api.post(`/api/chats/${chatId}/messages`, { ...body, internal: true }),
    ]);
    for (const r of [a, b, c]) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(a.body.entity.id, b.body.entity.id);
    assert.equal(b.body.entity.id, c.body.entity.id);
    assert.equal(await stored(chatId, 'Raced'), 1);
    assert.equal(await outboxRows(a.body.entity.id), a.body.entity.internal ? 0 : 1);
  });

  test('the key is per author and per chat: another author or another chat stores its own message', async () => {
    const { org, olga, ch, chatId } = await handledChat();
    const clientKey = key();
    const mine = await olga.api.post(`/api/chats/${chatId}/messages`, { text: 'Shared key', clientKey });
    const sup = await org.user({ role: 'SUPERVISOR' });
    const theirs = await sup.api.post(`/api/chats/${chatId}/messages`, {
      text: 'Shared key',
      internal: true,
      clientKey,
    });
    assert.equal(theirs.status, 200, JSON.stringify(theirs.body));
    assert.notEqual(theirs.body.entity.id, mine.body.entity.id);
    const otherChat: string = (await inbound(s, ch, { client: `d-${Math.random()}` })).body.entity.chatId;
    const elsewhere = await olga.api.post(`/api/chats/${otherChat}/messages`, {
      text: 'Shared key',
      clientKey,
    });
    assert.equal(elsewhere.status, 200, JSON.stringify(elsewhere.body));
    assert.notEqual(elsewhere.body.entity.id, mine.body.entity.id);
    assert.equal(await stored(chatId, 'Shared key'), 2);
  });

  test('a malformed key is refused with the field named; another organisation cannot replay a key', async () => {
    const { olga, chatId } = await handledChat();
    for (const clientKey of ['short', 'x'.repeat(65), 'has space in it', 42]) {
      const res = await olga.api.post(`/api/chats/${chatId}/messages`, { text: 'Bad key', clientKey });
      assert.equal(res.status, 400, JSON.stringify(clientKey));
      assert.equal(
        res.body.error?.fields?.clientKey,
        'Value specified incorrectly',
        JSON.stringify(res.body),
      );
    }
    assert.equal(await stored(chatId, 'Bad key'), 0);
    const clientKey = key();
    await olga.api.post(`/api/chats/${chatId}/messages`, { text: 'Private', clientKey });
    const stranger = await createOrganisation(s);
    const res = await stranger.admin.api.post(`/api/chats/${chatId}/messages`, {
      text: 'Private',
      clientKey,
    });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'chatNotFoundException');
    assert.equal(await stored(chatId, 'Private'), 1);
  });
});
