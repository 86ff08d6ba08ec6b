import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type BotGraph, chatBotStructureIssues, PLAN_OPTIONS } from '@smartconnect/contracts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { makeTeam } from './chats-fixtures.ts';

type Bot = {
  id: string;
  name: string;
  description: string;
  defaultMessage: string;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  draft: BotGraph;
  published: BotGraph | null;
};

async function bot(org: TestOrg, name: string, defaultMessage = 'Sorry, I did not understand') {
  const res = await org.admin.api.post('/api/chat-bots', { name, defaultMessage });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entity as Bot;
}

const base = () => ({
  title: '',
  position: { x: 0, y: 0 },
  buttons: [],
  triggers: [],
  intents: [],
  actions: [],
});
/** The three-node bot: a root with two buttons; one branch passes to a team, the other closes the chat. */
const threeNodes = (teamId: string | null): BotGraph => ({
  nodes: [
    {
      ...base(),
      id: 'root',
      root: true,
      reply: { text: 'Hello! Sales or support?', fileId: null },
      buttons: [
        { id: 'b1', text: 'Sales', next: 'sales' },
        { id: 'b2', text: 'Support', next: 'support' },
      ],
    },
    {
      ...base(),
      id: 'sales',
      root: false,
      position: { x: -200, y: 200 },
      reply: { text: 'Passing you to sales', fileId: null },
      actions: [{ id: 'f1', kind: 'final', type: 'team', teamId }],
    },
    {
      ...base(),
      id: 'support',
      root: false,
      position: { x: 200, y: 200 },
      reply: { text: 'Bye', fileId: null },
      actions: [{ id: 'f2', kind: 'final', type: 'close' }],
    },
  ],
});

