import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

// No request category needed to close chats here.
const OPTIONS = PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY');
type Rule = { id: string; name: string; isDefault: boolean; priority: number };

async function rule(org: TestOrg, body: Record<string, unknown>) {
  const res = await org.admin.api.post('/api/routing-rules', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entity as Rule;
}
const names = async (org: TestOrg) =>
  ((await org.admin.api.get('/api/routing-rules')).body.entity.items as Rule[]).map((r) => r.name);
const ruleEntries = async (org: TestOrg, chatId: string) =>
  (await org.admin.api.get(`/api/chats/${chatId}/history`)).body.entity.items.filter(
    (h: { kind: string }) => h.kind === 'rule',
  ) as { ruleId: string; ruleName: string; toTeamId: string | null }[];

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await fn();
    if (ok(v) || i > 50) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('routing rules: the API', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('every organisation has a default rule, listed last, that cannot be updated or deleted', async () => {
    const org = await createOrganisation(s);
    const list = await org.admin.api.get('/api/routing-rules');
    assert.equal(list.status, 200);
    const [def] = list.body.entity.items;
    assert.equal(list.body.entity.total, 1);
    assert.equal(def.isDefault, true);
    assert.deepEqual(def.action, { type: 'team', teamId: null, botId: null });
    const teamId = await makeTeam(org);
    await rule(org, { name: 'A', conditions: { clients: 'new' }, action: { type: 'team', teamId } });
    const items = (await org.admin.api.get('/api/routing-rules')).body.entity.items;
    assert.deepEqual(
      items.map((r: Rule) => [r.name, r.priority, r.isDefault]),
      [
        ['A', 1, false],
        [def.name, 2, true],
      ],
    );
    const patch = await org.admin.api.patch(`/api/routing-rules/${def.id}`, { name: 'Mine' });
    assert.equal(patch.status, 409);
    assert.equal(patch.body.code, 'defaultRuleUpdateException');
    const del = await org.admin.api.delete(`/api/routing-rules/${def.id}`);
    assert.equal(del.body.code, 'defaultRuleUpdateException');
    assert.equal(
      (await org.admin.api.get('/api/routing-rules')).body.entity.items.at(-1).name,
      'Default rule',
    );
  });

  test('name not empty, invalid values, duplicate conditions', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const foreignTeam = await makeTeam(other);
    const empty = await org.admin.api.post('/api/routing-rules', {
      name: '  ',
      conditions: { clients: 'any' },
      action: { type: 'last_operator' },
    });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error.fields.name, 'Name specified incorrectly');
    const noTeam = await org.admin.api.post('/api/routing-rules', {
      name: 'x',
      conditions: { clients: 'any' },
      action: { type: 'team' },
    });
    assert.equal(noTeam.status, 400);
    assert.equal(noTeam.body.error.fields['action.teamId'], 'Team specified incorrectly');
    const badEnum = await org.admin.api.post('/api/routing-rules', {
      name: 'x',
      conditions: { clients: 'sometimes' },
      action: { type: 'last_operator' },
    });
    assert.equal(badEnum.body.error.fields['conditions.clients'], 'Value specified incorrectly');
    for (const [body, field] of [
      [{ conditions: { clients: 'any' }, action: { type: 'team', teamId: foreignTeam } }, 'action.teamId'],
      [
        {
          conditions: { clients: 'any', channelIds: [crypto.randomUUID()] },
          action: { type: 'last_operator' },
        },
        'conditions.channelIds',
      ],
      // A botId that names no bot of the organisation.
      [
        { conditions: { clients: 'any' }, action: { type: 'chat_bot', botId: crypto.randomUUID() } },
        'action.botId',
      ],
    ] as const) {
      const res = await org.admin.api.post('/api/routing-rules', { name: 'x', ...body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'invalidRuleValueException');
      assert.ok(res.body.error.fields[field], JSON.stringify(res.body));
    }
    const ch = await makeChannel(org, teamId);
    const first = await rule(org, {
      name: 'one',
      conditions: { clients: 'new', channelIds: [ch.id], intentsInclude: ['HELP', 'GREETING'] },
      action: { type: 'last_operator' },
    });
    // The same conditions written another way (explicit default message type, lists reordered).
    const dup = await org.admin.api.post('/api/routing-rules', {
      name: 'two',
      conditions: {
        clients: 'new',
        channelIds: [ch.id],
        messageType: 'client',
        intentsInclude: ['GREETING', 'HELP'],
        intentsExclude: [],
      },
      action: { type: 'team', teamId },
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'routingRuleAlreadyExistsException');
    const second = await rule(org, {
      name: 'two',
      conditions: { clients: 'new' },
      action: { type: 'team', teamId },
    });
    const clash = await org.admin.api.patch(`/api/routing-rules/${second.id}`, {
      conditions: { clients: 'new', channelIds: [ch.id], intentsInclude: ['HELP', 'GREETING'] },
    });
    assert.equal(clash.body.code, 'routingRuleAlreadyExistsException');
    // Two saves of the same conditions at once: one wins, the other hears the §8 code.
    const same = {
      conditions: { clients: 'repeated', messageType: 'mailing' },
      action: { type: 'last_operator' },
    };
    const both = await Promise.all([
      org.admin.api.post('/api/routing-rules', { name: 'p', ...same }),
      org.admin.api.post('/api/routing-rules', { name: 'q', ...same }),
    ]);
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 409]);
    await org.admin.api.delete(`/api/routing-rules/${both.find((r) => r.status === 200)?.body.entity.id}`);
    // Another organisation may have the same conditions; a rule of another organisation is not found.
    await rule(other, { name: 'one', conditions: { clients: 'new' }, action: { type: 'last_operator' } });
    const foreign = await other.admin.api.patch(`/api/routing-rules/${first.id}`, { name: 'stolen' });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'ruleNotFoundException');
    assert.equal((await other.admin.api.delete(`/api/routing-rules/${first.id}`)).status, 404);
    assert.equal(
      (await other.admin.api.put('/api/routing-rules/order', { ids: [first.id, second.id] })).status,
      400,
    );
    assert.deepEqual(await names(org), ['one', 'two', 'Default rule']);
    const renamed = await org.admin.api.patch(`/api/routing-rules/${first.id}`, {
      name: 'first',
      enabled: false,
    });
    assert.equal(renamed.body.entity.name, 'first');
    assert.equal(renamed.body.entity.enabled, false);
  });

  test('priority on create and reorder', async () => {
    const org = await createOrganisation(s);
    const a = await rule(org, {
      name: 'a',
      conditions: { clients: 'new' },
      action: { type: 'last_operator' },
    });
    const b = await rule(org, {
      name: 'b',
      conditions: { clients: 'repeated' },
      action: { type: 'last_operator' },
    });
    await rule(org, {
      name: 'c',
      conditions: { clients: 'any' },
      action: { type: 'personal_manager' },
      priority: 1,
    });
    assert.deepEqual(await names(org), ['c', 'a', 'b', 'Default rule']);
    const list = (await org.admin.api.get('/api/routing-rules')).body.entity.items as Rule[];
    const c = list[0];
    const def = list[3];
    const moved = await org.admin.api.put('/api/routing-rules/order', { ids: [b.id, c.id, a.id] });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(
      moved.body.entity.items.map((r: Rule) => [r.name, r.priority]),
      [
        ['b', 1],
        ['c', 2],
        ['a', 3],
        ['Default rule', 4],
      ],
    );
    // The default rule may be named last, never elsewhere; every rule must be named once.
    assert.equal(
      (await org.admin.api.put('/api/routing-rules/order', { ids: [a.id, b.id, c.id, def.id] })).status,
      200,
    );
    for (const ids of [
      [a.id, b.id],
      [def.id, a.id, b.id, c.id],
      [a.id, a.id, b.id, c.id],
    ]) {
      const bad = await org.admin.api.put('/api/routing-rules/order', { ids });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.fields.ids, 'Value specified incorrectly');
    }
    assert.deepEqual(await names(org), ['a', 'b', 'c', 'Default rule']);
    assert.equal((await org.admin.api.delete(`/api/routing-rules/${b.id}`)).status, 200);
    await rule(org, {
      name: 'd',
      conditions: { clients: 'repeated' },
      action: { type: 'last_operator' },
      priority: 2,
    });
    assert.deepEqual(await names(org), ['a', 'd', 'c', 'Default rule']);
  });

  test('rights and the plan option', async () => {
    const org = await createOrganisation(s);
    const sup = await org.user({ role: 'SUPERVISOR' });
    const a = await rule(org, {
      name: 'a',
      conditions: { clients: 'new' },
      action: { type: 'last_operator' },
    });
    for (const [method, path, body] of [
      ['GET', '/api/routing-rules', undefined],
      [
        'POST',
        '/api/routing-rules',
        { name: 'b', conditions: { clients: 'any' }, action: { type: 'last_operator' } },
      ],
      ['PATCH', `/api/routing-rules/${a.id}`, { name: 'x' }],
      ['PUT', '/api/routing-rules/order', { ids: [a.id] }],
      ['DELETE', `/api/routing-rules/${a.id}`, undefined],
    ] as const) {
      const res = await sup.api.call(method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'accessDeniedException');
    }
    const off = await createOrganisation(s, { options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_ROUTING') });
    const res = await off.admin.api.get('/api/routing-rules');
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'optionUnavailableException');
    assert.deepEqual(await names(org), ['a', 'Default rule']);
  });
});

