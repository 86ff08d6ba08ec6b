import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CATEGORY_NAME_MAX, PLAN_OPTIONS } from '@smartconnect/contracts';
import { insertRole } from '../../src/modules/roles/queries.ts';
import {
  createOrganisation,
  createPlatformStaff,
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestUser,
} from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

type Node = {
  id: string;
  name: string;
  parentId: string | null;
  level: number;
  path: string[];
  teamIds: string[];
  availableTeamIds: string[] | null;
  children: Node[];
};

describe('request categories: category -> theme -> subtheme', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const create = async (u: TestUser, body: Record<string, unknown>) => {
    const res = await u.api.post('/api/categories', body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity as Node;
  };
  const rows = async (org: TestOrg) =>
    (
      await s.app.db.query<{ n: number }>(
        'select count(*)::int as n from request_categories where organisation_id = $1',
        [org.id],
      )
    )[0].n;

  /** An organisation with two teams, an operator of the first with a chat in their work. */
  async function setup() {
    const org = await createOrganisation(s);
    const sales = await makeTeam(org);
    const support = await makeTeam(org);
    const op = await org.user({ teams: [sales], name: 'Olga' });
    await goOnline(op);
    const ch = await makeChannel(org, sales);
    const chatId: string = (await inbound(s, ch, { client: `c-${Math.random()}` })).body.entity.chatId;
    assert.equal((await chatOf(op, chatId)).operator.id, op.id);
    return { org, sales, support, op, chatId };
  }

  test('three levels with paths; names unique among siblings only; a fourth level is refused', async () => {
    const { org } = await setup();
    const admin = org.admin;
    const cat = await create(admin, { name: 'Delivery' });
    assert.deepEqual([cat.level, cat.parentId, cat.path], [1, null, ['Delivery']]);
    const theme = await create(admin, { name: 'Late', parentId: cat.id });
    assert.deepEqual([theme.level, theme.path], [2, ['Delivery', 'Late']]);
    const sub = await create(admin, { name: 'More than a week', parentId: theme.id });
    assert.deepEqual([sub.level, sub.path], [3, ['Delivery', 'Late', 'More than a week']]);
    const deeper = await admin.api.post('/api/categories', { name: 'Too deep', parentId: sub.id });
    assert.equal(deeper.status, 400);
    assert.deepEqual(deeper.body.error.fields, { parentId: 'Value specified incorrectly' });

    // The same name is fine under another parent (or at another level), not beside a sibling of that name.
    await create(admin, { name: 'Late', parentId: (await create(admin, { name: 'Payment' })).id });
    await create(admin, { name: 'late delivery', parentId: cat.id });
    await create(admin, { name: 'Delivery', parentId: cat.id });
    const dupTop = await admin.api.post('/api/categories', { name: ' DELIVERY ' });
    assert.deepEqual([dupTop.status, dupTop.body.code], [409, 'categoryNameAlreadyExistsException']);
    const dupTheme = await admin.api.post('/api/categories', { name: 'LATE', parentId: cat.id });
    assert.deepEqual([dupTheme.status, dupTheme.body.code], [409, 'subcategoryAlreadyExistsException']);
    const dupSub = await admin.api.post('/api/categories', { name: 'more than a WEEK', parentId: theme.id });
    assert.equal(dupSub.body.code, 'subcategoryAlreadyExistsException');
    const rename = await admin.api.patch(`/api/categories/${theme.id}`, { name: 'Late Delivery' });
    assert.equal(rename.body.code, 'subcategoryAlreadyExistsException');

    // The tree: top categories by name, each with its themes and subthemes.
    const list = (await admin.api.get('/api/categories')).body.entity;
    assert.equal(list.total, 2);
    assert.deepEqual(
      list.items.map((n: Node) => n.name),
      ['Delivery', 'Payment'],
    );
    const delivery = list.items[0] as Node;
    assert.deepEqual(
      delivery.children.map((n) => n.name),
      ['Delivery', 'Late', 'late delivery'],
    );
    assert.deepEqual(
      delivery.children[1].children.map((n) => n.path.join(' › ')),
      ['Delivery › Late › More than a week'],
    );
    const one = (await admin.api.get(`/api/categories/${theme.id}`)).body.entity as Node;
    assert.deepEqual([one.name, one.children.length], ['Late', 1]);

    // A rename shows in the paths below it; deleting a category deletes its themes and subthemes.
    await admin.api.patch(`/api/categories/${cat.id}`, { name: 'Shipping' });
    assert.deepEqual((await admin.api.get(`/api/categories/${sub.id}`)).body.entity.path, [
      'Shipping',
      'Late',
      'More than a week',
    ]);
    const before = await rows(org);
    assert.equal((await admin.api.delete(`/api/categories/${cat.id}`)).status, 200);
    assert.equal(await rows(org), before - 5);
    assert.equal((await admin.api.get(`/api/categories/${sub.id}`)).body.code, 'categoryNotFoundException');
  });

  test('§8 name errors: invalid, too long; the limit itself is fine', async () => {
    const { org } = await setup();
    for (const name of ['', '   ', 'two\nlines', 'tab\there']) {
      const res = await org.admin.api.post('/api/categories', { name });
      assert.equal(res.status, 400, name);
      assert.equal(res.body.code, 'sessionCategoryInvalidNameException', name);
      assert.deepEqual(res.body.error.fields, { name: 'Name specified incorrectly' });
    }
    const long = await org.admin.api.post('/api/categories', { name: 'x'.repeat(CATEGORY_NAME_MAX + 1) });
    assert.deepEqual([long.status, long.body.code], [400, 'sessionCategoryNameTooLongException']);
    assert.deepEqual(long.body.error.fields, { name: 'Name is too long' });
    const cat = await create(org.admin, { name: 'y'.repeat(CATEGORY_NAME_MAX) });
    const renamed = await org.admin.api.patch(`/api/categories/${cat.id}`, {
      name: 'z'.repeat(CATEGORY_NAME_MAX + 1),
    });
    assert.equal(renamed.body.code, 'sessionCategoryNameTooLongException');
    assert.equal(
      (await org.admin.api.patch(`/api/categories/${cat.id}`, { name: ' ' })).body.code,
      'sessionCategoryInvalidNameException',
    );
    assert.equal(await rows(org), 1);
  });

  test('teams available: [] is the parent’s; a child stays within its parent; the picker list per team', async () => {
    const { org, sales, support } = await setup();
    const admin = org.admin;
    const all = await create(admin, { name: 'General' });
    assert.deepEqual([all.teamIds, all.availableTeamIds], [[], null]);
    const salesOnly = await create(admin, { name: 'Orders', teamIds: [sales] });
    const inherit = await create(admin, { name: 'New', parentId: salesOnly.id });
    assert.deepEqual([inherit.teamIds, inherit.availableTeamIds], [[], [sales]]);
    const outside = await admin.api.post('/api/categories', {
      name: 'Broken',
      parentId: salesOnly.id,
      teamIds: [support],
    });
    assert.deepEqual(
      [outside.status, outside.body.error.fields],
      [400, { teamIds: 'Team specified incorrectly' }],
    );
    const narrowed = await create(admin, { name: 'Support topic', parentId: all.id, teamIds: [support] });
    assert.deepEqual(narrowed.availableTeamIds, [support]);
    const foreignTeam = await makeTeam(await createOrganisation(s));
    const foreign = await admin.api.post('/api/categories', { name: 'X', teamIds: [foreignTeam] });
    assert.deepEqual(foreign.body.error.fields, { teamIds: 'Team specified incorrectly' });

    const forSales = (await admin.api.get(`/api/categories?teamId=${sales}`)).body.entity.items as Node[];
    assert.deepEqual(
      forSales.map((n) => [n.name, n.children.map((c) => c.name)]),
      [
        ['General', []],
        ['Orders', ['New']],
      ],
    );
    const forSupport = (await admin.api.get(`/api/categories?teamId=${support}`)).body.entity.items as Node[];
    assert.deepEqual(
      forSupport.map((n) => [n.name, n.children.map((c) => c.name)]),
      [['General', ['Support topic']]],
    );
    assert.equal(
      (await admin.api.get(`/api/categories?teamId=${foreignTeam}`)).body.code,
      'teamNotFoundException',
    );
    // Narrowing a parent narrows what is below it.
    await admin.api.patch(`/api/categories/${all.id}`, { teamIds: [sales] });
    assert.deepEqual(
      (await admin.api.get(`/api/categories/${narrowed.id}`)).body.entity.availableTeamIds,
      [],
    );
  });

  test('a chat takes any level its team may use, on set and on close; history records set and removed', async () => {
    const { org, sales, support, op, chatId } = await setup();
    const cat = await create(org.admin, { name: 'Delivery' });
    const theme = await create(org.admin, { name: 'Late', parentId: cat.id });
    const sub = await create(org.admin, { name: 'A week', parentId: theme.id });
    const supportOnly = await create(org.admin, { name: 'Bugs', teamIds: [support] });
    const supportTheme = await create(org.admin, { name: 'Crash', parentId: cat.id, teamIds: [support] });

    for (const id of [supportOnly.id, supportTheme.id]) {
      const refused = await op.api.put(`/api/chats/${chatId}/category`, { categoryId: id });
      assert.deepEqual([refused.status, refused.body.code], [409, 'sessionCategoryNotAvailableException']);
      const close = await op.api.post(`/api/chats/${chatId}/close`, { categoryId: id });
      assert.equal(close.body.code, 'sessionCategoryNotAvailableException');
    }
    const notSelected = await op.api.put(`/api/chats/${chatId}/category`, {});
    assert.deepEqual(
      [notSelected.status, notSelected.body.code],
      [400, 'sessionCategoryNotSelectedException'],
    );
    assert.deepEqual(notSelected.body.error.fields, { categoryId: 'Choose a request category' });

    const set = await op.api.put(`/api/chats/${chatId}/category`, { categoryId: sub.id });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body.entity.category, {
      id: sub.id,
      name: 'A week',
      path: ['Delivery', 'Late', 'A week'],
    });
    const removed = await op.api.put(`/api/chats/${chatId}/category`, { categoryId: null });
    assert.equal(removed.body.entity.category, null);
    await org.admin.api.patch(`/api/categories/${theme.id}`, { name: 'Delayed' });
    const closed = await op.api.post(`/api/chats/${chatId}/close`, { categoryId: theme.id });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.deepEqual(closed.body.entity.category.path, ['Delivery', 'Delayed']);

    const history = (await op.api.get(`/api/chats/${chatId}/history`)).body.entity.items as {
      kind: string;
      categoryId: string | null;
      categoryPath: string[] | null;
    }[];
    assert.deepEqual(
      history
        .filter((h) => h.kind.startsWith('category') || h.kind === 'close')
        .map((h) => [h.kind, h.categoryPath]),
      [
        ['category_set', ['Delivery', 'Late', 'A week']],
        ['category_removed', ['Delivery', 'Late', 'A week']],
        ['category_set', ['Delivery', 'Delayed']],
        ['close', null],
      ],
    );
    // The log keeps its words after the category is deleted.
    await org.admin.api.delete(`/api/categories/${cat.id}`);
    const after = (await op.api.get(`/api/chats/${chatId}/history`)).body.entity.items as {
      categoryPath: string[] | null;
    }[];
    assert.ok(after.some((h) => h.categoryPath?.join(' › ') === 'Delivery › Late › A week'));
    assert.ok(sales);
  });

  test('rights: operators read only; category modify denied beyond one’s own teams; plan option; other organisation', async () => {
    const { org, sales, support, op } = await setup();
    const general = await create(org.admin, { name: 'General' });
    const supportCat = await create(org.admin, { name: 'Support things', teamIds: [support] });
    assert.equal((await op.api.get('/api/categories')).status, 200);
    const opCreate = await op.api.post('/api/categories', { name: 'Mine' });
    assert.deepEqual([opCreate.status, opCreate.body.code], [403, 'accessDeniedException']);
    assert.equal((await op.api.delete(`/api/categories/${general.id}`)).body.code, 'accessDeniedException');

    // A team lead: AUTHORITY_CHAT_SESSION_CATEGORY without AUTHORITY_TEAMS_UPDATE, in Sales.
    const role = await s.app.db.tx((q) =>
      insertRole(q, org.id, {
        name: 'Team lead',
        description: 'Sales lead',
        rights: ['AUTHORITY_CHAT_SESSION_CATEGORY'],
      }),
    );
    const lead = await org.user({ role, teams: [sales] });
    const before = await rows(org);
    const denied: [string, string, unknown][] = [
      ['POST', '/api/categories', { name: 'For everyone' }],
      ['POST', '/api/categories', { name: 'For support', teamIds: [support] }],
      ['POST', '/api/categories', { name: 'Theme', parentId: general.id }],
      ['PATCH', `/api/categories/${general.id}`, { name: 'Renamed' }],
      ['PATCH', `/api/categories/${supportCat.id}`, { teamIds: [] }],
      ['DELETE', `/api/categories/${supportCat.id}`, undefined],
    ];
    for (const [method, path, body] of denied) {
      const res = await lead.api.call(method, path, body);
      assert.deepEqual(
        [res.status, res.body.code],
        [403, 'categoryModifyDeniedException'],
        `${method} ${path}`,
      );
    }
    assert.equal(await rows(org), before);
    // Within Sales they build their own.
    const own = await create(lead, { name: 'Sales things', teamIds: [sales] });
    const ownTheme = await create(lead, { name: 'Leads', parentId: own.id });
    await create(lead, { name: 'Sales theme', parentId: general.id, teamIds: [sales] });
    assert.equal((await lead.api.patch(`/api/categories/${ownTheme.id}`, { name: 'Hot leads' })).status, 200);
    const widen = await lead.api.patch(`/api/categories/${own.id}`, { teamIds: [] });
    assert.equal(widen.body.code, 'categoryModifyDeniedException');
    assert.equal((await lead.api.delete(`/api/categories/${own.id}`)).status, 200);

    // Another organisation: 404 on every path id, parent ids included; nothing changes.
    const other = await createOrganisation(s);
    for (const [method, path, body] of [
      ['GET', `/api/categories/${general.id}`, undefined],
      ['PATCH', `/api/categories/${general.id}`, { name: 'Taken' }],
      ['DELETE', `/api/categories/${general.id}`, undefined],
      ['POST', '/api/categories', { name: 'Theme', parentId: general.id }],
    ] as const) {
      const res = await other.admin.api.call(method, path, body);
      assert.deepEqual([res.status, res.body.code], [404, 'categoryNotFoundException'], `${method} ${path}`);
    }
    assert.equal((await other.admin.api.get('/api/categories')).body.entity.total, 0);
    assert.equal((await org.admin.api.get(`/api/categories/${general.id}`)).body.entity.name, 'General');

    // Without OPTION_CATEGORY every category route is refused, for the administrator too.
    const noOption = await createOrganisation(s, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY'),
    });
    for (const [method, path, body] of [
      ['GET', '/api/categories', undefined],
      ['GET', `/api/categories/${general.id}`, undefined],
      ['POST', '/api/categories', { name: 'X' }],
      ['PATCH', `/api/categories/${general.id}`, { name: 'X' }],
      ['DELETE', `/api/categories/${general.id}`, undefined],
    ] as const) {
      const res = await noOption.admin.api.call(method, path, body);
      assert.deepEqual([res.status, res.body.code], [403, 'optionUnavailableException'], `${method} ${path}`);
    }
  });

  test("§8 'category modify denied' for the whole organisation when platform staff lock it; still usable", async () => {
    const org = await createOrganisation(s);
    const staff = await createPlatformStaff(s);
    const created = await org.admin.api.post('/api/categories', { name: 'Billing' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const locked = await staff.patch(`/api/organisations/${org.id}`, { modifyDenied: ['CATEGORY'] });
    assert.equal(locked.status, 200, JSON.stringify(locked.body));
    for (const [method, path, body] of [
      ['POST', '/api/categories', { name: 'New' }],
      ['PATCH', `/api/categories/${created.body.entity.id}`, { name: 'Renamed' }],
      ['DELETE', `/api/categories/${created.body.entity.id}`, undefined],
    ] as const) {
      const res = await org.admin.api.call(method, path, body);
      assert.deepEqual(
        [res.status, res.body.code],
        [403, 'categoryModifyDeniedException'],
        `${method} ${path}`,
      );
    }
    const list = (await org.admin.api.get('/api/categories')).body.entity.items as { name: string }[];
    assert.deepEqual(
      list.map((c) => c.name),
      ['Billing'],
    );
    assert.equal((await staff.patch(`/api/organisations/${org.id}`, { modifyDenied: [] })).status, 200);
    assert.equal((await org.admin.api.post('/api/categories', { name: 'New' })).status, 200);
  });
});
