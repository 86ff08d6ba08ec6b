import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runDueTimers } from '../../src/jobs/timers.ts';
import { createOrganisation, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

const MIN = 60_000;
type Item = { id: string; unread: number; client: { name: string }; channel: { id: string } };

/** Every page of a list by cursor: the chats in order, and how many pages it took. */
async function walk(user: TestUser, path: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const url: string = `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await user.api.get(url);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    ids.push(...res.body.entity.items.map((c: Item) => c.id));
    cursor = res.body.entity.nextCursor;
    pages++;
  } while (cursor && pages < 100);
  return { ids, pages };
}

describe('chat lists: last activity, cursor pages, unread, filters, expired', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('newest activity first; a new client message moves a chat up with an unread count until read', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const op = await org.user({ teams: [teamId] });
    const ch = await makeChannel(org, teamId);
    const chats: string[] = [];
    for (const client of ['a', 'b', 'c']) {
      chats.push((await inbound(s, ch, { client, name: `Client ${client}` })).body.entity.chatId);
      s.clock.advance(1000);
    }
    const waiting = (await op.api.get('/api/chats?filter=waiting')).body.entity;
    assert.deepEqual(
      waiting.items.map((c: Item) => c.id),
      [...chats].reverse(),
    );
    assert.equal(waiting.total, 3);
    assert.equal(waiting.nextCursor, null);
    assert.deepEqual(
      waiting.items.map((c: Item) => c.unread),
      [1, 1, 1],
    );
    // The oldest chat gets two more messages: it moves to the top with 3 unread.
    await inbound(s, ch, { client: 'a', text: 'anyone?' });
    s.clock.advance(1000);
    await inbound(s, ch, { client: 'a', text: 'hello??' });
    const after = (await op.api.get('/api/chats?filter=waiting')).body.entity.items as Item[];
    assert.equal(after[0].id, chats[0]);
    assert.equal(after[0].unread, 3);
    // Reading resets it for this user only; a new message counts again.
    const read = await op.api.post(`/api/chats/${chats[0]}/read`);
    assert.equal(read.status, 200);
    assert.equal(read.body.entity.unread, 0);
    const mine = (await op.api.get('/api/chats?filter=waiting')).body.entity.items as Item[];
    assert.equal(mine.find((c) => c.id === chats[0])?.unread, 0);
    const admins = (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items as Item[];
    assert.equal(admins.find((c) => c.id === chats[0])?.unread, 3);
    s.clock.advance(1000);
    await inbound(s, ch, { client: 'a', text: 'still here' });
    const again = (await op.api.get('/api/chats?filter=waiting')).body.entity.items as Item[];
    assert.equal(again.find((c) => c.id === chats[0])?.unread, 1);
    // Operator answers do not count; taking moves the chat to In progress.
    assert.equal((await op.api.post(`/api/chats/${chats[0]}/take`)).status, 200);
    await op.api.post(`/api/chats/${chats[0]}/read`);
    await op.api.post(`/api/chats/${chats[0]}/messages`, { text: 'Here!' });
    const assigned = (await op.api.get('/api/chats?filter=assigned')).body.entity.items as Item[];
    assert.deepEqual(
      assigned.map((c) => [c.id, c.unread]),
      [[chats[0], 0]],
    );
  });

  test('cursor pages walk a list once, in order, also while chats tie on their activity stamp', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await makeChannel(org, teamId);
    for (let i = 0; i < 23; i++) {
      await inbound(s, ch, { client: `p-${i}` });
      if (i % 3 === 0) s.clock.advance(1000);
    }
    // Several chats share one stamp: the id breaks the tie.
    await s.db.query(
      `update chats set last_message_at = '2026-01-01T00:00:00Z' where organisation_id = $1 and contact_id in (
         select id from contacts where organisation_id = $1 and external_id in ('p-4', 'p-5', 'p-6', 'p-7'))`,
      [org.id],
    );
    const all = (await org.admin.api.get('/api/chats?filter=waiting&limit=500')).body.entity;
    assert.equal(all.items.length, 23);
    const { ids, pages } = await walk(org.admin, '/api/chats?filter=waiting', 5);
    assert.equal(pages, 5);
    assert.deepEqual(
      ids,
      all.items.map((c: Item) => c.id),
    );
    assert.equal(new Set(ids).size, 23);
    // Existing callers: offset still works without a cursor.
    const second = (await org.admin.api.get('/api/chats?filter=waiting&limit=5&offset=5')).body.entity;
    assert.deepEqual(
      second.items.map((c: Item) => c.id),
      ids.slice(5, 10),
    );
    for (const bad of ['nonsense', Buffer.from('[1,2]').toString('base64url')]) {
      const res = await org.admin.api.get(`/api/chats?filter=waiting&cursor=${bad}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.error.fields.cursor, 'Incorrect value entered');
    }
  });

  test('filters by channel, team, operator and quick search; an operator sees only their own', async () => {
    const org = await createOrganisation(s);
    const teamA = await makeTeam(org, { method: 'manual' });
    const teamB = await makeTeam(org, { method: 'manual' });
    const opA = await org.user({ teams: [teamA] });
    const opB = await org.user({ teams: [teamB] });
    const chA = await makeChannel(org, teamA);
    const chB = await makeChannel(org, teamB);
    const a1 = (await inbound(s, chA, { client: 'x1', name: 'Maria Petrova', text: 'Where is my parcel' }))
      .body.entity.chatId;
    const a2 = (await inbound(s, chA, { client: 'x2', name: 'John Smith', text: 'Refund please' })).body
      .entity.chatId;
    const b1 = (await inbound(s, chB, { client: 'y1', name: 'Ivan', text: 'Hi' })).body.entity.chatId;
    await goOnline(opA);
    await goOnline(opB);
    await opA.api.post(`/api/chats/${a1}/take`);
    await opB.api.post(`/api/chats/${b1}/take`);
    const sup = await org.user({ role: 'SUPERVISOR' });
    const ids = async (u: TestUser, qs: string) =>
      ((await u.api.get(`/api/chats?${qs}`)).body.entity.items as Item[]).map((c) => c.id).sort();
    assert.deepEqual(await ids(sup, 'filter=assigned'), [a1, b1].sort());
    assert.deepEqual(await ids(sup, `filter=assigned&operatorId=${opB.id}`), [b1]);
    assert.deepEqual(await ids(sup, `filter=assigned&teamId=${teamA}`), [a1]);
    assert.deepEqual(await ids(sup, `filter=assigned&channelId=${chB.id}`), [b1]);
    assert.deepEqual(await ids(sup, 'filter=assigned&q=petrov'), [a1]);
    assert.deepEqual(await ids(sup, 'filter=waiting&q=REFUND'), [a2]);
    assert.deepEqual(await ids(sup, 'filter=waiting&q=x2'), [a2]);
    assert.deepEqual(await ids(sup, 'filter=waiting&q=%25'), []);
    // Any message of the conversation, not only the last: the client asked about order #1042 earlier.
    await inbound(s, chA, { client: 'x2', name: 'John Smith', text: 'It is about order #1042, paid twice' });
    await inbound(s, chA, { client: 'x2', name: 'John Smith', text: 'Thanks' });
    assert.deepEqual(await ids(sup, 'filter=waiting&q=1042'), [a2]);
    assert.deepEqual(await ids(sup, 'filter=waiting&q=paid%20twice'), [a2]);
    assert.deepEqual(await ids(opA, 'filter=waiting&q=1042'), [a2]);
    assert.deepEqual(await ids(opB, 'filter=waiting&q=1042'), [], 'still only the chats one may see');
    // An operator filtering by someone else still sees only what is theirs.
    assert.deepEqual(await ids(opA, 'filter=assigned'), [a1]);
    assert.deepEqual(await ids(opA, `filter=assigned&operatorId=${opB.id}`), []);
    assert.deepEqual(await ids(opB, 'filter=waiting'), []);
    // The filters' choices: supervisors get every team and the operators, an operator their own teams.
    const supOptions = (await sup.api.get('/api/chats/filter-options')).body.entity;
    assert.deepEqual(supOptions.teams.map((t: { id: string }) => t.id).sort(), [teamA, teamB].sort());
    assert.ok(supOptions.operators.some((o: { id: string }) => o.id === opB.id));
    assert.deepEqual(supOptions.channels.map((c: { id: string }) => c.id).sort(), [chA.id, chB.id].sort());
    const opOptions = (await opA.api.get('/api/chats/filter-options')).body.entity;
    assert.deepEqual(
      opOptions.teams.map((t: { id: string }) => t.id),
      [teamA],
    );
    assert.deepEqual(opOptions.operators, []);
    // Another organisation sees none of it, whatever it filters by.
    const other = await createOrganisation(s);
    const otherOptions = (await other.admin.api.get('/api/chats/filter-options')).body.entity;
    assert.deepEqual([otherOptions.channels.length, otherOptions.teams.length], [0, 0]);
    assert.deepEqual(await ids(other.admin, `filter=assigned&channelId=${chA.id}`), []);
    assert.equal((await other.admin.api.post(`/api/chats/${a1}/read`)).status, 404);
    assert.equal((await opB.api.post(`/api/chats/${a1}/read`)).status, 404);
  });

  test("expired chats: open chats past the channel's 'expired' threshold unanswered; needs OPTION_EXPIRING", async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const op = await org.user({ teams: [teamId] });
    const ch = await makeChannel(org, teamId, { halfExpiredMinutes: 10, expiredMinutes: 20 });
    const late = (await inbound(s, ch, { client: 'late' })).body.entity.chatId;
    s.clock.advance(15 * MIN);
    await runDueTimers(s.app);
    const fresh = (await inbound(s, ch, { client: 'fresh' })).body.entity.chatId;
    assert.ok(fresh);
    const expired = async (u: TestUser) =>
      (await u.api.get('/api/chats/expired')).body.entity.items as Item[];
    assert.deepEqual(await expired(op), []);
    s.clock.advance(6 * MIN);
    await runDueTimers(s.app);
    const deadline = Date.now() + 5000;
    while ((await expired(op)).length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(
      (await expired(op)).map((c) => c.id),
      [late],
    );
    // Answered, it leaves the list.
    await goOnline(op);
    await op.api.post(`/api/chats/${late}/take`);
    await op.api.post(`/api/chats/${late}/messages`, { text: 'Sorry' });
    assert.deepEqual(await expired(op), []);
    const other = await org.user({ teams: [await makeTeam(org)] });
    assert.deepEqual(await expired(other), []);
    const noOption = await createOrganisation(s, { options: ['OPTION_CATEGORY'] });
    assert.equal((await noOption.admin.api.get('/api/chats/expired')).status, 403);
  });
});
