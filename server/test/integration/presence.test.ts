import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setPresence } from '../../src/modules/presence/service.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

describe('operator presence', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('the toggle sets the current user’s presence and tells their teams and supervisors', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    const rec = recordEvents(s);
    const res = await op.api.patch('/api/presence', { status: 'online' });
    rec.stop();
    assert.equal(res.status, 200);
    assert.equal(res.body.entity.status, 'online');
    assert.equal(res.body.entity.userId, op.id);
    assert.equal(res.body.entity.reason, 'manual');
    assert.equal((await op.api.get('/api/auth/user')).body.entity.presence, 'online');
    const ev = rec.events.filter((e) => e.type === 'presence.changed');
    assert.equal(ev.length, 1);
    assert.equal(ev[0].organisationId, org.id);
    assert.deepEqual(ev[0].audience, {
      userIds: [op.id],
      teamIds: [teamId],
      rights: ['AUTHORITY_ALL_CHATS'],
    });
    assert.equal((await op.api.patch('/api/presence', { status: 'break' })).body.entity.status, 'break');
    assert.equal((await op.api.patch('/api/presence', { status: 'asleep' })).status, 400);
    assert.equal((await s.api.patch('/api/presence', { status: 'online' })).status, 401);
  });

  test('the licence limit counts only online holders of AUTHORITY_CHAT_DISTRIBUTION', async () => {
    const org = await createOrganisation(s);
    await s.app.db.query('update organisations set operator_licences = 2 where id = $1', [org.id]);
    const [a, b, c] = [await org.user(), await org.user(), await org.user()];
    await goOnline(a);
    await goOnline(b);
    const refused = await c.api.patch('/api/presence', { status: 'online' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'allLicencesTakenException');
    assert.equal((await c.api.get('/api/auth/user')).body.entity.presence, 'offline');
    // Staying online is not taking another licence.
    assert.equal((await a.api.patch('/api/presence', { status: 'online' })).status, 200);
    const role = await org.admin.api.post('/api/roles', {
      name: 'Auditor',
      description: 'reads',
      rights: ['AUTHORITY_PROFILE_UPDATE'],
    });
    const auditor = await org.user({ role: role.body.entity.id });
    assert.equal((await auditor.api.patch('/api/presence', { status: 'online' })).status, 200);
    await goOnline(b, 'break');
    assert.equal((await c.api.patch('/api/presence', { status: 'online' })).status, 200);
  });

  test('simultaneous go-online requests never exceed the licences', async () => {
    const org = await createOrganisation(s);
    await s.app.db.query('update organisations set operator_licences = 3 where id = $1', [org.id]);
    const users = await Promise.all(Array.from({ length: 6 }, () => org.user()));
    const results = await Promise.all(users.map((u) => u.api.patch('/api/presence', { status: 'online' })));
    assert.equal(results.filter((r) => r.status === 200).length, 3);
    assert.equal(results.filter((r) => r.body.code === 'allLicencesTakenException').length, 3);
  });

  test('setPresence (the gateway’s disconnect) goes offline without moving the operator’s chats', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const chatId = (await inbound(s, ch, { client: 'stay' })).body.entity.chatId;
    const rec = recordEvents(s);
    await setPresence(s.app, { organisationId: org.id, userId: op.id }, 'offline', 'disconnect');
    rec.stop();
    const ev = rec.events.find((e) => e.type === 'presence.changed');
    assert.deepEqual(ev?.payload && { ...(ev.payload as object), changedAt: undefined }, {
      userId: op.id,
      status: 'offline',
      reason: 'disconnect',
      changedAt: undefined,
    });
    assert.equal(rec.events.filter((e) => e.type.startsWith('chat.')).length, 0);
    assert.equal((await chatOf(op, chatId)).operator.id, op.id);
  });
});
