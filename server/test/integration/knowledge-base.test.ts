import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIELD_MESSAGES, KB_LIMITS, type KbArticleDto } from '@smartconnect/contracts';
import {
  type Api,
  createOrganisation,
  createPlatformStaff,
  startTestServer,
  type TestOrg,
  type TestServer,
} from '../helpers.ts';
import { makeTeam } from './chats-fixtures.ts';

async function category(org: TestOrg, name: string, teamIds: string[]) {
  const res = await org.admin.api.post('/api/kb/categories', { name, teamIds });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entity as { id: string; name: string; teams: { id: string }[]; articleCount: number };
}
async function article(org: TestOrg, body: Record<string, unknown>) {
  const res = await org.admin.api.post('/api/kb/articles', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entity as KbArticleDto;
}
const titles = (res: { body: { entity: { items: KbArticleDto[] } } }) =>
  res.body.entity.items.map((a) => a.title);

/** Knowledge base (issue 36): categories and articles available to teams, written with AUTHORITY_TEAM_TEMPLATE. */
describe('knowledge base', () => {
  let s: TestServer;
  let staff: Api;
  before(async () => {
    s = await startTestServer();
    staff = await createPlatformStaff(s);
  });
  after(() => s.close());

  test('an administrator creates, changes and deletes categories and articles', async () => {
    const org = await createOrganisation(s);
    const team = await makeTeam(org);
    const c = await category(org, 'Delivery', [team, team]);
    assert.deepEqual(
      c.teams.map((t) => t.id),
      [team],
    );
    const a = await article(org, { categoryId: c.id, title: '  Refunds  ', body: 'Money back in 14 days.' });
    assert.equal(a.title, 'Refunds');
    assert.equal(a.public, false);
    assert.equal(a.publicPath, null);
    assert.deepEqual(a.teams, []);
    assert.deepEqual(a.category, { id: c.id, name: 'Delivery' });
    assert.equal(a.createdBy?.id, org.admin.id);
    const changed = await org.admin.api.patch(`/api/kb/articles/${a.id}`, {
      title: 'Refund policy',
      public: true,
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.entity.title, 'Refund policy');
    assert.match(changed.body.entity.publicPath, new RegExp(`^/kb/${org.id}/[a-z0-9-]+$`));
    assert.equal(changed.body.entity.updatedBy.id, org.admin.id);
    assert.equal(
      (await org.admin.api.get(`/api/kb/articles/${a.id}`)).body.entity.body,
      'Money back in 14 days.',
    );
    assert.equal(
      (await org.admin.api.get('/api/kb/categories?all=true')).body.entity.items[0].articleCount,
      1,
    );

    assert.equal((await org.admin.api.delete(`/api/kb/articles/${a.id}`)).status, 200);
    const gone = await org.admin.api.get(`/api/kb/articles/${a.id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 'articleNotFoundException');
    await article(org, { categoryId: c.id, title: 'Other' });
    assert.equal((await org.admin.api.delete(`/api/kb/categories/${c.id}`)).status, 200);
    assert.equal(
      (await org.admin.api.get('/api/kb/articles?all=true')).body.entity.total,
      0,
      'articles go too',
    );
    assert.equal(
      (await org.admin.api.patch(`/api/kb/categories/${c.id}`, { name: 'x' })).body.code,
      'categoryNotFoundException',
    );
  });

  test('field errors: title 1..255, body up to 20,000, a category of the organisation, teams, unique names', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const team = await makeTeam(org);
    const c = await category(org, 'Delivery', [team]);
    const foreign = await category(other, 'Theirs', [await makeTeam(other)]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ categoryId: c.id, title: '  ' }, 'title', FIELD_MESSAGES.requiredFields],
      [{ categoryId: c.id, title: 't'.repeat(256) }, 'title', FIELD_MESSAGES.valueIncorrect],
      [
        { categoryId: c.id, title: 'ok', body: 'b'.repeat(KB_LIMITS.bodyMax + 1) },
        'body',
        FIELD_MESSAGES.valueIncorrect,
      ],
      [{ title: 'ok' }, 'categoryId', FIELD_MESSAGES.categoryMustBeChosen],
      [{ title: 'ok', categoryId: foreign.id }, 'categoryId', FIELD_MESSAGES.categoryMustBeChosen],
      [
        { title: 'ok', categoryId: c.id, teamIds: [foreign.teams[0].id] },
        'teamIds',
        FIELD_MESSAGES.teamIncorrect,
      ],
      [{ title: 'ok', categoryId: c.id, public: 'yes' }, 'public', FIELD_MESSAGES.valueIncorrect],
    ];
    for (const [body, field, message] of cases) {
      const res = await org.admin.api.post('/api/kb/articles', body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(res.body.code, 'validationException');
      assert.equal(res.body.error.fields[field], message, field);
    }
    assert.equal(
      (
        await org.admin.api.post('/api/kb/articles', {
          categoryId: c.id,
          title: 't'.repeat(255),
          body: 'b'.repeat(20_000),
        })
      ).status,
      200,
      'the limits themselves are allowed',
    );
    const noTeams = await org.admin.api.post('/api/kb/categories', { name: 'Empty', teamIds: [] });
    assert.equal(noTeams.body.error.fields.teamIds, FIELD_MESSAGES.teamIncorrect);
    const longName = await org.admin.api.post('/api/kb/categories', {
      name: 'n'.repeat(65),
      teamIds: [team],
    });
    assert.equal(longName.body.error.fields.name, FIELD_MESSAGES.nameIncorrect);
    const dup = await org.admin.api.post('/api/kb/categories', { name: 'DELIVERY', teamIds: [team] });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'categoryNameAlreadyExistsException');
    const noQuery = await org.admin.api.get('/api/kb/search?q=%20');
    assert.equal(noQuery.status, 400);
  });

  test("reading: the article's teams, else its category's; another team's operator cannot read it", async () => {
    const org = await createOrganisation(s);
    const sales = await makeTeam(org);
    const support = await makeTeam(org);
    const seller = await org.user({ role: 'OPERATOR', teams: [sales] });
    const helper = await org.user({ role: 'OPERATOR', teams: [support] });
    const c = await category(org, 'Orders', [sales]);
    const inherited = await article(org, {
      categoryId: c.id,
      title: 'Order tracking',
      body: 'Track the parcel',
    });
    const own = await article(org, { categoryId: c.id, title: 'Support escalation', teamIds: [support] });

    assert.deepEqual(titles(await seller.api.get('/api/kb/articles')), ['Order tracking']);
    assert.deepEqual(titles(await helper.api.get('/api/kb/articles')), ['Support escalation']);
    assert.equal((await seller.api.get(`/api/kb/articles/${inherited.id}`)).status, 200);
    const denied = await helper.api.get(`/api/kb/articles/${inherited.id}`);
    assert.equal(denied.status, 404, "another team's operator cannot read it");
    assert.equal(denied.body.code, 'articleNotFoundException');
    assert.equal((await seller.api.get(`/api/kb/articles/${own.id}`)).status, 404);
    assert.deepEqual(titles(await helper.api.get('/api/kb/search?q=parcel')), []);
    assert.deepEqual(titles(await seller.api.get('/api/kb/search?q=parcel')), ['Order tracking']);
    // ?all=true is for writers; the administrator reads everything (search and one article).
    assert.equal((await seller.api.get('/api/kb/articles?all=true')).status, 403);
    assert.equal((await org.admin.api.get('/api/kb/articles?all=true')).body.entity.total, 2);
    assert.deepEqual(titles(await org.admin.api.get('/api/kb/search?q=escalation')), ['Support escalation']);
    assert.equal((await org.admin.api.get(`/api/kb/articles/${own.id}`)).status, 200);
    // A team leaving the category takes its inherited articles from its members at once.
    await org.admin.api.patch(`/api/kb/categories/${c.id}`, { teamIds: [support] });
    assert.equal((await seller.api.get(`/api/kb/articles/${inherited.id}`)).status, 404);
    assert.equal((await helper.api.get(`/api/kb/articles/${inherited.id}`)).status, 200);
  });

  test('§6: writing needs AUTHORITY_TEAM_TEMPLATE, and stops while templates are locked by platform staff', async () => {
    const org = await createOrganisation(s);
    const team = await makeTeam(org);
    const op = await org.user({ role: 'OPERATOR', teams: [team] });
    const c = await category(org, 'Orders', [team]);
    const a = await article(org, { categoryId: c.id, title: 'Tracking' });
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/kb/categories', { name: 'Mine', teamIds: [team] }],
      ['PATCH', `/api/kb/categories/${c.id}`, { name: 'Mine' }],
      ['DELETE', `/api/kb/categories/${c.id}`],
      ['POST', '/api/kb/articles', { title: 'Mine', categoryId: c.id }],
      ['PATCH', `/api/kb/articles/${a.id}`, { title: 'Mine' }],
      ['DELETE', `/api/kb/articles/${a.id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await op.api.call(method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'accessDeniedException');
    }
    assert.deepEqual(titles(await op.api.get('/api/kb/articles')), ['Tracking'], 'read, unchanged');

    await staff.patch(`/api/organisations/${org.id}`, { modifyDenied: ['TEMPLATE'] });
    for (const [method, path, body] of calls) {
      const res = await org.admin.api.call(method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'templateModifyDeniedException');
    }
    assert.deepEqual(titles(await op.api.get('/api/kb/search?q=tracking')), ['Tracking'], 'still readable');
  });

  test("another organisation cannot read, change or search an organisation's articles", async () => {
    const a = await createOrganisation(s);
    const b = await createOrganisation(s);
    const c = await category(a, 'Orders', [await makeTeam(a)]);
    const x = await article(a, { categoryId: c.id, title: 'Secret tracking', body: 'inside', public: true });
    for (const [method, path, body] of [
      ['GET', `/api/kb/articles/${x.id}`],
      ['PATCH', `/api/kb/articles/${x.id}`, { title: 'Stolen' }],
      ['DELETE', `/api/kb/articles/${x.id}`],
      ['PATCH', `/api/kb/categories/${c.id}`, { name: 'Stolen' }],
      ['DELETE', `/api/kb/categories/${c.id}`],
    ] as const) {
      assert.equal((await b.admin.api.call(method, path, body)).status, 404, `${method} ${path}`);
    }
    assert.equal((await b.admin.api.get('/api/kb/search?q=secret')).body.entity.total, 0);
    assert.equal((await b.admin.api.get('/api/kb/articles?all=true')).body.entity.total, 0);
    // The public page is under its own organisation's id only.
    const slug = x.publicPath?.split('/').pop();
    assert.equal((await fetch(`${s.url}/kb/${b.id}/${slug}`)).status, 404);
    assert.equal((await a.admin.api.get(`/api/kb/articles/${x.id}`)).body.entity.title, 'Secret tracking');
  });

  test('search ranks title matches over body matches, stems words, and finds a word being typed', async () => {
    const org = await createOrganisation(s);
    const c = await category(org, 'Help', [await makeTeam(org)]);
    await article(org, { categoryId: c.id, title: 'Shipping abroad', body: 'We deliver to 40 countries.' });
    await article(org, {
      categoryId: c.id,
      title: 'Payment methods',
      body: 'Cards. Refunds go back to the card.',
    });
    await article(org, {
      categoryId: c.id,
      title: 'Refunds',
      body: 'A refund takes 14 days. Refunds need the receipt.',
    });
    await article(org, {
      categoryId: c.id,
      title: 'Возврат товара',
      body: 'Возвраты принимаем в течение 14 дней.',
    });
    assert.deepEqual(titles(await org.admin.api.get('/api/kb/search?q=refund')), [
      'Refunds',
      'Payment methods',
    ]);
    assert.deepEqual(titles(await org.admin.api.get('/api/kb/search?q=возвраты')), ['Возврат товара']);
    assert.deepEqual(
      titles(await org.admin.api.get('/api/kb/search?q=ship')),
      ['Shipping abroad'],
      'a prefix',
    );
    assert.deepEqual(
      titles(await org.admin.api.get('/api/kb/search?q=%25')),
      [],
      'LIKE characters are literal',
    );
    assert.deepEqual(titles(await org.admin.api.get('/api/kb/search?q=nothing-like-it')), []);
  });

  test('the public page escapes everything, renders the markdown subset, and 404s articles that are not public', async () => {
    const org = await createOrganisation(s);
    const c = await category(org, '<b>Cat</b>', [await makeTeam(org)]);
    const evil = '<script>alert(1)</script><img src=x onerror="alert(2)">';
    const a = await article(org, {
      categoryId: c.id,
      title: `Title ${evil}`,
      body: `Intro & "quotes" ${evil}\n\n- **one**\n- two\n\n**bold <i>x</i>**`,
      public: true,
    });
    assert.ok(a.publicPath);
    const res = await fetch(`${s.url}${a.publicPath}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await res.text();
    assert.ok(!html.includes('<script'), 'no script tag');
    assert.ok(!html.includes('<img'), 'no image tag');
    assert.ok(!html.includes('<b>') && !html.includes('<i>'), 'no tag of the article');
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(html.includes('onerror=&quot;alert(2)&quot;'));
    assert.ok(html.includes('Intro &amp; &quot;quotes&quot;'));
    assert.ok(html.includes('<ul><li><strong>one</strong></li><li>two</li></ul>'));
    assert.ok(html.includes('<strong>bold &lt;i&gt;x&lt;/i&gt;</strong>'));
    assert.ok(html.includes('&lt;b&gt;Cat&lt;/b&gt;'));

    await org.admin.api.patch(`/api/kb/articles/${a.id}`, { public: false });
    const hidden = await fetch(`${s.url}${a.publicPath}`);
    assert.equal(hidden.status, 404, 'not public any more');
    assert.ok(!(await hidden.text()).includes('Title'));
    assert.equal((await fetch(`${s.url}/kb/${org.id}/no-such-article`)).status, 404);
    assert.equal((await fetch(`${s.url}/kb/not-an-id/${a.publicPath?.split('/').pop()}`)).status, 404);
    // Public again: the same address.
    const back = await org.admin.api.patch(`/api/kb/articles/${a.id}`, { public: true });
    assert.equal(back.body.entity.publicPath, a.publicPath);
    assert.equal((await fetch(`${s.url}${a.publicPath}`)).status, 200);
  });
});
