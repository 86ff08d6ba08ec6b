import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REALTIME_CLOSE } from '@smartconnect/contracts';
import { currentTotp } from '../../src/modules/auth/totp.ts';
import {
  createOrganisation,
  loginToken,
  solveCaptcha,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
} from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, setMembers } from './chats-fixtures.ts';
import { RealtimeClient } from './realtime-client.ts';

/**
 * What an open or resumed socket may carry follows the user's rights and teams as they are now: changes apply at
 * once (the gateway's periodic re-read is 15 s, far longer than any wait here), and a replay holds nothing the
 * user could not read through REST.
 */
describe('realtime scope follows access changes at once', () => {
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

  test('removed from a team: the next event of its queue is not sent; added to one: it is', async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    const teamX = await makeTeam(org, { method: 'manual', memberIds: [op.id] });
    const teamY = await makeTeam(org, { method: 'manual' });
    const [chX, chY] = [await makeChannel(org, teamX), await makeChannel(org, teamY)];
    const socket = await connect(op.token);
    const first = (await inbound(s, chX, { client: 'x-1' })).body.entity.chatId;
    await socket.waitFor(() => chatEvents(socket, first).length > 0);

    await setMembers(org, teamX, []);
    await s.api.as(org.admin.token).put(`/api/users/${op.id}/teams`, { teamIds: [teamY] });
    await socket.waitFor((fs) => fs.filter((f) => f.type === 'access.changed').length >= 2);
    const inX = (await inbound(s, chX, { client: 'x-2' })).body.entity.chatId;
    const inY = (await inbound(s, chY, { client: 'y-1' })).body.entity.chatId;
    await socket.waitFor(() => chatEvents(socket, inY).length > 0);
    assert.equal(chatEvents(socket, inX).length, 0, "the old team's new chat was not sent");
    assert.equal((await op.api.get(`/api/chats/${inX}`)).status, 404, 'nor can it be read through REST');
  });

  test("a custom role's rights changed: its holders' sockets follow at once", async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await makeChannel(org, teamId);
    const role = await org.admin.api.post('/api/roles', {
      name: 'Watcher',
      description: 'Sees all chats',
      rights: ['AUTHORITY_ALL_CHATS'],
    });
    const watcher = await org.user({ role: role.body.entity.id });
    const socket = await connect(watcher.token);
    const seen = (await inbound(s, ch, { client: 'w-1' })).body.entity.chatId;
    await socket.waitFor(() => chatEvents(socket, seen).length > 0);
    const patched = await org.admin.api.patch(`/api/roles/${role.body.entity.id}`, {
      rights: ['AUTHORITY_PROFILE_UPDATE'],
    });
    assert.equal(patched.status, 200);
    await socket.waitFor((fs) => fs.some((f) => f.type === 'access.changed'));
    const hidden = (await inbound(s, ch, { client: 'w-2' })).body.entity.chatId;
    // A marker chat the watcher still sees proves the gateway has passed the hidden one.
    const op = await org.user({ role: 'OPERATOR' });
    const own = await makeTeam(org, { method: 'manual', memberIds: [op.id, watcher.id] });
    await socket.waitFor((fs) => fs.filter((f) => f.type === 'access.changed').length >= 2);
    const marker = (await inbound(s, await makeChannel(org, own), { client: 'w-3' })).body.entity.chatId;
    await socket.waitFor(() => chatEvents(socket, marker).length > 0);
    assert.equal(chatEvents(socket, hidden).length, 0);
  });

  test('a replay holds no event of a chat the user can no longer read: resync instead', async () => {
    const org = await createOrganisation(s);
    const a = await org.user({ role: 'OPERATOR' });
    const b = await org.user({ role: 'OPERATOR' });
    const teamId = await makeTeam(org, { method: 'round_robin', memberIds: [a.id, b.id] });
    const ch = await makeChannel(org, teamId);
    await goOnline(a);
    const socket = await connect(a.token);
    const cursor = socket.frames[0].id;
    const chatId = (await inbound(s, ch, { client: 'r-1', text: 'private order details' })).body.entity
      .chatId;
    await socket.waitFor(() => chatEvents(socket, chatId).some((f) => f.type === 'chat.assigned'));
    socket.close();
    // While a is away the chat goes to b; a's old events of it are still in the log.
    await goOnline(b);
    const moved = await org.admin.api.post(`/api/chats/${chatId}/transfer`, { operatorId: b.id });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await a.api.get(`/api/chats/${chatId}`)).status, 404);
    const resumed = await connect(a.token, cursor);
    assert.equal(resumed.frames[0].type, 'resync');
    assert.equal(resumed.frames[0].payload.reason, 'access');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(chatEvents(resumed, chatId).length, 0, 'nothing of the chat was replayed');

    // b may read it: b's replay from the same cursor is an ordinary one.
    const replay = await connect(b.token, cursor);
    assert.equal(replay.frames[0].type, 'hello');
    assert.equal(replay.frames[0].payload.resumed, true);
    await replay.waitFor(() => chatEvents(replay, chatId).some((f) => f.type === 'chat.transferred'));
  });

  test("turning two-factor on ends the user's other sessions and closes their sockets at once", async () => {
    const org = await createOrganisation(s);
    const other = await loginToken(s.api, org.admin.email, TEST_PASSWORD);
    const elsewhere = await connect(other);
    const here = await connect(org.admin.token);
    const { secret } = (await org.admin.api.post('/api/auth/generate')).body.entity;
    const on = await org.admin.api.patch('/api/auth/toggle', {
      enabled: true,
      totpCode: currentTotp(secret),
    });
    assert.equal(on.status, 200);
    assert.equal(await elsewhere.waitClosed(2_000), REALTIME_CLOSE.unauthorized);
    assert.equal((await s.api.as(other).get('/api/auth/user')).status, 401);
    assert.equal(
      (await org.admin.api.get('/api/auth/user')).status,
      200,
      'the session that turned it on stays',
    );
    assert.equal(here.closeCode, undefined);
  });

  test("logout closes that session's sockets at once; the user's other session keeps its own", async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    const other = await loginToken(s.api, op.email, TEST_PASSWORD);
    const mine = [await connect(op.token), await connect(op.token)];
    const elsewhere = await connect(other);
    const started = Date.now();
    assert.equal((await op.api.post('/api/auth/acc/logout', {})).status, 200);
    for (const c of mine) assert.equal(await c.waitClosed(2_000), REALTIME_CLOSE.unauthorized);
    assert.ok(Date.now() - started < 2_000, 'closed long before the revalidation');
    assert.equal((await op.api.get('/api/auth/user')).status, 401);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(elsewhere.closeCode, undefined, 'the other session is still signed in');
    // Logging another token out (body.token) closes that session's sockets too.
    assert.equal((await s.api.as(other).get('/api/auth/user')).status, 200);
    const third = await loginToken(s.api, op.email, TEST_PASSWORD);
    assert.equal((await s.api.as(third).post('/api/auth/acc/logout', { token: other })).status, 200);
    assert.equal(await elsewhere.waitClosed(2_000), REALTIME_CLOSE.unauthorized);
  });

  test("changing the password ends every session: the other sessions' sockets close at once", async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    const other = await loginToken(s.api, op.email, TEST_PASSWORD);
    const here = await connect(op.token);
    const sockets = [await connect(other), await connect(other)];
    const changed = await op.api.post('/api/auth/acc/passwordChange', {
      oldPassword: TEST_PASSWORD,
      password: 'N3w-pass-word!',
      repeatPassword: 'N3w-pass-word!',
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    for (const c of sockets) assert.equal(await c.waitClosed(2_000), REALTIME_CLOSE.unauthorized);
    assert.equal((await s.api.as(other).get('/api/auth/user')).status, 401);
    assert.equal((await op.api.get('/api/auth/user')).status, 401, "the caller's old token ended as well");
    // The caller's tab is not thrown out mid-change: its socket stays until it moves to the fresh token.
    assert.equal(here.closeCode, undefined);
    const fresh = await connect(changed.body.entity.token);
    assert.equal(fresh.frames[0].type, 'hello');
  });

  test("a password set from a recovery link ends every session: the user's sockets close at once", async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    const socket = await connect(op.token);
    assert.equal(
      (await s.api.post('/api/auth/recovery', { email: op.email, captcha: await solveCaptcha(s.api) }))
        .status,
      200,
    );
    const mail = [...s.mails].reverse().find((m) => m.to === op.email);
    const token = decodeURIComponent(/token=([^\s]+)/.exec(mail?.text ?? '')?.[1] ?? '');
    const reset = await s.api.post('/api/auth/recovery/reset', {
      token,
      password: 'N3w-pass-word!',
      repeatPassword: 'N3w-pass-word!',
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(await socket.waitClosed(2_000), REALTIME_CLOSE.unauthorized);
  });

  test("at most 20 sockets per user: the 21st closes the user's oldest", async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const sockets: RealtimeClient[] = [];
    for (let i = 0; i < 21; i++) sockets.push(await connect(op.token));
    assert.equal(await sockets[0].waitClosed(2_000), REALTIME_CLOSE.tooManySockets);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      sockets.slice(1).map((c) => c.closeCode),
      new Array(20).fill(undefined),
    );
  });
});

describe('sessions expire after SESSION_IDLE_DAYS unused', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ env: { SESSION_IDLE_DAYS: '30' } });
  });
  after(() => s.close());

  test('a token used within the window keeps working; one left unused longer stops', async () => {
    const org = await createOrganisation(s);
    const day = 86_400_000;
    s.clock.advance(29 * day);
    assert.equal((await org.admin.api.get('/api/auth/user')).status, 200, 'used on day 29');
    s.clock.advance(29 * day);
    assert.equal((await org.admin.api.get('/api/auth/user')).status, 200, 'unused for 29 days again');
    s.clock.advance(30 * day + 60_000);
    const expired = await org.admin.api.get('/api/auth/user');
    assert.equal(expired.status, 401);
    assert.equal(expired.body.code, 'unauthorizedException');
    await assert.rejects(RealtimeClient.connect(s.url, org.admin.token), /HTTP 401/);
  });
});
