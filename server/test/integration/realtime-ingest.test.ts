import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

/** The gateway over the real conversation flow: ingest, routing, take, close. */
let s: TestServer;
const sockets: RealtimeClient[] = [];
before(async () => {
  // With REDIS_URL (the CI run on PostgreSQL) the gateway runs over the Redis bus.
  s = await startTestServer({ env: process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {} });
});
after(async () => {
  for (const c of sockets) c.close();
  await s.close();
});
const connect = async (token: string, lastEventId?: string) => {
  const c = await RealtimeClient.connect(s.url, token, lastEventId);
  sockets.push(c);
  return c;
};
const mentions = (c: RealtimeClient, text: string) =>
  c.events.filter((f) => JSON.stringify(f.payload).includes(text)).map((f) => f.type);

describe('realtime over the conversation flow', () => {
  test("an operator sees their team's waiting chats and their own chats, never another team's or organisation's", async () => {
    const orgA = await createOrganisation(s);
    const orgB = await createOrganisation(s);
    const teamX = await makeTeam(orgA, { method: 'manual' });
    const teamY = await makeTeam(orgA, { method: 'manual' });
    const teamB = await makeTeam(orgB, { method: 'manual' });
    const opX = await orgA.user({ teams: [teamX] });
    const opY = await orgA.user({ teams: [teamY] });
    const sup = await orgA.user({ role: 'SUPERVISOR' });
    const opB = await orgB.user({ teams: [teamB] });
    const [chX, chY, chB] = [
      await makeChannel(orgA, teamX),
      await makeChannel(orgA, teamY),
      await makeChannel(orgB, teamB),
    ];
    const [cX, cY, cSup, cB] = await Promise.all([opX, opY, sup, opB].map((u) => connect(u.token)));

    assert.equal((await inbound(s, chX, { client: 'cx', text: 'for-team-x' })).status, 200);
    assert.equal((await inbound(s, chY, { client: 'cy', text: 'for-team-y' })).status, 200);
    assert.equal((await inbound(s, chB, { client: 'cb', text: 'for-org-b' })).status, 200);
    await cX.waitFor(() => mentions(cX, 'for-team-x').includes('message.created'));
    await cY.waitFor(() => mentions(cY, 'for-team-y').includes('message.created'));
    await cSup.waitFor(
      () =>
        mentions(cSup, 'for-team-x').includes('message.created') &&
        mentions(cSup, 'for-team-y').includes('message.created'),
    );
    await cB.waitFor(() => mentions(cB, 'for-org-b').includes('message.created'));

    // The operator of X takes the chat; then X's own events keep flowing to X, not to Y.
    const waiting = await opX.api.get('/api/chats?filter=waiting');
    assert.equal(waiting.status, 200, JSON.stringify(waiting.body));
    const chatId: string = waiting.body.entity.items[0].id;
    assert.equal((await opX.api.post(`/api/chats/${chatId}/take`)).status, 200);
    assert.equal((await inbound(s, chX, { client: 'cx', text: 'second-for-x' })).status, 200);
    await cX.waitFor(() => mentions(cX, 'second-for-x').includes('message.created'));
    await cX.waitFor(() => cX.events.some((f) => f.type === 'chat.assigned'));
    await cSup.waitFor(() => mentions(cSup, 'second-for-x').includes('message.created'));
    // Give any stray delivery time to arrive before asserting its absence.
    await new Promise((r) => setTimeout(r, 300));
    for (const text of ['for-team-x', 'second-for-x', 'for-org-b'])
      assert.deepEqual(mentions(cY, text), [], `Y saw ${text}`);
    for (const text of ['for-team-y', 'for-org-b']) assert.deepEqual(mentions(cX, text), [], `X saw ${text}`);
    assert.deepEqual(mentions(cSup, 'for-org-b'), []);
    for (const text of ['for-team-x', 'for-team-y', 'second-for-x']) assert.deepEqual(mentions(cB, text), []);
    assert.ok(cX.events.every((f) => /^\d+$/.test(f.id)));
  });

  test('an operator whose socket dropped while chats were routed to them resumes with every missed event', async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ teams: [] });
    const team = await makeTeam(org, { method: 'round_robin', memberIds: [op.id], dialogLimit: 50 });
    const ch = await makeChannel(org, team);
    await goOnline(op);
    const c1 = await connect(op.token);
    assert.equal((await inbound(s, ch, { client: 'k0', text: 'before-drop' })).status, 200);
    // The message, then the routing's assignment (its own transaction, a moment later): both before the cursor.
    await c1.waitFor(() => mentions(c1, 'before-drop').includes('message.created'));
    await c1.waitFor(() => mentions(c1, 'before-drop').includes('chat.assigned'));
    const cursor = c1.lastId;
    c1.close();
    for (let i = 0; i < 5; i++)
      assert.equal((await inbound(s, ch, { client: `k${i}`, text: `missed-${i}` })).status, 200);
    const c2 = await connect(op.token, cursor);
    assert.equal((await inbound(s, ch, { client: 'k9', text: 'after-resume' })).status, 200);
    await c2.waitFor(() => mentions(c2, 'after-resume').includes('message.created'));
    for (let i = 0; i < 5; i++)
      assert.deepEqual(
        mentions(c2, `missed-${i}`).filter((t) => t === 'message.created'),
        ['message.created'],
      );
    assert.deepEqual(mentions(c2, 'before-drop'), [], 'nothing from before the cursor');
    const ids = c2.events.map((f) => Number(f.id));
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
  });
});
