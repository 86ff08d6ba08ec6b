import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';

describe('deleting a team that chats and channels use', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('refused while a channel routes to it or a chat is open; kept for history afterwards', async () => {
    // Without request categories, so closing needs no category.
    const org = await createOrganisation(s, { options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY') });
    const api = org.admin.api;
    const team = (
      await api.post('/api/teams', { name: 'Hotline', description: 'Calls', memberIds: [org.admin.id] })
    ).body.entity;
    const channel = (
      await api.post('/api/channels', {
        type: 'api',
        name: 'Site',
        teamId: team.id,
        webhookUrl: 'http://127.0.0.1:9/x',
      })
    ).body.entity;
    const inbound = await s.api.as(channel.inboundKey).post(`/api/channels/${channel.id}/inbound`, {
      externalMessageId: 'm1',
      client: { externalId: 'c1', name: 'Ivan' },
      text: 'Hi',
    });
    assert.equal(inbound.status, 200);
    const chatId = inbound.body.entity.chatId;

    const refused = await api.delete(`/api/teams/${team.id}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'teamInUseException');
    assert.equal(refused.body.error.details.channels, 1);

    assert.equal((await api.delete(`/api/channels/${channel.id}`)).status, 200);
    const stillOpen = await api.delete(`/api/teams/${team.id}`);
    assert.equal(stillOpen.body.code, 'teamInUseException');
    assert.equal(stillOpen.body.error.details.openChats, 1);

    assert.equal((await api.post(`/api/chats/${chatId}/take`)).status, 200);
    assert.equal((await api.post(`/api/chats/${chatId}/close`)).status, 200);
    const deleted = await api.delete(`/api/teams/${team.id}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await api.get(`/api/teams/${team.id}`)).body.code, 'teamNotFoundException');
    assert.ok(!(await api.get('/api/teams')).body.entity.items.some((t: { id: string }) => t.id === team.id));
    assert.deepEqual((await api.get(`/api/users/${org.admin.id}`)).body.entity.teams, []);
    // The closed chat keeps its history, and the name is free again.
    assert.equal((await api.get(`/api/chats/${chatId}`)).status, 200);
    assert.equal((await api.post('/api/teams', { name: 'Hotline', description: 'New' })).status, 200);
    const moveTo = await api.put(`/api/users/${org.admin.id}/teams`, { teamIds: [team.id] });
    assert.equal(moveTo.body.error.fields.teamIds, 'Team specified incorrectly');
  });
});
