import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
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

/** Changes made in the team and user screens that give operators room hand out the Waiting queue at once. */
describe('Waiting queue after team and user changes', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('switching a manual team to round-robin assigns its Waiting chats', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const teamId = await makeTeam(org, { method: 'manual', memberIds: [op.id] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'manual' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, chatId)).status, 'waiting');
    assert.equal(
      (await org.admin.api.patch(`/api/teams/${teamId}`, { distributionMethod: 'round_robin' })).status,
      200,
    );
    const chat = await chatOf(org.admin, chatId);
    assert.equal(chat.status, 'in_progress');
    assert.equal(chat.operator.id, op.id);
  });

  test('raising the dialog limit lets the operator take the next Waiting chat', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const teamId = await makeTeam(org, { dialogLimit: 1, memberIds: [op.id] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const first = (await inbound(s, ch, { client: 'one' })).body.entity.chatId;
    const second = (await inbound(s, ch, { client: 'two' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, first)).status, 'in_progress');
    assert.equal((await chatOf(org.admin, second)).status, 'waiting');
    await org.admin.api.patch(`/api/teams/${teamId}`, { dialogLimit: 2 });
    assert.equal((await chatOf(org.admin, second)).operator?.id, op.id);
  });

  test('a deactivated operator’s chats go to a colleague, or back to Waiting when nobody has room', async () => {
    const org = await createOrganisation(s);
    const leaving = await org.user();
    const colleague = await org.user();
    const teamId = await makeTeam(org, { dialogLimit: 1, memberIds: [leaving.id] });
    await goOnline(leaving);
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'loyal' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, chatId)).operator?.id, leaving.id);
    await setMembers(org, teamId, [leaving.id, colleague.id]);
    await goOnline(colleague);
    const queued = (await inbound(s, ch, { client: 'queued' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, queued)).operator?.id, colleague.id, 'the colleague is now full');

    const rec = recordEvents(s);
    const deactivated = await org.admin.api.post(`/api/users/${leaving.id}/deactivate`);
    rec.stop();
    assert.equal(deactivated.status, 200);
    assert.equal(deactivated.body.entity.presence, 'offline');
    const offline = rec.events.find((e) => e.type === 'presence.changed');
    assert.deepEqual(
      {
        userId: (offline?.payload as { userId: string }).userId,
        status: (offline?.payload as { status: string }).status,
      },
      { userId: leaving.id, status: 'offline' },
    );
    const back = await chatOf(org.admin, chatId);
    assert.equal(back.status, 'waiting', 'nobody has room: back in the queue');
    assert.equal(back.operator, null);
    const history = (await org.admin.api.get(`/api/chats/${chatId}/history`)).body.entity.items;
    const last = history.at(-1);
    assert.equal(last.kind, 'redistribution');
    assert.equal(last.fromUserId, leaving.id);
    assert.equal(last.actorId, org.admin.id);

    // Room appears: the queue moves to the colleague.
    await org.admin.api.patch(`/api/teams/${teamId}`, { dialogLimit: 2 });
    assert.equal((await chatOf(org.admin, chatId)).operator?.id, colleague.id);
  });

  test('a member added to the team, or the team given to a user, takes its Waiting chats', async () => {
    const org = await createOrganisation(s);
    const a = await org.user();
    const b = await org.user();
    const teamId = await makeTeam(org);
    await goOnline(a);
    await goOnline(b);
    const ch = await makeChannel(org, teamId);
    const first = (await inbound(s, ch, { client: 'first' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, first)).status, 'waiting', 'nobody in the team yet');
    await setMembers(org, teamId, [a.id]);
    assert.equal((await chatOf(org.admin, first)).operator?.id, a.id);

    const otherTeam = await makeTeam(org);
    const other = await makeChannel(org, otherTeam);
    const second = (await inbound(s, other, { client: 'second' })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, second)).status, 'waiting');
    const res = await org.admin.api.put(`/api/users/${b.id}/teams`, { teamIds: [otherTeam] });
    assert.equal(res.status, 200);
    assert.equal((await chatOf(org.admin, second)).operator?.id, b.id);
  });
});
