// Hardening of the web app on a fresh install: closing chats with the seeded request categories (and
// without any), user text with bidi controls kept from reversing the interface, and the CSP check.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertNoErrors,
  CSP_VIOLATION,
  field,
  fieldError,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
} from './harness.ts';

const RLO = '\u202E';

let server: TestServer;
let browser: Browser;
let admin: string;
let operator: string;
const channels: Record<string, { id: string; inboundKey: string }> = {};
let teams: Record<string, string> = {};
let sequence = 0;

/** A customer message through the API channel of one team (`Sales` or `Support`). */
async function inbound(team: string, client: string, text: string, clientId = `c-${++sequence}`) {
  const ch = channels[team];
  const res = await fetch(`${server.url}/api/channels/${ch.id}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ch.inboundKey}` },
    body: JSON.stringify({
      externalMessageId: `m-${++sequence}`,
      client: { externalId: clientId, name: client },
      text,
    }),
  });
  assert.equal(res.status, 200, await res.text());
}

/** Opens the chat center as a user gone 'In work' (the page's socket keeps them online). */
async function openInWork(token: string, path: string, lang?: 'rus') {
  const view = await openPage(browser, server.url);
  if (lang) await view.context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
  await signIn(view.page, token, path);
  await view.page.getByTestId('presence-toggle').waitFor();
  await view.page.waitForLoadState('networkidle');
  const set = await apiCall(server.url, 'PATCH', '/api/presence', { status: 'online' }, token);
  assert.equal(set.status, 200, JSON.stringify(set.body));
  await view.page.waitForFunction(
    () =>
      document.querySelector('[data-testid="presence-toggle"]')?.getAttribute('data-presence') === 'online',
  );
  return view;
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  admin = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  operator = await apiLogin(server.url, 'operator1@demo.local', server.passwords['operator1@demo.local']);
  const list = await apiCall(server.url, 'GET', '/api/teams', undefined, admin);
  const items: { id: string; name: string }[] = list.body.entity.items ?? list.body.entity;
  teams = Object.fromEntries(items.map((t) => [t.name, t.id]));
  for (const team of ['Sales', 'Support']) {
    const created = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      { type: 'api', name: `${team} shop`, teamId: teams[team], webhookUrl: 'https://shop.example/hook' },
      admin,
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    channels[team] = { id: created.body.entity.id, inboundKey: created.body.entity.inboundKey };
  }
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('fresh install: closing a chat', () => {
  test('an operator of the Demo organisation closes a chat with a seeded category; the category is required', async () => {
    const { page, errors, context } = await openInWork(operator, '/admin/chats?filter=assigned');
    await inbound('Sales', 'Nina Newcomer', 'Hello, is anyone there?');
    const row = page.getByTestId('chat-row').filter({ hasText: 'Nina Newcomer' });
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    await page.getByRole('button', { name: 'Close chat' }).click();
    const dialog = page.getByRole('dialog');
    // Closing without a category is refused in the form, under the field, before any call.
    await dialog.getByRole('button', { name: 'Close chat' }).click();
    await fieldError(dialog, 'Request category', 'Choose a request category before closing');
    // (The new chat's own toast may still show: it is not an error.)
    const toasts = page
      .locator('.mantine-Notification-root')
      .filter({ hasNot: page.getByTestId('attention-toast') });
    assert.equal(await toasts.count(), 0, 'no error toast');
    await screenshot(page, 'chat-close-category-required');
    await field(dialog, 'Request category').click();
    const options = await page.getByRole('option').allTextContents();
    assert.ok(options.includes('Question / Вопрос'), options.join(', '));
    await page.getByRole('option', { name: 'Question / Вопрос' }).click();
    await dialog.getByRole('button', { name: 'Close chat' }).click();
    await page.getByTestId('chat-status').getByText('Closed').waitFor();
    await page.getByText('The chat has been closed').waitFor();
    const chats = await apiCall(server.url, 'GET', '/api/chats?filter=closed', undefined, operator);
    const closed = chats.body.entity.items.find(
      (c: { client: { name: string } }) => c.client.name === 'Nina Newcomer',
    );
    assert.equal(closed?.category?.name, 'Question / Вопрос');
    assertNoErrors(errors);
    await context.close();
  });
});

/** Shown text nodes holding `marker` whose element is not bidi-isolated (`<bdi>`, `dir`, unicode-bidi isolate). */
async function unisolated(page: Page, marker: string): Promise<{ found: number; bad: string[] }> {
  return page.evaluate((m) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let found = 0;
    const bad: string[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.includes(m) || !n.parentElement?.checkVisibility()) continue;
      found++;
      const el = n.parentElement;
      const bidi = el ? getComputedStyle(el).unicodeBidi : '';
      if (!['isolate', 'plaintext', 'isolate-override'].includes(bidi))
        bad.push(`${el?.outerHTML.slice(0, 160)} (unicode-bidi: ${bidi})`);
    }
    return { found, bad };
  }, marker);
}

