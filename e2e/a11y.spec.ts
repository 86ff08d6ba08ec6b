// Accessibility of every screen of the app (issue "Operator workspace"): axe-core finds no serious or critical
// violation, signed out and signed in, in English and Russian, on a desktop and at 390 px.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { enGB } from '../web/src/shared/i18n/en-gb.ts';
import {
  type A11yViolation,
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  launchBrowser,
  openPage,
  seriousA11y,
  signIn,
  startServer,
  type TestServer,
} from './harness.ts';

/** The first parts of every text key: a word on the screen made of one of them and more parts is a raw key. */
const NAMESPACES = Object.keys(enGB);

/** Text keys shown raw on the page (a translation missing in the page's language), in text and labels. */
async function rawKeys(page: Page): Promise<string[]> {
  return page.evaluate((namespaces) => {
    const texts = [document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [placeholder], [title], [alt]'))
      for (const a of ['aria-label', 'placeholder', 'title', 'alt']) texts.push(el.getAttribute(a) ?? '');
    const found = new Set<string>();
    const pattern = new RegExp(`\\b(?:${namespaces.join('|')})(?:\\.[A-Za-z0-9_]+)+\\b`, 'g');
    for (const text of texts) for (const m of text.matchAll(pattern)) found.add(m[0]);
    return [...found];
  }, NAMESPACES);
}

let server: TestServer;
let browser: Browser;
let admin: string;
let preview: string;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  admin = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  // Demo's website chat, on its sample page (the widget is checked there too).
  const all = await apiCall(server.url, 'GET', '/api/channels', undefined, admin);
  const site = all.body.entity.items.find((c: { type: string }) => c.type === 'site_chat');
  assert.ok(site, 'Demo has a website chat');
  preview = `/widget-preview/${site.id}`;
  // A chat in each list, so the lists and the conversation are checked with content.
  const teams = await apiCall(server.url, 'GET', '/api/teams?limit=100', undefined, admin);
  const teamId = teams.body.entity.items[0].id as string;
  const channel = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'A11y shop', teamId, webhookUrl: 'https://example.com/hook' },
    admin,
  );
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
  const res = await fetch(`${server.url}/api/channels/${channel.body.entity.id}/inbound`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${channel.body.entity.inboundKey}`,
    },
    body: JSON.stringify({
      externalMessageId: 'a11y-1',
      client: { externalId: 'a11y', name: 'Ada' },
      text: 'Hello',
    }),
  });
  assert.equal(res.status, 200);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const PUBLIC = ['/', '/restore', '/signup', '/not-found'];
const ADMIN = [
  '/admin/chats?filter=assigned',
  '/admin/chats?filter=waiting',
  '/admin/chats?filter=closed',
  '/admin/chats/create',
  '/admin/chats/expired',
  '/admin/expanded-search',
  '/admin/options',
  '/admin/profile/general',
  '/admin/profile/authentication',
  '/admin/reports',
  '/admin/users/all',
  '/admin/users/edit',
  '/admin/teams/all',
  '/admin/preferences/channels',
  '/admin/preferences/roles',
  '/admin/preferences/templates',
  '/admin/preferences/templates/whats-app',
  '/admin/preferences/categories',
  '/admin/preferences/categories/template',
  '/admin/preferences/routing-rules',
  '/admin/monitoring',
];

/** Visits each path and collects its serious and critical findings. */
async function sweep(page: Page, paths: string[]): Promise<string[]> {
  const report: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    // Quiet network as a hint only: a page that keeps a request going (a widget reconnecting on a loaded machine)
    // must not fail the sweep; the screen's loader below is what tells its content is there.
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    // The screen's own content, not its loader.
    await page
      .locator('[data-testid="section-loader"], .mantine-Loader-root')
      .first()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => undefined);
    const found: A11yViolation[] = await seriousA11y(page);
    for (const v of found)
      report.push(`${path}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(' | ')}`);
    for (const key of await rawKeys(page)) report.push(`${path}: untranslated text key ${key}`);
  }
  return report;
}

/** Every channel type's creation guide, opened from its tile: no raw key in either language (issue 36.9). */
async function guides(page: Page): Promise<string[]> {
  const report: string[] = [];
  await page.goto('/admin/preferences/channels');
  const tiles = page.getByTestId('channel-types').locator('[data-testid^="connect-"]');
  await tiles.first().waitFor();
  const ids = await tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  for (const id of ids) {
    const type = id.replace('connect-', '');
    await page.getByTestId(id).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    for (const key of await rawKeys(page)) report.push(`${type} guide: untranslated text key ${key}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
  return report;
}

describe('accessibility of every screen (axe-core: no serious or critical violation)', () => {
  for (const { lang, width } of [
    { lang: 'eng', width: undefined },
    { lang: 'rus', width: 390 },
  ] as const) {
    test(`signed out and signed in, ${lang}${width ? ` at ${width} px` : ''}`, async () => {
      const { page, context } = await openPage(browser, server.url, width ? { width } : {});
      if (lang === 'rus') await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
      const report = await sweep(page, [...PUBLIC, preview]);
      await signIn(page, admin, '/admin/chats?filter=waiting');
      report.push(...(await sweep(page, ADMIN)));
      report.push(...(await guides(page)));
      await context.close();
      assert.deepEqual(report, [], `\n${report.join('\n')}`);
    });
  }
});

describe('accessibility of error states (issue 36.10: error texts and red buttons readable, panels closable by name)', () => {
  test('a refused sign-in, a team form with every field wrong, in both languages', async () => {
    for (const lang of ['eng', 'rus'] as const) {
      const { page, context } = await openPage(browser, server.url);
      if (lang === 'rus') await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
      await page.goto('/');
      await page.locator('input[type="password"]').waitFor();
      await page
        .locator('input[type="email"], input[name="login"], input[autocomplete="username"]')
        .first()
        .fill('admin@demo.local');
      await page.locator('input[type="password"]').fill('Wrong-passw0rd!');
      await page.locator('input[type="password"]').press('Enter');
      await page
        .getByText(lang === 'eng' ? 'Incorrect login or password' : /неверн/i)
        .first()
        .waitFor();
      const report = (await seriousA11y(page)).map(
        (v) => `login error (${lang}): ${v.impact} ${v.id} at ${v.targets.join(' | ')}`,
      );

      await signIn(page, admin, '/admin/teams/all');
      await page.getByRole('button', { name: lang === 'eng' ? 'Add team' : /Добавить команду/ }).click();
      const drawer = page.getByRole('dialog');
      await drawer.locator('form').waitFor();
      await drawer.locator('button[type="submit"]').click();
      await drawer.locator('.mantine-InputWrapper-error').first().waitFor();
      report.push(
        ...(await seriousA11y(page)).map(
          (v) => `team form errors (${lang}): ${v.impact} ${v.id} at ${v.targets.join(' | ')}`,
        ),
      );
      await context.close();
      assert.deepEqual(report, [], `\n${report.join('\n')}`);
    }
  });
});
