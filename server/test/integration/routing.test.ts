import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { distributeTeamQueues } from '../../src/modules/conversation/routing-distribute.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import {
  chatOf,
  goOnline,
  inbound,
  makeChannel,
  makeTeam,
  recordEvents,
  setMembers,
} from './chats-fixtures.ts';

describe('routing to team queues', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('round-robin is fair among online operators and respects the dialog limit', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'round_robin', dialogLimit: 2 });
    const ops = [
      await org.user({ teams: [teamId] }),
      await org.user({ teams: [teamId] }),
      await org.user({ teams: [teamId] }),
    ];
    const offline = await org.user({ teams: [teamId] });
    for (const op of ops) await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const owners: (string | null)[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await inbound(s, ch, { client: `rr-${i}` });
      owners.push((await chatOf(org.admin, res.body.entity.chatId)).operator?.id ?? null);
    }
    // Every operator once before anyone twice, then twice each, then the limit holds the 7th back.
    assert.deepEqual(new Set(owners.slice(0, 3)).size, 3);
    assert.deepEqual(new Set(owners.slice(3, 6)).size, 3);
    for (const op of ops) assert.equal(owners.filter((o) => o === op.id).length, 2);
    assert.equal(owners[6], null);
    assert.ok(!owners.includes(offline.id));
    const counters = await ops[0].api.get('/api/chats/counters');
    assert.deepEqual(counters.body.entity, { inProgress: 2, waiting: 1 });
  });

  test('parallel new chats never push an operator over the limit and are shared evenly', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'round_robin', dialogLimit: 4 });
    const ops = [
      await org.user({ teams: [teamId] }),
      await org.user({ teams: [teamId] }),
      await org.user({ teams: [teamId] }),
    ];
    for (const op of ops) await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) => inbound(s, ch, { client: `p-${i}` })),
    );
    for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
    for (const op of ops) assert.equal((await op.api.get('/api/chats?filter=assigned')).body.entity.total, 4);
    assert.equal((await org.admin.api.get('/api/chats?filter=waiting')).body.entity.total, 2);
  });

  test('least-loaded gives new chats to the operator with the fewest open chats', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'least_loaded', dialogLimit: 10 });
    const a = await org.user({ teams: [teamId] });
    const b = await org.user({ teams: [teamId] });
    const ch = await makeChannel(org, teamId);
    await goOnline(a);
    for (let i = 0; i < 3; i++) await inbound(s, ch, { client: `a-${i}` });
    await goOnline(b);
    const owners: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await inbound(s, ch, { client: `b-${i}` });
      owners.push((await chatOf(org.admin, res.body.entity.chatId)).operator.id);
    }
    // b (0 open) catches up to a (3 open) before a receives anything more.
    assert.deepEqual(owners.slice(0, 3), [b.id, b.id, b.id]);
    const a1 = (await a.api.get('/api/chats?filter=assigned')).body.entity.total;
    const b1 = (await b.api.get('/api/chats?filter=assigned')).body.entity.total;
    assert.equal(a1 + b1, 7);
    assert.ok(Math.abs(a1 - b1) <= 1);
  });

  test('manual teams keep chats Waiting; of two simultaneous takers exactly one wins', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const a = await org.user({ teams: [teamId] });
    const b = await org.user({ teams: [teamId] });
    await goOnline(a);
    await goOnline(b);
    const ch = await makeChannel(org, teamId);
    for (let round = 0; round < 5; round++) {
      const res = await inbound(s, ch, { client: `m-${round}` });
      const chatId = res.body.entity.chatId;
      assert.equal((await chatOf(a, chatId)).status, 'waiting');
      const [ra, rb] = await Promise.all([
        a.api.post(`/api/chats/${chatId}/take`),
        b.api.post(`/api/chats/${chatId}/take`),
      ]);
      const statuses = [ra.status, rb.status].sort();
      assert.deepEqual(statuses, [200, 409], JSON.stringify([ra.body, rb.body]));
      const loser = ra.status === 409 ? ra : rb;
      assert.equal(loser.body.code, 'chatAlreadyTakenException');
      const winner = ra.status === 200 ? a : b;
      assert.equal((await chatOf(org.admin, chatId)).operator.id, winner.id);
      const history = await org.admin.api.get(`/api/chats/${chatId}/history`);
      assert.equal(history.body.entity.items.filter((h: { kind: string }) => h.kind === 'assign').length, 1);
    }
  });

  test('an operator of another team cannot see or take the chat', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const other = await makeTeam(org, { method: 'manual' });
    const stranger = await org.user({ teams: [other] });
    const ch = await makeChannel(org, teamId);
    const res = await inbound(s, ch, { client: 'x' });
    assert.equal((await stranger.api.post(`/api/chats/${res.body.entity.chatId}/take`)).status, 404);
    assert.equal((await stranger.api.get('/api/chats?filter=waiting')).body.entity.total, 0);
  });

  test('a returning client goes to their last operator when that operator is online', async () => {
    const org = await createOrganisation(s, { options: [] });
    const teamId = await makeTeam(org, { method: 'round_robin' });
    const a = await org.user({ teams: [teamId] });
    const b = await org.user({ teams: [teamId] });
    await goOnline(a);
    await goOnline(b);
    const ch = await makeChannel(org, teamId);
    const first = await inbound(s, ch, { client: 'loyal' });
    const firstOwner = (await chatOf(org.admin, first.body.entity.chatId)).operator.id;
    assert.equal((await org.admin.api.post(`/api/chats/${first.body.entity.chatId}/close`)).status, 200);
    // Round-robin would now pick the other operator; the returning client still goes back to theirs.
    const again = await inbound(s, ch, { client: 'loyal' });
    assert.equal((await chatOf(org.admin, again.body.entity.chatId)).operator.id, firstOwner);
    assert.equal((await org.admin.api.post(`/api/chats/${again.body.entity.chatId}/close`)).status, 200);
    // ... unless they are away.
    await goOnline(firstOwner === a.id ? a : b, 'break');
    const third = await inbound(s, ch, { client: 'loyal' });
    assert.notEqual((await chatOf(org.admin, third.body.entity.chatId)).operator.id, firstOwner);
  });

  test('going online hands out the team queue; only operators with AUTHORITY_CHAT_DISTRIBUTION receive chats', async () => {
    const org = await createOrganisation(s, { options: [] });
    const teamId = await makeTeam(org, { method: 'round_robin', dialogLimit: 2 });
    const ch = await makeChannel(org, teamId);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await inbound(s, ch, { client: `q-${i}` })).body.entity.chatId);
    const role = await org.admin.api.post('/api/roles', {
      name: 'Watcher',
      description: 'no chats',
      rights: ['AUTHORITY_PROFILE_UPDATE'],
    });
    const watcher = await org.user({ role: role.body.entity.id, teams: [teamId] });
    await goOnline(watcher);
    assert.equal((await chatOf(org.admin, ids[0])).status, 'waiting');
    const op = await org.user({ teams: [teamId] });
    const rec = recordEvents(s);
    await goOnline(op);
    rec.stop();
    const states = await Promise.all(ids.map((id) => chatOf(org.admin, id)));
    assert.deepEqual(
      states.map((c) => c.operator?.id ?? null),
      [op.id, op.id, null],
    );
    const assigned = rec.events.filter((e) => e.type === 'chat.assigned');
    assert.equal(assigned.length, 2);
    assert.deepEqual(assigned[0].audience, {
      rights: ['AUTHORITY_ALL_CHATS'],
      userIds: [op.id],
      teamIds: [teamId],
    });
    assert.ok(rec.events.some((e) => e.type === 'presence.changed'));
    // Closing one frees a seat: the queue moves to the operator at once.
    await setMembers(org, teamId, [op.id, watcher.id]);
    assert.equal((await op.api.post(`/api/chats/${ids[0]}/close`)).status, 200);
    assert.equal((await chatOf(org.admin, ids[2])).operator?.id, op.id);
  });

  test('a manual team gives a returning client to their last operator when online, under the limit, with the right', async () => {
    const org = await createOrganisation(s, { options: [] });
    const teamId = await makeTeam(org, { method: 'manual', dialogLimit: 1 });
    const a = await org.user({ teams: [teamId] });
    const b = await org.user({ teams: [teamId] });
    await goOnline(a);
    await goOnline(b);
    const ch = await makeChannel(org, teamId);
    const session = async (client: string) => (await inbound(s, ch, { client })).body.entity.chatId as string;
    const first = await session('loyal-m');
    assert.equal((await chatOf(org.admin, first)).status, 'waiting');
    assert.equal((await a.api.post(`/api/chats/${first}/take`)).status, 200);
    assert.equal((await a.api.post(`/api/chats/${first}/close`)).status, 200);
    // Back again: straight to a, although the team distributes nothing by itself.
    const rec = recordEvents(s);
    const again = await session('loyal-m');
    rec.stop();
    assert.equal((await chatOf(org.admin, again)).operator?.id, a.id);
    assert.ok(rec.events.some((e) => e.type === 'chat.assigned'));
    // A new client still waits.
    const stranger = await session('stranger');
    assert.equal((await chatOf(org.admin, stranger)).status, 'waiting');
    assert.equal((await a.api.post(`/api/chats/${again}/close`)).status, 200);
    // At the dialog limit: the returning client waits.
    assert.equal((await a.api.post(`/api/chats/${stranger}/take`)).status, 200);
    const full = await session('loyal-m');
    assert.equal((await chatOf(org.admin, full)).status, 'waiting');
    assert.equal((await org.admin.api.post(`/api/chats/${full}/close`)).status, 200);
    // Away: waits too.
    await goOnline(a, 'break');
    const away = await session('loyal-m');
    assert.equal((await chatOf(org.admin, away)).status, 'waiting');
    assert.equal((await org.admin.api.post(`/api/chats/${away}/close`)).status, 200);
    // A last operator without AUTHORITY_CHAT_DISTRIBUTION never receives chats automatically.
    const role = await org.admin.api.post('/api/roles', {
      name: 'Helper',
      description: 'takes by hand',
      // Taking by hand needs AUTHORITY_ALL_CHATS when the role does not receive dialogs.
      rights: ['AUTHORITY_PROFILE_UPDATE', 'AUTHORITY_ALL_CHATS'],
    });
    const helper = await org.user({ role: role.body.entity.id, teams: [teamId] });
    await goOnline(helper);
    const h1 = await session('helped');
    assert.equal((await helper.api.post(`/api/chats/${h1}/take`)).status, 200);
    assert.equal((await helper.api.post(`/api/chats/${h1}/close`)).status, 200);
    const h2 = await session('helped');
    assert.equal((await chatOf(org.admin, h2)).status, 'waiting');
  });

  test('closing a chat hands out the queues of all its operator’s teams', async () => {
    const org = await createOrganisation(s, { options: [] });
    const t1 = await makeTeam(org, { dialogLimit: 1 });
    const t2 = await makeTeam(org, { dialogLimit: 1 });
    const op = await org.user({ teams: [t1, t2] });
    await goOnline(op);
    const held = (await inbound(s, await makeChannel(org, t1), { client: 'held' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, held)).operator?.id, op.id);
    const queued = (await inbound(s, await makeChannel(org, t2), { client: 'queued' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, queued)).status, 'waiting');
    assert.equal((await op.api.post(`/api/chats/${held}/close`)).status, 200);
    assert.equal((await chatOf(org.admin, queued)).operator?.id, op.id);
  });

  test('a transfer away from an operator hands them the next Waiting chat', async () => {
    const org = await createOrganisation(s, { options: [] });
    const t1 = await makeTeam(org, { dialogLimit: 1 });
    const elsewhere = await makeTeam(org, { method: 'manual' });
    const a = await org.user({ teams: [t1] });
    const b = await org.user({ teams: [elsewhere] });
    await goOnline(a);
    await goOnline(b);
    const ch = await makeChannel(org, t1);
    const held = (await inbound(s, ch, { client: 'held' })).body.entity.chatId;
    const queued = (await inbound(s, ch, { client: 'queued' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, queued)).status, 'waiting');
    assert.equal((await a.api.post(`/api/chats/${held}/transfer`, { operatorId: b.id })).status, 200);
    assert.equal((await chatOf(org.admin, queued)).operator?.id, a.id);
  });

  test('a transfer to a team moves that team’s queue (the chat never goes back to the operator it left)', async () => {
    const org = await createOrganisation(s, { options: [] });
    const t1 = await makeTeam(org, { dialogLimit: 1 });
    const t2 = await makeTeam(org, { dialogLimit: 1 });
    const a = await org.user({ teams: [t1, t2] });
    await goOnline(a);
    const held = (await inbound(s, await makeChannel(org, t1), { client: 'held' })).body.entity.chatId;
    const queued = (await inbound(s, await makeChannel(org, t2), { client: 'queued' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, queued)).status, 'waiting');
    const rec = recordEvents(s);
    const moved = await a.api.post(`/api/chats/${held}/transfer`, { teamId: t2 });
    rec.stop();
    assert.equal(moved.status, 200);
    assert.equal(moved.body.entity.status, 'waiting');
    assert.equal(moved.body.entity.team.id, t2);
    assert.equal((await chatOf(org.admin, queued)).operator?.id, a.id);
    const counters = rec.events.filter((e) => e.type === 'counters.changed').map((e) => e.payload);
    assert.deepEqual(counters, [
      { chatId: held, teamId: t2, teamIds: [t2, t1] },
      { chatId: queued, teamId: t2, teamIds: [t2] },
    ]);
  });

  test('the routing command hands out a queue once the team has room (e.g. a raised dialog limit)', async () => {
    const org = await createOrganisation(s, { options: [] });
    const teamId = await makeTeam(org, { dialogLimit: 1 });
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    await inbound(s, ch, { client: 'one' });
    const queued = (await inbound(s, ch, { client: 'two' })).body.entity.chatId;
    // Room made outside the chat engine (the teams module calls the command itself after its changes).
    await s.app.db.query('update teams set dialog_limit = 2 where id = $1', [teamId]);
    assert.equal((await chatOf(org.admin, queued)).status, 'waiting');
    assert.equal(await distributeTeamQueues(s.app, [teamId]), 1);
    assert.equal((await chatOf(org.admin, queued)).operator?.id, op.id);
    assert.equal(await distributeTeamQueues(s.app, [teamId]), 0);
  });
});