/**
 * `second` is drawn to the right of `first` inside `line` (the interface is left to right): a reversed
 * line would put it on the left. Positions come from the text ranges themselves.
 */
async function drawnInOrder(line: Locator, first: string, second: string): Promise<void> {
  const [a, b] = await line.evaluate(
    (root, words) =>
      words.map((word) => {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const i = n.textContent?.indexOf(word) ?? -1;
          if (i < 0) continue;
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + word.length);
          const box = r.getBoundingClientRect();
          return { left: box.left, right: box.right };
        }
        return null;
      }),
    [first, second],
  );
  assert.ok(a && b, `"${first}" and "${second}" are shown`);
  assert.ok(b.left >= a.right - 1, `"${second}" (x ${b.left}) is drawn after "${first}" (right ${a.right})`);
}

describe('user text with bidi controls', () => {
  test('a right-to-left override in names and messages stays inside them (lists, chat, dialogs)', async () => {
    const evil = `${RLO}Evil`;
    const team = await apiCall(
      server.url,
      'POST',
      '/api/teams',
      { name: `${evil} team`, description: 'Right-to-left override in the name' },
      admin,
    );
    assert.equal(team.status, 200, JSON.stringify(team.body));
    const renamed = await apiCall(
      server.url,
      'PATCH',
      '/api/auth/acc/update',
      { name: `${evil} Oleg` },
      operator,
    );
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    const category = await apiCall(
      server.url,
      'POST',
      '/api/categories',
      { name: `${evil} category` },
      admin,
    );
    assert.equal(category.status, 200, JSON.stringify(category.body));
    const renameChannel = await apiCall(
      server.url,
      'PATCH',
      `/api/channels/${channels.Sales.id}`,
      { name: `${evil} channel` },
      admin,
    );
    assert.equal(renameChannel.status, 200, JSON.stringify(renameChannel.body));

    // The operator (named with the override) gets the chat of a client named with it, writing with it.
    const { page, errors, context } = await openInWork(operator, '/admin/chats?filter=assigned');
    await inbound('Sales', `${evil} client`, `${RLO}my order 42 please`);
    const row = page.getByTestId('chat-row').filter({ hasText: 'client' });
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    await apiCall(
      server.url,
      'PUT',
      `/api/chats/${new URL(page.url()).searchParams.get('chat')}/category`,
      { categoryId: category.body.entity.id },
      operator,
    );
    const subtitle = page.getByTestId('chat-client').locator('xpath=following-sibling::*[1]');
    await subtitle.getByText('category').waitFor();
    // Top bar: channel · team · operator · category, in this order on screen.
    await drawnInOrder(subtitle, 'channel', 'Sales');
    await drawnInOrder(subtitle, 'Sales', 'Oleg');
    await drawnInOrder(subtitle, 'Oleg', 'category');
    const chat = await unisolated(page, RLO);
    assert.ok(chat.found >= 6, `the override is on screen (${chat.found} texts)`);
    assert.deepEqual(chat.bad, []);
    await screenshot(page, 'bidi-chat');
    assertNoErrors(errors);
    await context.close();

    // Admin screens: the users list, the teams list and the delete confirmation naming the team.
    const adminView = await openPage(browser, server.url);
    await signIn(adminView.page, admin, '/admin/users/all');
    await adminView.page.getByTestId('user-operator1@demo.local').waitFor();
    const users = await unisolated(adminView.page, RLO);
    assert.ok(users.found >= 1);
    assert.deepEqual(users.bad, []);
    await screenshot(adminView.page, 'bidi-users');
    await adminView.page.goto('/admin/teams/all');
    const teamRow = adminView.page.getByTestId(`team-${evil} team`);
    await teamRow.waitFor();
    assert.deepEqual((await unisolated(adminView.page, RLO)).bad, []);
    await teamRow.getByRole('button', { name: 'Delete' }).click();
    const confirm = adminView.page.getByRole('dialog');
    const sentence = confirm.getByText('will be deleted');
    await sentence.waitFor();
    // 'Team “‮Evil team” will be deleted': the words after the name stay after it.
    await drawnInOrder(sentence, 'team', 'will be deleted');
    await drawnInOrder(sentence, 'Team', 'team');
    await screenshot(adminView.page, 'bidi-team-delete');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assertNoErrors(adminView.errors);
    await adminView.context.close();
  });
});

