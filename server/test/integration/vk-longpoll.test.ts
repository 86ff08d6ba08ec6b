import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { type FakeVk, startFakeVk } from '../fakes/vk.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { makeTeam } from './chats-fixtures.ts';
import { until } from './cluster-fixtures.ts';

/** The community management right: lets us turn the Long Poll API on (groups.setLongPollSettings). */
const MANAGE = 262144;

/**
 * A VK community through the Bots Long Poll API (type `vk`): no public address; the job runner asks the fake VK's
 * Long Poll server, which follows VK's documents (keys, ts, `failed` answers, waits). One channel reads the
 * community at a time: each test deletes its own.
 */
describe('VK community by Long Poll', () => {
  let s: TestServer;
  let vk: FakeVk;
  before(async () => {
    vk = await startFakeVk();
    vk.perSecond = 1_000;
    s = await startTestServer({ env: { VK_API_BASE_URL: vk.baseUrl } });
  });
  after(async () => {
    await s.close();
    await vk.close();
  });
  type Setup = { org: TestOrg; channelId: string };
  const cleanup: Setup[] = [];
  afterEach(async () => {
    for (const { org, channelId } of cleanup.splice(0)) {
      assert.equal((await org.admin.api.delete(`/api/channels/${channelId}`)).status, 200);
      await until(async () => !vk.longPoll.waiting || undefined, 'the deleted channel’s poll to end', 3_000);
    }
  });
  async function connect(org?: TestOrg): Promise<Setup> {
    const o = org ?? (await createOrganisation(s));
    const teamId = await makeTeam(o, { method: 'manual' });
    const res = await o.admin.api.post('/api/channels', {
      type: 'vk',
      name: `VK ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      groupId: String(vk.groupId),
      token: vk.token,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const setup = { org: o, channelId: res.body.entity.id as string };
    cleanup.push(setup);
    return setup;
  }
  const chatWith = (org: TestOrg, name: string) =>
    until(
      async () => (await chatsOf(org)).find((c: { client: { name: string } }) => c.client.name === name),
      name,
    );
  const textsOf = async (org: TestOrg, chatId: string) =>
    (await messagesOf(org, chatId)).map((m: { text: string }) => m.text);

  test('connecting checks the token and turns Long Poll on; without the management right it must be on already', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const post = (over: Record<string, unknown> = {}) =>
      org.admin.api.post('/api/channels', {
        type: 'vk',
        name: 'VK',
        teamId,
        groupId: String(vk.groupId),
        token: vk.token,
        ...over,
      });
    const malformed = await post({ token: 'short', groupId: 'club1' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.fields.token, 'Incorrect token/ID specified');
    assert.equal(malformed.body.error.fields.groupId, 'Incorrect token/ID specified');
    const refused = await post({ token: `vk1.a.${'0'.repeat(80)}` });
    assert.equal(refused.body.error.fields.token, 'Incorrect token/ID specified');

    // No management right, Long Poll off in the community: the reason tells the admin what to turn on.
    vk.mask = 4096 | 4 | 131072;
    vk.longPoll.enabled = false;
    const off = await post();
    assert.equal(off.status, 502);
    assert.equal(off.body.code, 'channelCreationException');
    assert.equal(off.body.error.details.reason, 'longpoll');
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing stored');
    // The admin turned it on in the community's settings: the channel connects.
    vk.longPoll.enabled = true;
    const manual = await post({ name: 'VK manual' });
    assert.equal(manual.status, 200, JSON.stringify(manual.body));
    cleanup.push({ org, channelId: manual.body.entity.id });
    assert.deepEqual(manual.body.entity.settings, {
      groupId: String(vk.groupId),
      name: 'Shop VK',
      screenName: 'shopvk',
    });
    // Nothing posts to a Long Poll channel: its webhook address refuses a forged event.
    const forged = await fetch(`${s.url}/api/webhooks/vk/${manual.body.entity.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(vk.messageNew(70, { text: 'forged' })),
    });
    assert.equal(forged.status, 401);
  });

  test('with the management right Long Poll is turned on for us; messages, echoes and read marks arrive; ts moves only after they are stored', async () => {
    vk.mask = 4096 | 4 | 131072 | MANAGE;
    vk.longPoll.enabled = false;
    const { org, channelId } = await connect();
    assert.equal(vk.longPoll.enabled, true);
    assert.equal(vk.longPoll.settings.api_version, '5.199');
    assert.equal(vk.longPoll.settings.message_new, '1');
    assert.equal(vk.longPoll.settings.message_deny, '1');
    await until(async () => vk.longPoll.waiting || undefined, 'a long poll to wait');
    assert.equal(vk.longPoll.checks[0].wait, '0', 'a session starts with a request that answers at once');
    assert.equal(vk.longPoll.checks.at(-1)?.wait, '25');

    vk.users.set(901, { first_name: 'Ivan', last_name: 'Petrov' });
    const hello = vk.messageNew(901, { text: 'Hello from VK' });
    vk.longPoll.push(hello);
    const chat = await chatWith(org, 'Ivan Petrov');
    assert.deepEqual(await textsOf(org, chat.id), ['Hello from VK']);
    // The event's number is stored right after the event (the session's first store is never held back).
    await until(
      async () => {
        const [poll] = await s.db.query<{ cursor: { ts?: string } }>(
          'select cursor from channel_polls where channel_id = $1',
          [channelId],
        );
        return poll.cursor.ts === '1' || undefined;
      },
      'the event’s number to be stored',
      3_000,
    );
    // VK sends an event again (a lost answer): stored once.
    vk.longPoll.push(hello);
    vk.longPoll.push(vk.messageNew(901, { text: 'second' }));
    await until(async () => (await textsOf(org, chat.id)).includes('second') || undefined, 'the second');
    assert.equal((await textsOf(org, chat.id)).filter((t: string) => t === 'Hello from VK').length, 1);

    // The reply goes out with messages.send; VK's echo makes it Delivered, the read mark Read.
    const { send, waitStatus } = await replyTo(s, org, chat.id);
    const id = await send({ text: 'Hi Ivan' });
    await waitStatus(id, 'sent');
    const sent = vk.sent.at(-1);
    assert.equal(sent?.params.peer_id, '901');
    vk.longPoll.push({
      type: 'message_reply',
      object: { id: sent?.id, from_id: -vk.groupId, peer_id: 901, out: 1, text: 'Hi Ivan' },
    });
    await waitStatus(id, 'delivered');
    vk.longPoll.push({
      type: 'message_read',
      object: { from_id: 901, peer_id: 901, read_message_id: sent?.id },
    });
    await waitStatus(id, 'read');
  });

  test('an expired key, lost history and VK out of reach are got over; a refused token is the channel problem', async () => {
    vk.mask = 4096 | 4 | 131072 | MANAGE;
    const { org, channelId } = await connect();
    vk.users.set(902, { first_name: 'Olga', last_name: 'Smirnova' });
    await until(async () => vk.longPoll.waiting || undefined, 'a long poll to wait');

    const keysTaken = () => vk.calls.filter((c) => c.method === 'groups.getLongPollServer').length;
    // The key expires (failed: 2): a new one is taken and the same ts asked again; nothing is lost.
    const keys = keysTaken();
    vk.longPoll.expireKey();
    vk.longPoll.push(vk.messageNew(902, { text: 'first' }));
    const chat = await chatWith(org, 'Olga Smirnova');
    vk.longPoll.push(vk.messageNew(902, { text: 'after the key expired' }));
    await until(
      async () => (await textsOf(org, chat.id)).includes('after the key expired') || undefined,
      'next',
    );
    assert.equal(keysTaken(), keys + 1, 'a new key');

    // VK out of reach when the next key is asked for (error 10): the poll waits a moment and asks again. Events lost
    // at VK meanwhile (failed: 1) are gone; the poll goes on from the ts VK gives.
    await until(async () => vk.longPoll.waiting || undefined, 'a long poll to wait');
    // What VK loses is lost while the key is refused (in the fake, as the refusal is answered: no race with the
    // poll's wait before it asks again).
    vk.failNext('groups.getLongPollServer', 10, 'Internal server error', 1, () => {
      vk.longPoll.push(vk.messageNew(902, { text: 'lost at VK' }));
      vk.longPoll.loseHistory();
    });
    vk.longPoll.expireKey();
    const before = keysTaken();
    vk.longPoll.push(vk.messageNew(902, { text: 'before the outage' }));
    await until(async () => keysTaken() > before + 1 || undefined, 'the key asked again', 10_000);
    vk.longPoll.push(vk.messageNew(902, { text: 'after the outage' }));
    await until(async () => (await textsOf(org, chat.id)).includes('after the outage') || undefined, 'after');
    const texts = await textsOf(org, chat.id);
    assert.ok(texts.includes('before the outage'));
    assert.ok(!texts.includes('lost at VK'), 'what VK lost does not come');
    assert.deepEqual(
      (await org.admin.api.get('/api/channels/problems')).body.entity.items,
      [],
      'a short outage',
    );

    // The token is revoked: the next key cannot be had; the channel shows the problem.
    await until(async () => vk.longPoll.waiting || undefined, 'a long poll to wait');
    vk.failNext('groups.getLongPollServer', 5, 'User authorization failed: invalid access_token (4).');
    vk.longPoll.expireKey();
    vk.longPoll.push(vk.messageNew(902, { text: 'just before' }));
    const [problem] = await until(async () => {
      const items = (await org.admin.api.get('/api/channels/problems')).body.entity.items;
      return items.length ? items : undefined;
    }, 'the problem');
    assert.equal(problem.kind, 'token_refused');
    assert.equal(problem.channelId, channelId);
    vk.longPoll.push(vk.messageNew(902, { text: 'while refused' }));
    // A new token (the same one, re-entered) is saved: the poll runs again and the waiting message arrives.
    const saved = await org.admin.api.patch(`/api/channels/${channelId}`, { token: vk.token });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    await until(async () => (await textsOf(org, chat.id)).includes('while refused') || undefined, 'kept');
    await until(
      async () =>
        (await org.admin.api.get('/api/channels/problems')).body.entity.items.length === 0 || undefined,
      'the problem to end',
      5_000,
    );
  });
});
