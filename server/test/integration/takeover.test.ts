import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

describe('take over a chat (AUTHORITY_ALL_CHATS)', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  /** A chat assigned to operator Olga of a round-robin team; Oleg, a second operator of the team, stays on break. */
  async function handledChat() {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { dialogLimit: 1 });
    const olga = await org.user({ teams: [teamId], name: 'Olga' });
    const oleg = await org.user({ teams: [teamId], name: 'Oleg' });
    await goOnline(olga);
    const ch = await makeChannel(org, teamId);
    const chatId: string = (await inbound(s, ch, { client: `c-${Math.random()}` })).body.entity.chatId;
    assert.equal((await chatOf(olga, chatId)).operator.id, olga.id);
    return { org, teamId, olga, oleg, ch, chatId };
  }

  test('a supervisor takes over: becomes the operator, history records it, the old operator loses the chat and gets the next one', async () => {
    const { org, olga, ch, chatId } = await handledChat();
    // A second client waits: Olga's dialog limit of 1 is full.
    const waitingId: string = (await inbound(s, ch, { client: `w-${Math.random()}` })).body.entity.chatId;
    assert.equal((await chatOf(org.admin, waitingId)).status, 'waiting');
    const sup = await org.user({ role: 'SUPERVISOR', name: 'Sam' });
    const rec = recordEvents(s);
    const res = await sup.api.post(`/api/chats/${chatId}/takeover`);
    rec.stop();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.entity.operator.id, sup.id);
    assert.equal(res.body.entity.status, 'in_progress');
    const history = (await sup.api.get(`/api/chats/${chatId}/history`)).body.entity.items;
    const last = history.at(-1);
    assert.deepEqual(
      { kind: last.kind, actorId: last.actorId, fromUserId: last.fromUserId, toUserId: last.toUserId },
      { kind: 'takeover', actorId: sup.id, fromUserId: olga.id, toUserId: sup.id },
    );
    // Olga was told (her list drops it) and no longer sees or writes in the chat.
    const told = rec.events.find((e) => e.type === 'chat.transferred');
    assert.ok(told?.audience.userIds?.includes(olga.id), JSON.stringify(told?.audience));
    // Her screen's notice (issue 36): only to her, naming who took it.
    const notice = rec.events.filter((e) => e.type === 'chat.takenAway');
    assert.equal(notice.length, 1);
    assert.deepEqual(notice[0].audience, { userIds: [olga.id] });
    assert.deepEqual(
      { ...(notice[0].payload as object), client: undefined },
      { chatId, kind: 'takeover', by: { id: sup.id, name: 'Sam' }, client: undefined },
    );
    assert.equal((await olga.api.get(`/api/chats/${chatId}`)).status, 404);
    assert.equal((await olga.api.post(`/api/chats/${chatId}/messages`, { text: 'still mine?' })).status, 404);
    // The supervisor answers the client.
    assert.equal((await sup.api.post(`/api/chats/${chatId}/messages`, { text: 'I will help' })).status, 200);
    // Olga had room again: the waiting chat came to her.
    assert.equal((await chatOf(org.admin, waitingId)).operator?.id, olga.id);
  });

  test('a chat transferred away by someone else tells its operator (chat.takenAway); her own transfer does not', async () => {
    const { org, olga, oleg, chatId } = await handledChat();
    await goOnline(oleg);
    const rec = recordEvents(s);
    const moved = await org.admin.api.post(`/api/chats/${chatId}/transfer`, { operatorId: oleg.id });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const notice = rec.events.filter((e) => e.type === 'chat.takenAway');
    assert.equal(notice.length, 1);
    assert.deepEqual(notice[0].audience, { userIds: [olga.id] });
    assert.equal((notice[0].payload as { kind: string }).kind, 'transfer');
    assert.equal((notice[0].payload as { by: { id: string } }).by.id, org.admin.id);
    // Oleg passes it on himself: nobody is told it was taken.
    await goOnline(olga);
    const before = rec.events.length;
    assert.equal((await oleg.api.post(`/api/chats/${chatId}/transfer`, { operatorId: olga.id })).status, 200);
    rec.stop();
    assert.ok(!rec.events.slice(before).some((e) => e.type === 'chat.takenAway'));
  });

  test('an operator cannot take over, not even a chat of their own team; nothing changes', async () => {
    const { olga, oleg, chatId } = await handledChat();
    await goOnline(oleg);
    const res = await oleg.api.post(`/api/chats/${chatId}/takeover`);
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'accessDeniedException');
    assert.equal((await chatOf(olga, chatId)).operator.id, olga.id);
    const kinds = (await olga.api.get(`/api/chats/${chatId}/history`)).body.entity.items.map(
      (h: { kind: string }) => h.kind,
    );
    assert.ok(!kinds.includes('takeover'));
  });

  test('an administrator takes over too; their own chat, a closed chat and another organisation are refused', async () => {
    const { org, olga, chatId } = await handledChat();
    const taken = await org.admin.api.post(`/api/chats/${chatId}/takeover`);
    assert.equal(taken.status, 200);
    assert.equal(taken.body.entity.operator.id, org.admin.id);
    const again = await org.admin.api.post(`/api/chats/${chatId}/takeover`);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'chatAlreadyTakenException');
    // A supervisor takes it from the administrator.
    const sup = await org.user({ role: 'SUPERVISOR' });
    assert.equal((await sup.api.post(`/api/chats/${chatId}/takeover`)).body.entity.operator.id, sup.id);
    assert.equal((await sup.api.post(`/api/chats/${chatId}/close`, { categoryId: undefined })).status, 409);
    const cat = await sup.api.post('/api/categories', { name: 'General' });
    assert.equal(
      (await sup.api.post(`/api/chats/${chatId}/close`, { categoryId: cat.body.entity.id })).status,
      200,
    );
    const closed = await org.admin.api.post(`/api/chats/${chatId}/takeover`);
    assert.equal(closed.status, 409);
    assert.equal(closed.body.code, 'chatClosedException');
    const other = await createOrganisation(s);
    const foreign = await other.admin.api.post(`/api/chats/${chatId}/takeover`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'chatNotFoundException');
    assert.equal((await olga.api.get(`/api/chats/${chatId}`)).status, 404);
  });

  test('a Waiting chat is simply taken (history: assign)', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await makeChannel(org, teamId);
    const chatId: string = (await inbound(s, ch, { client: 'x' })).body.entity.chatId;
    const sup = await org.user({ role: 'SUPERVISOR' });
    const res = await sup.api.post(`/api/chats/${chatId}/takeover`);
    assert.equal(res.status, 200);
    assert.equal(res.body.entity.operator.id, sup.id);
    const history = (await sup.api.get(`/api/chats/${chatId}/history`)).body.entity.items;
    assert.equal(history.at(-1).kind, 'assign');
  });
});