describe('fresh install without categories', () => {
  test('an operator is told that none exist; an administrator adds one in the dialog and closes', async () => {
    const list = await apiCall(server.url, 'GET', '/api/categories', undefined, admin);
    for (const c of list.body.entity.items)
      assert.equal(
        (await apiCall(server.url, 'DELETE', `/api/categories/${c.id}`, undefined, admin)).status,
        200,
      );

    // An operator (no AUTHORITY_CHAT_SESSION_CATEGORY), in Russian: the notice asks for categories.
    const op = await openInWork(operator, '/admin/chats?filter=assigned', 'rus');
    await inbound('Sales', 'Pavel Pokupatel', 'Здравствуйте');
    const row = op.page.getByTestId('chat-row').filter({ hasText: 'Pavel Pokupatel' });
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await op.page.getByRole('button', { name: 'Закрыть чат' }).click();
    const notice = op.page.getByTestId('no-categories');
    await notice.getByText('Категорий обращений пока нет').waitFor();
    await notice.getByText('Попросите супервизора или администратора').waitFor();
    assert.equal(await notice.getByRole('textbox').count(), 0);
    assert.ok(await op.page.getByRole('dialog').getByRole('button', { name: 'Закрыть чат' }).isDisabled());
    await screenshot(op.page, 'chat-close-no-categories-operator-ru');
    assertNoErrors(op.errors);
    await op.context.close();

    // The administrator takes a waiting chat and creates the first category from the close dialog.
    await inbound('Support', 'Wanda Waiting', 'Anyone?');
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, admin, '/admin/chats?filter=waiting');
    await page.getByTestId('chat-row').filter({ hasText: 'Wanda Waiting' }).click();
    await page.getByRole('button', { name: 'Take' }).click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    await page.getByRole('button', { name: 'Close chat' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('No request categories yet').waitFor();
    assert.ok(await dialog.getByRole('button', { name: 'Close chat' }).isDisabled());
    await dialog.getByRole('button', { name: 'Add category' }).click();
    await fieldError(dialog, 'New category', 'Name specified incorrectly');
    await field(dialog, 'New category').fill('Delivery');
    await screenshot(page, 'chat-close-no-categories-admin');
    await dialog.getByRole('button', { name: 'Add category' }).click();
    await page.getByText('The category has been created').waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector('[role="dialog"] input[aria-haspopup]') as HTMLInputElement | null)?.value ===
        'Delivery',
    );
    await screenshot(page, 'chat-close-category-created');
    await dialog.getByRole('button', { name: 'Close chat' }).click();
    await page.getByTestId('chat-status').getByText('Closed').waitFor();
    assertNoErrors(errors);
    await context.close();
  });

  test('the close dialog at 390 px', async () => {
    await inbound('Support', 'Mobile Client', 'Hi from the phone');
    const waiting = await apiCall(server.url, 'GET', '/api/chats?filter=waiting', undefined, admin);
    const chat = waiting.body.entity.items.find(
      (c: { client: { name: string } }) => c.client.name === 'Mobile Client',
    );
    assert.equal((await apiCall(server.url, 'POST', `/api/chats/${chat.id}/take`, {}, admin)).status, 200);
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await signIn(page, admin, `/admin/chats?filter=assigned&chat=${chat.id}`);
    // One pane at a time: the open chat, with its actions on screen and a way back to the list.
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    await screenshot(page, 'chat-conversation-390');
    const closeButton = page.getByRole('button', { name: 'Close chat' });
    const box = await closeButton.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
    await page.getByRole('button', { name: 'Close chat' }).click();
    await page.getByRole('dialog').getByLabel('Request category').waitFor();
    await screenshot(page, 'chat-close-dialog-390');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'All chats' }).click();
    await page.getByTestId('chat-row').filter({ hasText: 'Mobile Client' }).waitFor();
    assertNoErrors(errors);
    await context.close();
  });
});

