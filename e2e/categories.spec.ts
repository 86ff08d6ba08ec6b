// Request categories: an administrator builds a category with a theme and a subtheme on the §2.6 screens; an operator
// finds the subtheme in the chat top bar's picker by searching, removes and sets it, and closes the chat with it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertAccessible,
  assertNoErrors,
  field,
  fieldError,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
} from './harness.ts';

let server: TestServer;
let browser: Browser;
let admin: string;
let operator: string;
let sales: { id: string; inboundKey: string };

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  admin = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  operator = await apiLogin(server.url, 'operator1@demo.local', server.passwords['operator1@demo.local']);
  const list = await apiCall(server.url, 'GET', '/api/teams', undefined, admin);
  const team = (list.body.entity.items as { id: string; name: string }[]).find((t) => t.name === 'Sales');
  assert.ok(team);
  const created = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'Sales shop', teamId: team.id, webhookUrl: 'https://shop.example/hook' },
    admin,
  );
  assert.equal(created.status, 200, JSON.stringify(created.body));
  sales = { id: created.body.entity.id, inboundKey: created.body.entity.inboundKey };
});
/** A customer message through Sales' API channel. */
async function inbound(clientId: string, name: string, text: string) {
  const res = await fetch(`${server.url}/api/channels/${sales.id}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sales.inboundKey}` },
    body: JSON.stringify({
      externalMessageId: `m-${clientId}`,
      client: { externalId: clientId, name },
      text,
    }),
  });
  assert.equal(res.status, 200, await res.text());
}

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('request categories', () => {
  test('an administrator builds a category with a theme and a subtheme', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, admin, '/admin/preferences/categories');
    const table = page.getByTestId('categories-table');
    await table.getByText('Question / Вопрос').waitFor();
    await assertAccessible(page, 'categories list');
    await screenshot(page, 'categories-list');

    // The search finds a subtheme and shows it under its category.
    await page.getByLabel('Search categories, themes and subthemes').fill('discount');
    await table
      .getByText('Question / Вопрос › Prices and payment / Цены и оплата › Discounts / Скидки')
      .waitFor();
    assert.equal(await table.locator('tbody tr').count(), 1);
    await page.getByLabel('Search categories, themes and subthemes').fill('');

    await page.getByRole('link', { name: 'Add category' }).click();
    await page.waitForURL('**/admin/preferences/categories/template');
    await page.getByRole('button', { name: 'Create' }).click();
    await fieldError(page, 'Name', 'Name specified incorrectly');
    await field(page, 'Name').fill('Returns');
    await page.getByRole('textbox', { name: 'Teams available' }).click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('The category has been created').waitFor();
    await page.waitForURL(/\/categories\/template\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Returns' }).waitFor();
    await page.getByText('No themes yet').waitFor();

    await page.getByRole('button', { name: 'Add theme' }).click();
    let dialog = page.getByRole('dialog');
    await field(dialog, 'Name').fill('Refund');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('node-Refund').waitFor();
    // A sibling of the same name (case aside) is refused under the field.
    await page.getByRole('button', { name: 'Add theme' }).click();
    dialog = page.getByRole('dialog');
    await field(dialog, 'Name').fill('refund');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Name', 'A theme or subtheme with this name already exists here');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByTestId('node-Refund').getByRole('button', { name: 'Add subtheme' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByText(/New subtheme of/).waitFor();
    await field(dialog, 'Name').fill('Card payment');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('node-Card payment').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await assertAccessible(page, 'category page');
    await screenshot(page, 'category-page', { toasts: false });

    const url = new URL(page.url()).pathname;
    const tree = await apiCall(server.url, 'GET', '/api/categories', undefined, admin);
    const returns = tree.body.entity.items.find((c: { name: string }) => c.name === 'Returns');
    assert.deepEqual(returns.children[0].children[0].path, ['Returns', 'Refund', 'Card payment']);
    assert.equal(returns.teamIds.length, 1);
    assertNoErrors(errors);
    await context.close();

    // At 390 px, in Russian: the list and the category's page.
    const narrow = await openPage(browser, server.url, { width: 390 });
    await narrow.context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(narrow.page, admin, '/admin/preferences/categories');
    await narrow.page.getByTestId('categories-table').getByText('Returns').waitFor();
    await screenshot(narrow.page, 'categories-list-390-ru');
    await narrow.page.goto(url);
    await narrow.page.getByTestId('node-Card payment').waitFor();
    await narrow.page.getByText('Темы и подтемы').waitFor();
    await assertAccessible(narrow.page, 'category page 390 ru');
    await screenshot(narrow.page, 'category-page-390-ru');
    const width = await narrow.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scroll (${width})`);
    assertNoErrors(narrow.errors);
    await narrow.context.close();
  });

  test('an operator sets a subtheme from the top bar picker by searching, and closes the chat', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, operator, '/admin/chats?filter=assigned');
    await page.getByTestId('presence-toggle').waitFor();
    await page.waitForLoadState('networkidle');
    const set = await apiCall(server.url, 'PATCH', '/api/presence', { status: 'online' }, operator);
    assert.equal(set.status, 200);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="presence-toggle"]')?.getAttribute('data-presence') === 'online',
    );
    await inbound('c-1', 'Rita Refund', 'Money back?');
    const row = page.getByTestId('chat-row').filter({ hasText: 'Rita Refund' });
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();

    const picker = page.getByTestId('category-picker');
    await picker.click();
    const search = page.getByPlaceholder('Search categories');
    await search.fill('technical');
    // 'Technical problem' is Support's only: not offered in a Sales chat.
    await page.getByText('Nothing found').waitFor();
    await search.fill('card');
    const option = page.getByTestId('category-option').filter({ hasText: 'Card payment' });
    await option.waitFor();
    await option.getByText('Returns › Refund').waitFor();
    await assertAccessible(page, 'category picker open');
    await screenshot(page, 'chat-category-picker', { toasts: false });
    await option.click();
    await page.getByText('The request category has been set').waitFor();
    await picker.getByText('Returns › Refund › Card payment').waitFor();
    // The timeline names the path (bidi-isolated, so matched without the isolation marks).
    const event = (kind: string) =>
      page
        .locator(`[data-testid="system-event"][data-kind="${kind}"]`)
        .filter({ hasText: /Returns › Refund › Card payment/ });
    await event('category_set')
      .filter({ hasText: /^Request category: / })
      .waitFor();

    // Removed from the picker, then set again.
    await picker.click();
    await page.getByRole('button', { name: 'Remove category' }).click();
    await page.getByText('The request category has been removed').waitFor();
    await event('category_removed')
      .filter({ hasText: /^Request category removed: / })
      .waitFor();
    await picker.click();
    await page.getByPlaceholder('Search categories').fill('card pay');
    await page.getByTestId('category-option').filter({ hasText: 'Card payment' }).click();
    await picker.getByText('Returns › Refund › Card payment').waitFor();

    await page.getByRole('button', { name: 'Close chat' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Close chat' }).waitFor();
    // The dialog starts from the chat's category, shown by its path once the list is in.
    const chosen = field(dialog, 'Request category');
    for (let i = 0; i < 50 && (await chosen.inputValue()) === ''; i++) await page.waitForTimeout(100);
    assert.equal(await chosen.inputValue(), 'Returns › Refund › Card payment');
    await dialog.getByRole('button', { name: 'Close chat' }).click();
    await page.getByTestId('chat-status').getByText('Closed').waitFor();
    const closed = await apiCall(server.url, 'GET', '/api/chats?filter=closed', undefined, operator);
    const done = closed.body.entity.items.find(
      (c: { client: { name: string } }) => c.client.name === 'Rita Refund',
    );
    assert.deepEqual(done?.category?.path, ['Returns', 'Refund', 'Card payment']);
    const history = await apiCall(server.url, 'GET', `/api/chats/${done.id}/history`, undefined, operator);
    assert.deepEqual(
      history.body.entity.items
        .map((h: { kind: string }) => h.kind)
        .filter((k: string) => k.startsWith('category')),
      ['category_set', 'category_removed', 'category_set'],
    );
    await screenshot(page, 'chat-category-closed', { toasts: false });
    assertNoErrors(errors);
    await context.close();

    // The picker at 390 px on another chat of the operator (still online: their status outlives the tab briefly).
    await apiCall(server.url, 'PATCH', '/api/presence', { status: 'online' }, operator);
    await inbound('c-2', 'Mo Mobile', 'Hi');
    const list = await apiCall(server.url, 'GET', '/api/chats?filter=assigned', undefined, operator);
    const other = list.body.entity.items.find(
      (c: { client: { name: string } }) => c.client.name === 'Mo Mobile',
    );
    assert.ok(other, 'the new chat went to the online operator');
    const narrow = await openPage(browser, server.url, { width: 390 });
    await signIn(narrow.page, operator, `/admin/chats?filter=assigned&chat=${other.id}`);
    await narrow.page.getByTestId('chat-status').getByText('In progress').waitFor();
    await narrow.page.getByTestId('category-picker').click();
    await narrow.page.getByPlaceholder('Search categories').fill('deliv');
    await narrow.page.getByTestId('category-option').first().waitFor();
    const box = await narrow.page.locator('.mantine-Combobox-dropdown').boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
    await screenshot(narrow.page, 'chat-category-picker-390');
    assertNoErrors(narrow.errors);
    await narrow.context.close();
  });
});
