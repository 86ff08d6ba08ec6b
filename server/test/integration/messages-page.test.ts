import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

type Msg = { id: string; text: string; createdAt: string };

describe('messages of a chat: newest page first, older pages by cursor', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  /** A chat of an online operator with `extra` more client messages stored after its first one (m-0001 ...). */
  async function longChat(extra: number) {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const res = await inbound(s, ch, { client: `c-${Math.random()}`, text: 'first' });
    const chatId: string = res.body.entity.chatId;
    assert.equal((await chatOf(op, chatId)).operator.id, op.id);
    // Bulk history straight into the table: seconds apart after the first message; m-0700 and m-0701 share a
    // stamp (they straddle the first page's edge when there are 1,200).
    await s.db.query(
      `insert into messages (organisation_id, chat_id, channel_id, direction, text, created_at)
       select c.organisation_id, c.id, c.channel_id, 'in', 'm-' || lpad(g::text, 4, '0'),
              (select max(created_at) from messages where chat_id = c.id)
                + make_interval(secs => case when g = 701 then 700 else g end)
         from chats c, generate_series(1, $2::int) g where c.id = $1`,
      [chatId, extra],
    );
    return { org, op, chatId };
  }

  test('a chat longer than 1,000 messages: the first page is the newest, cursors walk back to the first without gaps or repeats', async () => {
    const { op, chatId } = await longChat(1200);
    const first = await op.api.get(`/api/chats/${chatId}/messages?limit=500`);
    assert.equal(first.status, 200);
    const p1 = first.body.entity;
    assert.equal(p1.total, 1201);
    assert.equal(p1.items.length, 500);
    // Oldest first within the page, ending with the newest message of the chat.
    assert.equal(p1.items.at(-1).text, 'm-1200');
    // m-0700 and m-0701 share a stamp: the id decides which of them is on this page.
    assert.ok(['m-0700', 'm-0701'].includes(p1.items[0].text), p1.items[0].text);
    assert.equal(p1.nextCursor, p1.items[0].id);
    const seen: Msg[] = [...p1.items];
    let cursor: string | null = p1.nextCursor;
    let pages = 1;
    while (cursor) {
      const res = await op.api.get(`/api/chats/${chatId}/messages?limit=500&before=${cursor}`);
      assert.equal(res.status, 200);
      seen.unshift(...res.body.entity.items);
      cursor = res.body.entity.nextCursor;
      pages++;
    }
    assert.equal(pages, 3);
    assert.equal(seen.length, 1201);
    assert.equal(new Set(seen.map((m) => m.id)).size, 1201);
    assert.equal(seen[0].text, 'first');
    const texts = seen.slice(1).map((m) => m.text);
    assert.deepEqual(
      [...texts].sort(),
      Array.from({ length: 1200 }, (_, i) => `m-${String(i + 1).padStart(4, '0')}`),
    );
    // In stored order: by stamp, the two that share one by id.
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]];
      assert.ok(a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id), `order at ${i}`);
    }
  });

  test('without a limit: the newest 200; the oldest page says there is no older one', async () => {
    const { op, chatId } = await longChat(250);
    const p1 = (await op.api.get(`/api/chats/${chatId}/messages`)).body.entity;
    assert.equal(p1.items.length, 200);
    assert.equal(p1.items.at(-1).text, 'm-0250');
    const p2 = (await op.api.get(`/api/chats/${chatId}/messages?before=${p1.nextCursor}`)).body.entity;
    assert.equal(p2.items.length, 51);
    assert.equal(p2.items[0].text, 'first');
    assert.equal(p2.nextCursor, null);
    // A short chat fits in one page.
    const short = await longChat(0);
    const only = (await short.op.api.get(`/api/chats/${short.chatId}/messages`)).body.entity;
    assert.deepEqual(
      [only.items.length, only.total, only.nextCursor, only.items[0].text],
      [1, 1, null, 'first'],
    );
  });

  test('a sent message appears at the end of the newest page', async () => {
    const { op, chatId } = await longChat(300);
    const sent = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'latest answer' });
    assert.equal(sent.status, 200);
    const p1 = (await op.api.get(`/api/chats/${chatId}/messages?limit=10`)).body.entity;
    assert.equal(p1.items.at(-1).id, sent.body.entity.id);
    assert.equal(p1.total, 302);
  });

  test('a cursor of another chat, a bad cursor or limit, and a chat the caller may not see are refused', async () => {
    const a = await longChat(5);
    const b = await longChat(5);
    const bFirst = (await b.op.api.get(`/api/chats/${b.chatId}/messages`)).body.entity.items[0].id;
    const foreign = await a.op.api.get(`/api/chats/${a.chatId}/messages?before=${bFirst}`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'messageNotFoundException');
    const bad = await a.op.api.get(`/api/chats/${a.chatId}/messages?before=not-a-uuid`);
    assert.equal(bad.status, 400);
    assert.equal((await a.op.api.get(`/api/chats/${a.chatId}/messages?limit=0`)).status, 400);
    assert.equal((await a.op.api.get(`/api/chats/${a.chatId}/messages?limit=1001`)).status, 400);
    // Another organisation's chat, and a colleague's chat in progress: not found, with or without a cursor.
    for (const path of [
      `/api/chats/${b.chatId}/messages`,
      `/api/chats/${b.chatId}/messages?before=${bFirst}`,
    ]) {
      const res = await a.op.api.get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 'chatNotFoundException');
    }
    const colleague = await a.org.user({});
    assert.equal((await colleague.api.get(`/api/chats/${a.chatId}/messages`)).status, 404);
  });
});
