import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEMO_CATEGORIES, DEMO_CATEGORY_TREE, seedDemo } from '../../src/modules/organisations/seed.ts';
import { loginToken, startTestServer, type TestServer } from '../helpers.ts';

describe('demo seed', () => {
  let s: TestServer;
  const printed: string[] = [];
  const log = console.log;
  before(async () => {
    console.log = (...args: unknown[]) => printed.push(args.join(' '));
    s = await startTestServer({
      env: { SEED_DEMO: 'true', ADMIN_EMAIL: 'boss@demo.test', ADMIN_PASSWORD: 'B0ss-pass!' },
    });
    console.log = log;
  });
  after(() => s.close());

  test('first start creates Demo with four people and two teams, printing their passwords once', async () => {
    const admin = s.api.as(await loginToken(s.api, 'boss@demo.test', 'B0ss-pass!'));
    const me = (await admin.get('/api/auth/user')).body.entity;
    assert.equal(me.organisation.name, 'Demo');
    assert.equal(me.options.length, 16);
    const users = (await admin.get('/api/users')).body.entity.items;
    assert.deepEqual(users.map((u: { role: { builtIn: string } }) => u.role.builtIn).sort(), [
      'ADMINISTRATOR',
      'OPERATOR',
      'OPERATOR',
      'SUPERVISOR',
    ]);
    assert.equal((await admin.get('/api/teams')).body.entity.total, 2);
    const out = printed.join('\n');
    const line = out.split('\n').find((l) => l.includes('operator1@demo.local'));
    assert.ok(line, out);
    await loginToken(s.api, 'operator1@demo.local', line.trim().split(/\s+/).at(-1)!);
  });

  test('Demo has request categories in both languages (OPTION_CATEGORY is on), readable by an operator', async () => {
    const admin = s.api.as(await loginToken(s.api, 'boss@demo.test', 'B0ss-pass!'));
    const me = (await admin.get('/api/auth/user')).body.entity;
    assert.ok(me.options.includes('OPTION_CATEGORY'));
    const names = (await admin.get('/api/categories')).body.entity.items.map((c: { name: string }) => c.name);
    assert.deepEqual([...names].sort(), [...DEMO_CATEGORIES].sort());
    assert.ok(names.length >= 3);
    for (const name of names) assert.match(name, /[A-Za-z].* \/ .*[А-Яа-яЁё]/, name);
    const line = printed
      .join('\n')
      .split('\n')
      .find((l) => l.includes('operator1@demo.local'));
    assert.ok(line);
    const operator = s.api.as(
      await loginToken(s.api, 'operator1@demo.local', line.trim().split(/\s+/).at(-1)!),
    );
    const seen = await operator.get('/api/categories');
    assert.equal(seen.status, 200);
    assert.equal(seen.body.entity.total, DEMO_CATEGORIES.length);
    // Three levels, every name in both languages; 'Order' is Sales' only, 'Technical problem' Support's only.
    type Node = {
      name: string;
      path: string[];
      level: number;
      children: Node[];
      availableTeamIds: string[] | null;
    };
    const all: Node[] = [];
    const walk = (nodes: Node[]) => {
      for (const n of nodes) {
        all.push(n);
        walk(n.children);
      }
    };
    walk(seen.body.entity.items);
    assert.ok(all.some((n) => n.level === 3));
    for (const n of all) assert.match(n.name, /[A-Za-z].* \/ .*[А-Яа-яЁё]/, n.name);
    const teams = (await admin.get('/api/teams')).body.entity.items as { id: string; name: string }[];
    const sales = teams.find((t) => t.name === 'Sales')!.id;
    const forSales = (await operator.get(`/api/categories?teamId=${sales}`)).body.entity.items as Node[];
    assert.ok(forSales.some((n) => n.name === 'Order / Заказ'));
    assert.ok(!forSales.some((n) => n.name.startsWith('Technical problem')));
  });

  test('Demo has knowledge-base articles in both languages: delivery for both teams (public), returns for Support', async () => {
    const password = (email: string) =>
      printed
        .join('\n')
        .split('\n')
        .find((l) => l.includes(email))
        ?.trim()
        .split(/\s+/)
        .at(-1) ?? '';
    const sales = s.api.as(await loginToken(s.api, 'operator1@demo.local', password('operator1@demo.local')));
    const support = s.api.as(
      await loginToken(s.api, 'operator2@demo.local', password('operator2@demo.local')),
    );
    type Article = { title: string; publicPath: string | null; category: { name: string } };
    const titles = async (api: typeof sales) =>
      ((await api.get('/api/kb/articles')).body.entity.items as Article[]).map((a) => a.title).sort();
    assert.deepEqual(await titles(sales), [
      'Delivery times',
      'Payment methods',
      'Способы оплаты',
      'Сроки доставки',
    ]);
    assert.deepEqual(await titles(support), [
      'Delivery times',
      'Payment methods',
      'Returns within 14 days',
      'Возврат в течение 14 дней',
      'Способы оплаты',
      'Сроки доставки',
    ]);
    // Found by the composer's search, and its public page opens without signing in.
    const found = (await sales.get('/api/kb/search?q=delivery')).body.entity.items as Article[];
    assert.equal(found[0]?.title, 'Delivery times');
    const page = await fetch(`${s.url}${found[0]?.publicPath}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Orders placed before 14:00/);
    const returns = (await support.get('/api/kb/search?q=return')).body.entity.items as Article[];
    assert.equal(returns[0]?.publicPath, null, 'returns stay inside');
  });

  test('Demo has a website chat to try: its widget answers a visitor, and the start prints the sample page', async () => {
    const admin = s.api.as(await loginToken(s.api, 'boss@demo.test', 'B0ss-pass!'));
    const channels = (await admin.get('/api/channels')).body.entity.items as {
      id: string;
      type: string;
      name: string;
    }[];
    const site = channels.find((c) => c.type === 'site_chat');
    assert.equal(site?.name, 'Website chat');
    assert.ok(printed.join('\n').includes(`/widget-preview/${site.id}`), printed.join('\n'));
    // The widget's public configuration is served: the channel works as soon as the server is up.
    const config = await s.api.get(`/api/widget/${site.id}/config`);
    assert.equal(config.status, 200, JSON.stringify(config.body));
    assert.equal(config.body.entity.title, 'Demo shop');
  });

  test('an ADMIN_EMAIL that is a demo address takes it; the demo person of that address is left out', async () => {
    const other = await startTestServer({
      env: { SEED_DEMO: 'true', ADMIN_EMAIL: 'supervisor@demo.local', ADMIN_PASSWORD: 'B0ss-pass!' },
    });
    try {
      const admin = other.api.as(await loginToken(other.api, 'supervisor@demo.local', 'B0ss-pass!'));
      assert.equal((await admin.get('/api/auth/user')).body.entity.role.builtIn, 'ADMINISTRATOR');
      const users = (await admin.get('/api/users')).body.entity.items;
      assert.deepEqual(users.map((u: { role: { builtIn: string } }) => u.role.builtIn).sort(), [
        'ADMINISTRATOR',
        'OPERATOR',
        'OPERATOR',
      ]);
    } finally {
      await other.close();
    }
  });

  test('a later start does not seed again or overwrite', async () => {
    printed.length = 0;
    await seedDemo({ ...s.app, config: { ...s.app.config, adminPassword: 'Other-pass1!' } });
    const orgs = await s.app.db.query<{ n: number }>('select count(*)::int as n from organisations');
    assert.equal(orgs[0].n, 2, 'Demo and the platform organisation, nothing more');
    const categories = await s.app.db.query<{ n: number }>(
      'select count(*)::int as n from request_categories',
    );
    type Node = { children?: Node[] };
    const count = (nodes: Node[]): number => nodes.reduce((n, c) => n + 1 + count(c.children ?? []), 0);
    assert.equal(categories[0].n, count(DEMO_CATEGORY_TREE), 'the categories are not seeded twice');
    await loginToken(s.api, 'boss@demo.test', 'B0ss-pass!');
  });
});
