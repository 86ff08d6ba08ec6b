import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIELD_MESSAGES, PLAN_OPTIONS } from '@smartconnect/contracts';
import { DEMO_TEMPLATES } from '../../src/modules/organisations/seed.ts';
import {
  type Api,
  createOrganisation,
  createPlatformStaff,
  loginToken,
  startTestServer,
  type TestOrg,
  type TestServer,
} from '../helpers.ts';
import { makeTeam } from './chats-fixtures.ts';

type Template = { id: string; text: string; category: { id: string; name: string } };

async function category(org: TestOrg, name: string, teamIds: string[]) {
  const res = await org.admin.api.post('/api/template-categories', { name, teamIds });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entity as { id: string; name: string; teams: { id: string }[]; templateCount: number };
}
async function template(org: TestOrg, text: string, categoryId: string) {
  const res = await org.admin.api.post('/api/templates', { text, categoryId });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entity as Template;
}
const texts = (res: { body: { entity: { items: Template[] } } }) =>
  res.body.entity.items.map((t) => t.text).sort();

/** Quick-reply templates: categories available to teams, templates filtered to the caller's teams, §5/§6/§8. */
describe('templates', () => {
  let s: TestServer;
  let staff: Api;
  before(async () => {
    s = await startTestServer({ env: { SEED_DEMO: 'true', ADMIN_PASSWORD: 'B0ss-pass!' } });
    staff = await createPlatformStaff(s);
  });
  after(() => s.close());

  test('an administrator creates, lists, changes and deletes categories and templates', async () => {
    const org = await createOrganisation(s);
    const sales = await makeTeam(org);
    const support = await makeTeam(org);
    const c = await category(org, 'Greetings', [sales, support, sales]);
    assert.deepEqual(c.teams.map((t) => t.id).sort(), [sales, support].sort());
    const t = await template(org, '  Hello {client_name}, I am {operator_name}  ', c.id);
    assert.equal(t.text, 'Hello {client_name}, I am {operator_name}', 'the text is trimmed, variables kept');
    assert.deepEqual(t.category, { id: c.id, name: 'Greetings' });

    const all = await org.admin.api.get('/api/template-categories?all=true');
    assert.equal(all.body.entity.items[0].templateCount, 1);

    const renamed = await org.admin.api.patch(`/api/template-categories/${c.id}`, {
      name: 'Welcome',
      teamIds: [support],
    });
    assert.equal(renamed.status, 200);
    assert.deepEqual(
      renamed.body.entity.teams.map((x: { id: string }) => x.id),
      [support],
    );
    const c2 = await category(org, 'Orders', [sales]);
    const changed = await org.admin.api.patch(`/api/templates/${t.id}`, {
      text: 'Hi {client_name}',
      categoryId: c2.id,
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.entity.text, 'Hi {client_name}');
    assert.equal(changed.body.entity.category.name, 'Orders');

    assert.equal((await org.admin.api.delete(`/api/templates/${t.id}`)).status, 200);
    assert.equal(
      (await org.admin.api.patch(`/api/templates/${t.id}`, { text: 'x' })).body.code,
      'templateNotFoundException',
    );
    assert.equal((await org.admin.api.delete(`/api/templates/${t.id}`)).status, 404);

    // Deleting a category deletes its templates.
    await template(org, 'Order shipped', c2.id);
    assert.equal((await org.admin.api.delete(`/api/template-categories/${c2.id}`)).status, 200);
    assert.equal((await org.admin.api.get('/api/templates?all=true')).body.entity.total, 0);
    const gone = await org.admin.api.patch(`/api/template-categories/${c2.id}`, { name: 'Back' });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 'categoryNotFoundException');
  });

  test('§5: a template needs a category; bad names, teams and text are field errors; names are unique', async () => {
    const org = await createOrganisation(s);
    const team = await makeTeam(org);
    const other = await createOrganisation(s);
    const foreign = await category(other, 'Foreign', [await makeTeam(other)]);
    for (const body of [
      { text: 'Hello' },
      { text: 'Hello', categoryId: null },
      { text: 'Hello', categoryId: '' },
    ]) {
      const res = await org.admin.api.post('/api/templates', body);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'validationException');
      assert.equal(res.body.error.fields.categoryId, FIELD_MESSAGES.categoryMustBeChosen);
      assert.equal(res.body.error.fields.categoryId, 'A category must be chosen');
    }
    // Another organisation's category is no choice either.
    const foreignUse = await org.admin.api.post('/api/templates', { text: 'Hello', categoryId: foreign.id });
    assert.equal(foreignUse.status, 400);
    assert.equal(foreignUse.body.error.fields.categoryId, FIELD_MESSAGES.categoryMustBeChosen);
    const c = await category(org, 'Greetings', [team]);
    const empty = await org.admin.api.post('/api/templates', { text: '   ', categoryId: c.id });
    assert.equal(empty.body.error.fields.text, FIELD_MESSAGES.requiredFields);
    const long = await org.admin.api.post('/api/templates', { text: 'x'.repeat(10_001), categoryId: c.id });
    assert.equal(long.body.error.fields.text, FIELD_MESSAGES.valueIncorrect);

    const noName = await org.admin.api.post('/api/template-categories', { name: ' ', teamIds: [team] });
    assert.equal(noName.body.error.fields.name, FIELD_MESSAGES.nameIncorrect);
    const longName = await org.admin.api.post('/api/template-categories', {
      name: 'n'.repeat(65),
      teamIds: [team],
    });
    assert.equal(longName.body.error.fields.name, FIELD_MESSAGES.nameIncorrect);
    const noTeams = await org.admin.api.post('/api/template-categories', { name: 'Empty', teamIds: [] });
    assert.equal(noTeams.body.error.fields.teamIds, FIELD_MESSAGES.teamIncorrect);
    const otherTeam = await org.admin.api.post('/api/template-categories', {
      name: 'Theirs',
      teamIds: [foreign.teams[0].id],
    });
    assert.equal(otherTeam.status, 400);
    assert.equal(otherTeam.body.error.fields.teamIds, FIELD_MESSAGES.teamIncorrect);
    const dup = await org.admin.api.post('/api/template-categories', { name: 'GREETINGS', teamIds: [team] });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'categoryNameAlreadyExistsException');
    assert.equal((await org.admin.api.get('/api/template-categories?all=true')).body.entity.total, 1);
  });

  test("GET /api/templates gives the caller's teams' templates only, searched by text or category", async () => {
    const org = await createOrganisation(s);
    const sales = await makeTeam(org);
    const support = await makeTeam(org);
    const seller = await org.user({ role: 'OPERATOR', teams: [sales] });
    const helper = await org.user({ role: 'OPERATOR', teams: [support] });
    const loner = await org.user({ role: 'OPERATOR' });
    const shared = await category(org, 'Greetings', [sales, support]);
    const orders = await category(org, 'Orders', [sales]);
    const problems = await category(org, 'Problems', [support]);
    await template(org, 'Hello {client_name}', shared.id);
    await template(org, 'Your order ships on {date}', orders.id);
    await template(org, 'Please describe the problem', problems.id);

    assert.deepEqual(texts(await seller.api.get('/api/templates')), [
      'Hello {client_name}',
      'Your order ships on {date}',
    ]);
    assert.deepEqual(texts(await helper.api.get('/api/templates')), [
      'Hello {client_name}',
      'Please describe the problem',
    ]);
    assert.deepEqual(texts(await loner.api.get('/api/templates')), []);
    assert.deepEqual(texts(await seller.api.get('/api/templates?search=ORDER')), [
      'Your order ships on {date}',
    ]);
    assert.deepEqual(texts(await seller.api.get('/api/templates?search=greet')), ['Hello {client_name}']);
    assert.deepEqual(texts(await seller.api.get('/api/templates?search=problem')), []);
    assert.deepEqual(
      texts(await seller.api.get('/api/templates?search=%25')),
      [],
      'LIKE characters are literal',
    );
    const seen = (await seller.api.get('/api/template-categories')).body.entity.items.map(
      (c: { name: string }) => c.name,
    );
    assert.deepEqual(seen, ['Greetings', 'Orders']);
    // ?all=true is for those who manage templates.
    const refused = await seller.api.get('/api/templates?all=true');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'accessDeniedException');
    assert.equal((await seller.api.get('/api/template-categories?all=true')).status, 403);
    // The administrator (in no team) uses none in the composer, and manages all of them.
    assert.deepEqual(texts(await org.admin.api.get('/api/templates')), []);
    assert.equal((await org.admin.api.get('/api/templates?all=true')).body.entity.total, 3);
    const supervisor = await org.user({ role: 'SUPERVISOR', teams: [support] });
    assert.equal((await supervisor.api.get('/api/templates?all=true')).body.entity.total, 3);
    assert.equal((await supervisor.api.get('/api/templates')).body.entity.total, 2);
    // A team leaving the category takes its templates from its members at once.
    await org.admin.api.patch(`/api/template-categories/${orders.id}`, { teamIds: [support] });
    assert.deepEqual(texts(await seller.api.get('/api/templates')), ['Hello {client_name}']);
  });

  test('§6: managing needs AUTHORITY_TEAM_TEMPLATE; everything needs OPTION_TEMPLATE', async () => {
    const org = await createOrganisation(s);
    const team = await makeTeam(org);
    const op = await org.user({ role: 'OPERATOR', teams: [team] });
    const c = await category(org, 'Greetings', [team]);
    const t = await template(org, 'Hello', c.id);
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/template-categories', { name: 'Mine', teamIds: [team] }],
      ['PATCH', `/api/template-categories/${c.id}`, { name: 'Mine' }],
      ['DELETE', `/api/template-categories/${c.id}`],
      ['POST', '/api/templates', { text: 'Mine', categoryId: c.id }],
      ['PATCH', `/api/templates/${t.id}`, { text: 'Mine' }],
      ['DELETE', `/api/templates/${t.id}`],
      ['GET', '/api/whatsapp-templates'],
    ];
    for (const [method, path, body] of calls) {
      const res = await op.api.call(method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'accessDeniedException');
    }
    assert.equal((await op.api.get('/api/templates')).body.entity.total, 1, 'an operator uses them');
    const after = await org.admin.api.get('/api/templates?all=true');
    assert.deepEqual(texts(after), ['Hello'], 'nothing changed');
    assert.equal(
      (await org.admin.api.get('/api/template-categories?all=true')).body.entity.items[0].name,
      'Greetings',
    );

    // Without the plan option nobody reads or changes them.
    const res = await staff.patch(`/api/organisations/${org.id}`, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_TEMPLATE'),
    });
    assert.equal(res.status, 200);
    for (const [method, path, body] of [
      ...calls,
      ['GET', '/api/templates'],
      ['GET', '/api/template-categories'],
    ] as const) {
      const r = await org.admin.api.call(method, path, body);
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.code, 'optionUnavailableException');
    }
    assert.equal((await op.api.get('/api/templates')).body.code, 'optionUnavailableException');
  });

  test("§8 'template modify denied': platform staff lock an organisation's templates; they stay usable", async () => {
    const org = await createOrganisation(s);
    const team = await makeTeam(org);
    const op = await org.user({ role: 'OPERATOR', teams: [team] });
    const c = await category(org, 'Greetings', [team]);
    const t = await template(org, 'Hello', c.id);
    const locked = await staff.patch(`/api/organisations/${org.id}`, { modifyDenied: ['TEMPLATE'] });
    assert.equal(locked.status, 200);
    assert.deepEqual(locked.body.entity.modifyDenied, ['TEMPLATE']);
    assert.deepEqual((await org.admin.api.get('/api/organisation')).body.entity.modifyDenied, ['TEMPLATE']);
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/template-categories', { name: 'Mine', teamIds: [team] }],
      ['PATCH', `/api/template-categories/${c.id}`, { name: 'Mine' }],
      ['DELETE', `/api/template-categories/${c.id}`],
      ['POST', '/api/templates', { text: 'Mine', categoryId: c.id }],
      ['PATCH', `/api/templates/${t.id}`, { text: 'Mine' }],
      ['DELETE', `/api/templates/${t.id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await org.admin.api.call(method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'templateModifyDeniedException');
      assert.equal(res.body.error.message, 'template modify denied');
    }
    assert.deepEqual(texts(await op.api.get('/api/templates')), ['Hello'], 'still usable, unchanged');
    assert.equal(
      (await org.admin.api.get('/api/template-categories?all=true')).body.entity.items[0].name,
      'Greetings',
    );
    // A customer's administrator cannot lift it; staff can.
    assert.equal(
      (await org.admin.api.patch(`/api/organisations/${org.id}`, { modifyDenied: [] })).status,
      403,
    );
    await staff.patch(`/api/organisations/${org.id}`, { modifyDenied: [] });
    assert.equal((await org.admin.api.patch(`/api/templates/${t.id}`, { text: 'Hi' })).status, 200);
  });

  test("another organisation's templates and categories are 404, and unchanged", async () => {
    const a = await createOrganisation(s);
    const b = await createOrganisation(s);
    const team = await makeTeam(a);
    const c = await category(a, 'Greetings', [team]);
    const t = await template(a, 'Hello', c.id);
    for (const [method, path, body] of [
      ['PATCH', `/api/template-categories/${c.id}`, { name: 'Stolen' }],
      ['DELETE', `/api/template-categories/${c.id}`],
      ['PATCH', `/api/templates/${t.id}`, { text: 'Stolen' }],
      ['DELETE', `/api/templates/${t.id}`],
    ] as const) {
      const res = await b.admin.api.call(method, path, body);
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    assert.equal((await b.admin.api.get('/api/templates?all=true')).body.entity.total, 0);
    assert.equal((await b.admin.api.get('/api/template-categories?all=true')).body.entity.total, 0);
    assert.deepEqual(texts(await a.admin.api.get('/api/templates?all=true')), ['Hello']);
  });

  test('Demo starts with template categories and templates in both languages, per team', async () => {
    const admin = s.api.as(await loginToken(s.api, 'admin@demo.local', 'B0ss-pass!'));
    const categories = (await admin.get('/api/template-categories?all=true')).body.entity.items as {
      name: string;
      teams: { name: string }[];
      templateCount: number;
    }[];
    const expected = DEMO_TEMPLATES({ sales: 's', support: 'p' });
    assert.deepEqual(categories.map((c) => c.name).sort(), expected.map((c) => c.name).sort());
    const orders = categories.find((c) => c.name === 'Orders / Заказы');
    assert.deepEqual(
      orders?.teams.map((t) => t.name),
      ['Sales'],
    );
    const all = (await admin.get('/api/templates?all=true')).body.entity.items as Template[];
    assert.equal(all.length, expected.flatMap((c) => c.templates).length);
    assert.ok(all.some((t) => /[А-Яа-яЁё]/.test(t.text)) && all.some((t) => /^[\x20-\x7e]+$/.test(t.text)));
    assert.ok(all.some((t) => t.text.includes('{client_name}')));
  });
});