describe('content security policy', () => {
  test('every page runs under the CSP, and a violation is recorded as an error', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    const res = await page.goto('/');
    assert.match((await res?.allHeaders())?.['content-security-policy'] ?? '', /script-src 'self'/);
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    await signIn(page, admin, '/admin/teams/all');
    await page.getByTestId('teams-table').waitFor();
    assertNoErrors(errors);
    // An inline script, as a careless index.html or PWA registration would add, is refused and recorded.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.head.append(s);
    });
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => (window as unknown as { __inline?: number }).__inline), undefined);
    assert.ok(
      errors.some((e) => CSP_VIOLATION.test(e)),
      errors.join('\n'),
    );
    assert.throws(() => assertNoErrors(errors, /.*/), /Content Security Policy|CSP violation/);
    await context.close();
  });
});

describe('the bundles of the app', () => {
  test('travel compressed (brotli) and, under /assets/, are cached for good', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    const loaded: { url: string; encoding?: string; cache?: string; vary?: string; bytes: number }[] = [];
    page.on('response', async (res) => {
      if (!/\.(js|css)$/.test(new URL(res.url()).pathname)) return;
      const headers = await res.allHeaders();
      const sizes = await res.request().sizes();
      loaded.push({
        url: new URL(res.url()).pathname,
        encoding: headers['content-encoding'],
        cache: headers['cache-control'],
        vary: headers.vary,
        bytes: sizes.responseBodySize,
      });
    });
    await page.goto('/');
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    await page.waitForLoadState('networkidle');
    assertNoErrors(errors);
    const assets = loaded.filter((r) => r.url.startsWith('/assets/'));
    assert.ok(assets.length > 1, JSON.stringify(loaded));
    // Every bundle of a kilobyte or more (the small ones are not precompressed) arrives as brotli.
    const entry = assets.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    assert.equal(entry.encoding, 'br', JSON.stringify(entry));
    for (const a of assets) {
      assert.match(a.cache ?? '', /max-age=31536000, immutable/, a.url);
      assert.equal(a.vary, 'accept-encoding', a.url);
    }
    const total = loaded.reduce((n, r) => n + r.bytes, 0);
    console.log(
      `login page: ${loaded.length} JS/CSS files, ${(total / 1024).toFixed(1)} KB transferred (brotli)`,
    );
    await context.close();
  });
});