describe('chat bots: the editor API', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('create, list, read, autosave, with a draft holding one root node', async () => {
    const org = await createOrganisation(s);
    const created = await bot(org, 'Welcome');
    assert.equal(created.publishedVersion, null);
    assert.equal(created.published, null);
    assert.equal(created.hasUnpublishedChanges, true);
    assert.equal(created.draft.nodes.length, 1);
    assert.equal(created.draft.nodes[0].root, true);
    await bot(org, 'another');
    const list = await org.admin.api.get('/api/chat-bots');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.entity.items.map((b: Bot) => b.name),
      ['another', 'Welcome'],
    );
    // An unfinished draft is saved as it is (a button without a transition).
    const draft = threeNodes(null);
    draft.nodes[0].buttons[0].next = null;
    const patched = await org.admin.api.patch(`/api/chat-bots/${created.id}`, {
      draft,
      description: 'Greets',
      defaultMessage: 'Pardon?',
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const read = (await org.admin.api.get(`/api/chat-bots/${created.id}`)).body.entity as Bot;
    assert.equal(read.description, 'Greets');
    assert.equal(read.defaultMessage, 'Pardon?');
    assert.deepEqual(read.draft, draft);
    // The shape is still checked.
    const bad = await org.admin.api.patch(`/api/chat-bots/${created.id}`, {
      draft: { nodes: [{ id: 'x', position: { x: 'left' } }] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validationException');
  });

  test('field errors: name and default message not empty (§5)', async () => {
    const org = await createOrganisation(s);
    const res = await org.admin.api.post('/api/chat-bots', { name: ' ', defaultMessage: '  ' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.fields.name, 'Name specified incorrectly');
    assert.equal(res.body.error.fields.defaultMessage, 'Please fill in all required fields');
  });

  test('the name is unique in the organisation, ignoring case; a deleted bot frees it', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const first = await bot(org, 'Helper');
    const dup = await org.admin.api.post('/api/chat-bots', { name: 'HELPER', defaultMessage: 'x' });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'chatBotNameExistsException');
    const second = await bot(org, 'Second');
    const rename = await org.admin.api.patch(`/api/chat-bots/${second.id}`, { name: 'helper' });
    assert.equal(rename.body.code, 'chatBotNameExistsException');
    await bot(other, 'Helper');
    assert.equal((await org.admin.api.delete(`/api/chat-bots/${first.id}`)).status, 200);
    await bot(org, 'helper');
  });

  test('publishing: the server refuses what chatBotStructureIssues refuses, with the same issues', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const b = await bot(org, 'Structure');
    // The starter draft: a root node that says nothing.
    const empty = await org.admin.api.post(`/api/chat-bots/${b.id}/publish`);
    assert.equal(empty.status, 400);
    assert.equal(empty.body.code, 'chatBotStructureException');
    assert.deepEqual(empty.body.error.details.issues, chatBotStructureIssues(b.draft, b.defaultMessage));

    const cases: [string, (g: BotGraph) => void][] = [
      ['no transition', (g) => (g.nodes[0].buttons[0].next = null)],
      ['two roots', (g) => (g.nodes[1].root = true)],
      ['duplicate reply', (g) => (g.nodes[0].buttons[1].text = ' sales')],
      ['final with buttons', (g) => g.nodes[0].actions.push({ id: 'x', kind: 'final', type: 'close' })],
      [
        'team missing',
        (g) => (g.nodes[1].actions = [{ id: 'f1', kind: 'final', type: 'team', teamId: null }]),
      ],
      ['unknown node', (g) => (g.nodes[0].buttons[1].next = 'nowhere')],
      ['long button', (g) => (g.nodes[0].buttons[1].text = 'x'.repeat(65))],
      [
        'bad trigger',
        (g) => {
          g.nodes[2].actions = [{ id: 'd', kind: 'default', next: 'root' }];
          g.nodes[2].triggers = [
            { id: 't', start: '9', end: '18:00', timeZone: 'Nowhere/City', next: 'root' },
          ];
        },
      ],
      ['intent', (g) => (g.nodes[2].intents = [{ id: 'i', intent: null, next: 'root' }])],
      ['VOIP key', (g) => (g.nodes[0].buttons[0].voip = '10')],
    ];
    for (const [what, change] of cases) {
      const draft = threeNodes(teamId);
      change(draft);
      assert.equal((await org.admin.api.patch(`/api/chat-bots/${b.id}`, { draft })).status, 200, what);
      const res = await org.admin.api.post(`/api/chat-bots/${b.id}/publish`);
      assert.equal(res.status, 400, what);
      assert.equal(res.body.code, 'chatBotStructureException', what);
      const expected = chatBotStructureIssues(draft, b.defaultMessage);
      assert.ok(expected.length > 0, what);
      assert.deepEqual(res.body.error.details.issues, expected, what);
    }
    // A team of another organisation is no value.
    const other = await createOrganisation(s);
    const foreign = threeNodes(await makeTeam(other));
    await org.admin.api.patch(`/api/chat-bots/${b.id}`, { draft: foreign });
    const res = await org.admin.api.post(`/api/chat-bots/${b.id}/publish`);
    assert.deepEqual(res.body.error.details.issues, [
      { code: 'emptyActionValue', nodeId: 'sales', elementId: 'f1' },
    ]);
    assert.equal((await org.admin.api.get(`/api/chat-bots/${b.id}`)).body.entity.publishedVersion, null);
  });

  test('publishing freezes numbered versions; the draft keeps changing apart', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const b = await bot(org, 'Versions');
    const draft = threeNodes(teamId);
    await org.admin.api.patch(`/api/chat-bots/${b.id}`, { draft });
    const first = await org.admin.api.post(`/api/chat-bots/${b.id}/publish`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.entity.publishedVersion, 1);
    assert.equal(first.body.entity.hasUnpublishedChanges, false);
    assert.deepEqual(first.body.entity.published, draft);
    const changed = threeNodes(teamId);
    changed.nodes[2].reply.text = 'Goodbye';
    const saved = (await org.admin.api.patch(`/api/chat-bots/${b.id}`, { draft: changed })).body
      .entity as Bot;
    assert.equal(saved.hasUnpublishedChanges, true);
    assert.equal(saved.published?.nodes[2].reply.text, 'Bye');
    const second = await org.admin.api.post(`/api/chat-bots/${b.id}/publish`);
    assert.equal(second.body.entity.publishedVersion, 2);
    assert.equal(second.body.entity.published.nodes[2].reply.text, 'Goodbye');
    const versions = await s.db.query<{ version: number }>(
      'select version from chat_bot_versions where bot_id = $1 order by version',
      [b.id],
    );
    assert.deepEqual(
      versions.map((v) => v.version),
      [1, 2],
    );
    const list = (await org.admin.api.get('/api/chat-bots')).body.entity.items as Bot[];
    assert.deepEqual(
      list.map((x) => [x.publishedVersion, x.hasUnpublishedChanges]),
      [[2, false]],
    );
  });

  test('routing rules route only to bots of the organisation; a bot in use is not deleted (rules named)', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const b = await bot(org, 'Routed');
    const foreign = await bot(other, 'Foreign');
    const rule = (name: string, clients: string, botId: string) =>
      org.admin.api.post('/api/routing-rules', {
        name,
        conditions: { clients },
        action: { type: 'chat_bot', botId },
      });
    const bad = await rule('Foreign bot', 'any', foreign.id);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'invalidRuleValueException');
    assert.ok(bad.body.error.fields['action.botId']);
    const r1 = await rule('New clients', 'new', b.id);
    assert.equal(r1.status, 200, JSON.stringify(r1.body));
    assert.equal(r1.body.entity.action.botId, b.id);
    assert.equal((await rule('Repeated clients', 'repeated', b.id)).status, 200);
    const del = await org.admin.api.delete(`/api/chat-bots/${b.id}`);
    assert.equal(del.status, 409);
    assert.equal(del.body.code, 'chatBotUsedByRulesException');
    assert.deepEqual(del.body.error.details.rules, ['New clients', 'Repeated clients']);
    for (const id of (await org.admin.api.get('/api/routing-rules')).body.entity.items
      .filter((r: { isDefault: boolean }) => !r.isDefault)
      .map((r: { id: string }) => r.id))
      assert.equal((await org.admin.api.delete(`/api/routing-rules/${id}`)).status, 200);
    assert.equal((await org.admin.api.delete(`/api/chat-bots/${b.id}`)).status, 200);
    const gone = await org.admin.api.get(`/api/chat-bots/${b.id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 'chatBotNotFoundException');
    // A deleted bot is no value for a rule either.
    assert.equal((await rule('Late', 'new', b.id)).body.code, 'invalidRuleValueException');
  });

  test('another organisation sees none of it (404)', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const b = await bot(org, 'Private');
    for (const [method, path, body] of [
      ['GET', `/api/chat-bots/${b.id}`, undefined],
      ['PATCH', `/api/chat-bots/${b.id}`, { name: 'Mine' }],
      ['POST', `/api/chat-bots/${b.id}/publish`, undefined],
      ['DELETE', `/api/chat-bots/${b.id}`, undefined],
    ] as const) {
      const res = await other.admin.api.call(method, path, body);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.code, 'chatBotNotFoundException');
    }
    assert.equal((await other.admin.api.get('/api/chat-bots')).body.entity.total, 0);
    assert.equal((await org.admin.api.get(`/api/chat-bots/${b.id}`)).body.entity.name, 'Private');
  });

  test('rights (AUTHORITY_SERVICE_ACCOUNT) and the plan option (OPTION_CHAT_BOT)', async () => {
    const org = await createOrganisation(s);
    const sup = await org.user({ role: 'SUPERVISOR' });
    const b = await bot(org, 'Guarded');
    for (const [method, path, body] of [
      ['GET', '/api/chat-bots', undefined],
      ['POST', '/api/chat-bots', { name: 'x', defaultMessage: 'y' }],
      ['GET', `/api/chat-bots/${b.id}`, undefined],
      ['PATCH', `/api/chat-bots/${b.id}`, { name: 'x' }],
      ['POST', `/api/chat-bots/${b.id}/publish`, undefined],
      ['DELETE', `/api/chat-bots/${b.id}`, undefined],
    ] as const) {
      const res = await sup.api.call(method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'accessDeniedException');
    }
    const off = await createOrganisation(s, { options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_CHAT_BOT') });
    for (const [method, path, body] of [
      ['GET', '/api/chat-bots', undefined],
      ['POST', '/api/chat-bots', { name: 'x', defaultMessage: 'y' }],
    ] as const) {
      const res = await off.admin.api.call(method, path, body);
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'optionUnavailableException');
    }
    assert.equal((await org.admin.api.get('/api/chat-bots')).body.entity.total, 1);
  });
});