describe('routing rules: the pipeline stage', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  async function setup() {
    const org = await createOrganisation(s, { options: OPTIONS });
    const home = await makeTeam(org);
    const homeOp = await org.user({ teams: [home] });
    const vip = await makeTeam(org);
    const vipOp = await org.user({ teams: [vip] });
    await goOnline(homeOp);
    await goOnline(vipOp);
    const ch = await makeChannel(org, home);
    return { org, home, homeOp, vip, vipOp, ch };
  }

  test('new and repeated clients: a team, then the last operator; history names the rule', async () => {
    const { org, vip, vipOp, homeOp, ch } = await setup();
    const toVip = await rule(org, {
      name: 'New to VIP',
      conditions: { clients: 'new' },
      action: { type: 'team', teamId: vip },
    });
    await rule(org, {
      name: 'Back to last',
      conditions: { clients: 'repeated' },
      action: { type: 'last_operator' },
    });
    const first = await inbound(s, ch, { client: 'c-1' });
    const chat = await chatOf(org.admin, first.body.entity.chatId);
    assert.equal(chat.team.id, vip);
    assert.equal(chat.operator.id, vipOp.id);
    const [entry] = await ruleEntries(org, chat.id);
    assert.equal(entry.ruleId, toVip.id);
    assert.equal(entry.ruleName, 'New to VIP');
    assert.equal(entry.toTeamId, vip);
    assert.equal((await vipOp.api.post(`/api/chats/${chat.id}/close`, {})).status, 200);
    // The client comes back: the last operator (not in the channel's team) gets the chat.
    const again = await inbound(s, ch, { client: 'c-1', text: 'Me again' });
    const second = await chatOf(org.admin, again.body.entity.chatId);
    assert.notEqual(second.id, chat.id);
    assert.equal(second.operator.id, vipOp.id);
    assert.equal((await ruleEntries(org, second.id))[0].ruleName, 'Back to last');
    // Another new client through the same rule; a disabled rule is skipped.
    await org.admin.api.patch(`/api/routing-rules/${toVip.id}`, { enabled: false });
    const third = await inbound(s, ch, { client: 'c-2' });
    const c3 = await chatOf(org.admin, third.body.entity.chatId);
    assert.equal(c3.operator.id, homeOp.id);
    assert.deepEqual(await ruleEntries(org, c3.id), []);
  });

  test('channels condition, fall-through, priority order and reorder', async () => {
    const { org, home, vip, vipOp, homeOp, ch } = await setup();
    const other = await makeChannel(org, home);
    const empty = await makeTeam(org);
    await org.user({ teams: [empty] }); // offline: the team cannot take a chat
    const full = await makeTeam(org, { dialogLimit: 1 });
    const busy = await org.user({ teams: [full] });
    await goOnline(busy);
    const fill = await makeChannel(org, full);
    await inbound(s, fill, { client: 'filler' }); // busy is at the limit now
    const r1 = await rule(org, {
      name: 'Offline team',
      conditions: { clients: 'any', channelIds: [ch.id] },
      action: { type: 'team', teamId: empty },
    });
    const r2 = await rule(org, {
      name: 'Full team',
      conditions: { clients: 'new', channelIds: [ch.id] },
      action: { type: 'team', teamId: full },
    });
    const r3 = await rule(org, {
      name: 'PM',
      conditions: { clients: 'new', channelIds: [ch.id], intentsExclude: ['GOODBYE'] },
      action: { type: 'personal_manager' },
    });
    const r4 = await rule(org, {
      name: 'VIP',
      conditions: { clients: 'new', channelIds: [ch.id, other.id], marketingType: undefined },
      action: { type: 'team', teamId: vip },
    });
    const r5 = await rule(org, {
      name: 'Home',
      conditions: {
        clients: 'new',
        channelIds: [ch.id],
        intentsInclude: [],
        messageType: 'client',
        marketingType: undefined,
        intentsExclude: ['HELP'],
      },
      action: { type: 'team', teamId: home },
    });
    const a = await inbound(s, ch, { client: 'f-1' });
    const chatA = await chatOf(org.admin, a.body.entity.chatId);
    // Offline team, full team and no personal manager fall through to 'VIP'.
    assert.equal(chatA.operator.id, vipOp.id);
    assert.deepEqual(
      (await ruleEntries(org, chatA.id)).map((e) => e.ruleName),
      ['VIP'],
    );
    // The other channel: only 'VIP' names it.
    const b = await inbound(s, other, { client: 'f-2' });
    assert.equal((await chatOf(org.admin, b.body.entity.chatId)).operator.id, vipOp.id);
    // 'Home' before 'VIP': the next new client goes to the home team.
    const order = await org.admin.api.put('/api/routing-rules/order', {
      ids: [r1.id, r2.id, r3.id, r5.id, r4.id],
    });
    assert.equal(order.status, 200);
    const c = await inbound(s, ch, { client: 'f-3' });
    const chatC = await chatOf(org.admin, c.body.entity.chatId);
    assert.equal(chatC.operator.id, homeOp.id);
    assert.deepEqual(
      (await ruleEntries(org, chatC.id)).map((e) => e.ruleName),
      ['Home'],
    );
    // A chat of another channel that no rule names: the default rule (no entry).
    const fillChat = await inbound(s, fill, { client: 'f-4' });
    assert.deepEqual(await ruleEntries(org, fillChat.body.entity.chatId), []);
  });

  test('personal manager: taken when In work, fall-through when not', async () => {
    const { org, vipOp, homeOp, ch } = await setup();
    await rule(org, {
      name: 'PM',
      conditions: { clients: 'repeated' },
      action: { type: 'personal_manager' },
    });
    const first = await inbound(s, ch, { client: 'pm-1' });
    const chat = await chatOf(org.admin, first.body.entity.chatId);
    assert.equal(chat.operator.id, homeOp.id);
    await org.admin.api.patch(`/api/clients/${chat.client.id}`, { personalManagerId: vipOp.id });
    await homeOp.api.post(`/api/chats/${chat.id}/close`, {});
    const second = await chatOf(org.admin, (await inbound(s, ch, { client: 'pm-1' })).body.entity.chatId);
    assert.equal(second.operator.id, vipOp.id);
    assert.equal((await ruleEntries(org, second.id))[0].ruleName, 'PM');
    await vipOp.api.post(`/api/chats/${second.id}/close`, {});
    await goOnline(vipOp, 'offline');
    const third = await chatOf(org.admin, (await inbound(s, ch, { client: 'pm-1' })).body.entity.chatId);
    assert.equal(third.team.id, ch.teamId);
    assert.deepEqual(await ruleEntries(org, third.id), []);
  });

  test('a reply to our message (mailing) is routed by a mailing rule', async () => {
    const { org, vip, vipOp, homeOp, ch } = await setup();
    // The client exists once they wrote; that chat is closed, then the operator writes first.
    const first = await inbound(s, ch, { client: 'm-1' });
    const old = await chatOf(org.admin, first.body.entity.chatId);
    await homeOp.api.post(`/api/chats/${old.id}/close`, {});
    await rule(org, {
      name: 'Mailing replies',
      conditions: { clients: 'any', messageType: 'mailing', marketingType: 'service' },
      action: { type: 'team', teamId: vip },
    });
    const started = await homeOp.api.post('/api/chats', {
      clientId: old.client.id,
      channelId: ch.id,
      text: 'News!',
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const chatId = started.body.entity.id;
    assert.equal(started.body.entity.operator.id, homeOp.id);
    await inbound(s, ch, { client: 'm-1', text: 'Tell me more' });
    const routed = await eventually(
      () => chatOf(org.admin, chatId),
      (c) => c.operator?.id === vipOp.id,
    );
    assert.equal(routed.team.id, vip);
    assert.equal((await ruleEntries(org, chatId))[0].ruleName, 'Mailing replies');
    // The second reply changes nothing.
    await inbound(s, ch, { client: 'm-1', text: 'Hello?' });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await ruleEntries(org, chatId)).length, 1);
  });

  test('close: the rule closes the chat, the close entry names it; a required category is asked of people, not of the rule', async () => {
    const { org, ch } = await setup();
    const closer = await rule(org, {
      name: 'Spam closer',
      conditions: { clients: 'new' },
      action: { type: 'close', teamId: '00000000-0000-4000-8000-000000000000' },
    });
    // Only the id its type uses is kept.
    const listed = (await org.admin.api.get('/api/routing-rules')).body.entity.items[0];
    assert.deepEqual(listed.action, { type: 'close', teamId: null, botId: null });
    const res = await inbound(s, ch, { client: 'x-1' });
    const chat = await eventually(
      () => chatOf(org.admin, res.body.entity.chatId),
      (c) => c.status === 'closed',
    );
    assert.equal(chat.status, 'closed');
    assert.equal(chat.operator, null);
    const history = (await org.admin.api.get(`/api/chats/${chat.id}/history`)).body.entity.items as {
      kind: string;
      ruleId: string | null;
      ruleName: string | null;
      actorId: string | null;
    }[];
    const close = history.find((h) => h.kind === 'close');
    assert.ok(close, JSON.stringify(history));
    assert.equal(close.ruleId, closer.id);
    assert.equal(close.ruleName, 'Spam closer');
    assert.equal(close.actorId, null);
    // With OPTION_CATEGORY on, the rule still closes a chat without a category (the category is asked of people).
    const staff = await import('../helpers.ts').then((h) => h.createPlatformStaff(s));
    await staff.patch(`/api/organisations/${org.id}`, { options: [...OPTIONS, 'OPTION_CATEGORY'] });
    const other = await inbound(s, ch, { client: 'x-2' });
    const closedToo = await chatOf(org.admin, other.body.entity.chatId);
    assert.equal(closedToo.status, 'closed');
    assert.equal(closedToo.operator, null);
  });

  test('OPTION_ROUTING off: rules are not evaluated', async () => {
    const { org, vip, homeOp, ch } = await setup();
    await rule(org, {
      name: 'New to VIP',
      conditions: { clients: 'new' },
      action: { type: 'team', teamId: vip },
    });
    const staff = await import('../helpers.ts').then((h) => h.createPlatformStaff(s));
    const off = await staff.patch(`/api/organisations/${org.id}`, {
      options: OPTIONS.filter((o) => o !== 'OPTION_ROUTING'),
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const res = await inbound(s, ch, { client: 'o-1' });
    const chat = await chatOf(org.admin, res.body.entity.chatId);
    assert.equal(chat.operator.id, homeOp.id);
    assert.deepEqual(await ruleEntries(org, chat.id), []);
  });
});
