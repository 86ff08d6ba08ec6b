import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

/**
 * A channel's visible teams (channels.visible_team_ids, "teams that see the channel besides its own") see its
 * Waiting chats like the chat's own team: in lists and counters, by id, over the websocket (live and on resume),
 * and may take them. Other teams see nothing of them.
 */
describe('channel visibility: a Waiting chat shows to the channel’s visible teams', () => {
  let s: TestServer;
  const clients: RealtimeClient[] = [];
  before(async () => {
    s = await startTestServer({ env: process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {} });
  });
  after(async () => {
    for (const c of clients) c.close();
    await s.close();
  });
  const connect = async (token: string, lastEventId?: string) => {
    const c = await RealtimeClient.connect(s.url, token, lastEventId);
    clients.push(c);
    return c;
  };
  const chatEvents = (c: RealtimeClient, chatId: string) =>
    c.events.filter((f) => f.payload?.id === chatId || f.payload?.chatId === chatId);
  const waitingIds = async (u: TestUser) =>
    (await u.api.get('/api/chats?filter=waiting')).body.entity.items.map((c: { id: string }) => c.id);
  const counters = async (u: TestUser) => (await u.api.get('/api/chats/counters')).body.entity;

  test('a member of a visible team sees, follows and takes the chat; another team sees nothing; un-shared, new chats stay hidden', async () => {
    const org = await createOrganisation(s);
    // Manual queues: nothing routes the chats away while the test looks at them.
    const teamA = await makeTeam(org, { method: 'manual' });
    const teamB = await makeTeam(org, { method: 'manual' });
    const teamC = await makeTeam(org, { method: 'manual' });
    const opB = await org.user({ role: 'OPERATOR', teams: [teamB] });
    const colleagueB = await org.user({ role: 'OPERATOR', teams: [teamB] });
    const opC = await org.user({ role: 'OPERATOR', teams: [teamC] });
    await goOnline(opB);
    await goOnline(opC);
    const ch = await makeChannel(org, teamA, { visibleTeamIds: [teamB] });
    const chC = await makeChannel(org, teamC);

    const socketB = await connect(opB.token);
    const socketColleague = await connect(colleagueB.token);
    const socketC = await connect(opC.token);
    const cursor = socketB.frames[0].id;
    const cursorC = socketC.frames[0].id;

    const rec = recordEvents(s);
    const opened = await inbound(s, ch, { client: 'v-1', text: 'first' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const chatId = opened.body.entity.chatId;
    await inbound(s, ch, { client: 'v-1', text: 'still waiting' });
    rec.stop();
    for (const e of rec.events) {
      assert.deepEqual(new Set(e.audience.teamIds), new Set([teamA, teamB]), e.type);
      if (e.type === 'counters.changed')
        assert.deepEqual(new Set((e.payload as { teamIds: string[] }).teamIds), new Set([teamA, teamB]));
    }

    // Live: B's members get the chat and its messages.
    await socketB.waitFor(
      () =>
        chatEvents(socketB, chatId).some((f) => f.type === 'chat.created') &&
        chatEvents(socketB, chatId).filter((f) => f.type === 'message.created').length === 2,
    );
    assert.ok(socketB.events.some((f) => f.type === 'counters.changed' && f.payload.chatId === chatId));

    // REST: listed, counted, readable, its client too.
    assert.deepEqual(await waitingIds(opB), [chatId]);
    assert.deepEqual(await counters(opB), { inProgress: 0, waiting: 1 });
    const read = await opB.api.get(`/api/chats/${chatId}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.entity.status, 'waiting');
    assert.equal(read.body.entity.team.id, teamA);
    assert.equal((await opB.api.get(`/api/chats/${chatId}/messages`)).body.entity.total, 2);
    const clientId = read.body.entity.client.id;
    assert.equal((await opB.api.get(`/api/clients/${clientId}`)).status, 200);

    // Team C: nothing, by REST or by socket.
    assert.deepEqual(await waitingIds(opC), []);
    assert.deepEqual(await counters(opC), { inProgress: 0, waiting: 0 });
    assert.equal((await opC.api.get(`/api/chats/${chatId}`)).status, 404);
    assert.equal((await opC.api.get(`/api/chats/${chatId}/messages`)).status, 404);
    assert.equal((await opC.api.get(`/api/clients/${clientId}`)).status, 404);
    assert.equal((await opC.api.post(`/api/chats/${chatId}/take`, {})).status, 404);
    const markerC = (await inbound(s, chC, { client: 'c-1' })).body.entity.chatId;
    await socketC.waitFor(() => chatEvents(socketC, markerC).length > 0);
    assert.equal(chatEvents(socketC, chatId).length, 0);

    // On resume: B's replay holds the chat's events; C's none.
    const resumed = await connect(opB.token, cursor);
    assert.equal(resumed.frames[0].type, 'hello');
    assert.equal(resumed.frames[0].payload.resumed, true);
    await resumed.waitFor(
      () =>
        chatEvents(resumed, chatId).some((f) => f.type === 'chat.created') &&
        chatEvents(resumed, chatId).filter((f) => f.type === 'message.created').length === 2,
    );
    const resumedC = await connect(opC.token, cursorC);
    assert.equal(resumedC.frames[0].type, 'hello');
    await resumedC.waitFor(() => chatEvents(resumedC, markerC).length > 0);
    assert.equal(chatEvents(resumedC, chatId).length, 0);

    // B takes it: B's operator becomes its operator, it stays team A's; B's colleague drops it, counts refresh.
    const taken = await opB.api.post(`/api/chats/${chatId}/take`, {});
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.equal(taken.body.entity.status, 'in_progress');
    assert.equal(taken.body.entity.operator.id, opB.id);
    assert.equal(taken.body.entity.team.id, teamA);
    await socketColleague.waitFor(() =>
      chatEvents(socketColleague, chatId).some((f) => f.type === 'chat.assigned'),
    );
    await socketColleague.waitFor(() =>
      socketColleague.events.some(
        (f) =>
          f.type === 'counters.changed' && f.payload.chatId === chatId && f.payload.teamIds.includes(teamB),
      ),
    );
    assert.deepEqual(await waitingIds(colleagueB), []);
    assert.equal((await colleagueB.api.get(`/api/chats/${chatId}`)).status, 404);
    assert.deepEqual(await counters(opB), { inProgress: 1, waiting: 0 });
    assert.equal((await opC.api.post(`/api/chats/${chatId}/take`, {})).status, 404);
    // A second take by a member of the visible team: already taken, not hidden.
    assert.equal((await colleagueB.api.post(`/api/chats/${chatId}/take`, {})).status, 409);

    // Team B removed from the channel's visible teams: a new Waiting chat is not B's to see.
    const patched = await org.admin.api.patch(`/api/channels/${ch.id}`, { visibleTeamIds: [] });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.entity.visibleTeamIds, []);
    const hidden = (await inbound(s, ch, { client: 'v-2' })).body.entity.chatId;
    await inbound(s, ch, { client: 'v-2', text: 'again' });
    assert.equal((await opB.api.get(`/api/chats/${hidden}`)).status, 404);
    assert.deepEqual(await waitingIds(opB), []);
    assert.deepEqual(await counters(opB), { inProgress: 1, waiting: 0 });
    assert.equal((await opB.api.post(`/api/chats/${hidden}/take`, {})).status, 404);
    // The chat B took stays theirs.
    assert.equal((await opB.api.get(`/api/chats/${chatId}`)).status, 200);
    const markerB = (await inbound(s, await makeChannel(org, teamB), { client: 'b-1' })).body.entity.chatId;
    await socketColleague.waitFor(() => chatEvents(socketColleague, markerB).length > 0);
    assert.equal(chatEvents(socketColleague, hidden).length, 0);
    // Team A's own view is as before.
    assert.ok((await waitingIds(org.admin)).includes(hidden));
  });

  test('transferred or closed while waiting: the visible team’s members are told, so their lists drop it', async () => {
    // Without OPTION_CATEGORY a chat closes without a category.
    const org = await createOrganisation(s, { options: [] });
    const teamA = await makeTeam(org, { method: 'manual' });
    const teamB = await makeTeam(org, { method: 'manual' });
    const teamD = await makeTeam(org, { method: 'manual' });
    const watcher = await org.user({ role: 'OPERATOR', teams: [teamB] });
    const ch = await makeChannel(org, teamA, { visibleTeamIds: [teamB] });
    const socket = await connect(watcher.token);
    const closing = (await inbound(s, ch, { client: 'x-1' })).body.entity.chatId;
    const moving = (await inbound(s, ch, { client: 'x-2' })).body.entity.chatId;
    assert.deepEqual(new Set(await waitingIds(watcher)), new Set([closing, moving]));

    assert.equal((await org.admin.api.post(`/api/chats/${closing}/close`, {})).status, 200);
    await socket.waitFor(() => chatEvents(socket, closing).some((f) => f.type === 'chat.closed'));
    // Moved to team D's queue, it still shows to B: the channel is the same.
    const moved = await org.admin.api.post(`/api/chats/${moving}/transfer`, { teamId: teamD });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    await socket.waitFor(() => chatEvents(socket, moving).some((f) => f.type === 'chat.transferred'));
    assert.deepEqual(await waitingIds(watcher), [moving]);
    assert.equal((await watcher.api.get(`/api/chats/${closing}`)).status, 404);
  });
});
