import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertAccessible,
  assertNoErrors,
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
let webhook: Server;
let adminToken: string;
let olegToken: string;
let chatId: string;
/** The texts the channel's webhook received: what the client gets. */
const delivered: string[] = [];

async function startWebhook(): Promise<string> {
  webhook = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const text = JSON.parse(body || '{}').text;
      if (typeof text === 'string') delivered.push(text);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(webhook.address() as { port: number }).port}/hook`;
}

/** Waits until the locator matches exactly `n` elements (lists filter after a short debounce). */
async function waitCount(locator: Locator, n: number): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if ((await locator.count()) === n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(await locator.count(), n);
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  olegToken = await apiLogin(server.url, 'operator1@demo.local', server.passwords['operator1@demo.local']);
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
  const sales = teams.body.entity.items.find((t: { name: string }) => t.name === 'Sales');
  const ch = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'Shop API', teamId: sales.id, webhookUrl: await startWebhook() },
    adminToken,
  );
  assert.equal(ch.status, 200, JSON.stringify(ch.body));
  const res = await fetch(`${server.url}/api/channels/${ch.body.entity.id}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ch.body.entity.inboundKey}` },
    body: JSON.stringify({
      externalMessageId: 'tpl-1',
      client: { externalId: 'tpl-client', name: 'Wanda Client' },
      text: 'Where is my parcel?',
    }),
  });
  chatId = ((await res.json()) as { entity: { chatId: string } }).entity.chatId;
  const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, adminToken);
  if (chat.body.entity.operator?.id === undefined) {
    const taken = await apiCall(server.url, 'POST', `/api/chats/${chatId}/take`, undefined, olegToken);
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
  }
});
after(async () => {
  await browser?.close();
  await server?.stop();
  webhook?.close();
});

describe('quick-reply templates', () => {
  test('an administrator creates a category for Sales and a template with a variable chip', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/templates');
    // Demo's built-in templates in both languages.
    await page.getByTestId('category-Приветствия').waitFor();
    await page.getByTestId('add-category').click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await fieldError(drawer, 'Name', 'Name specified incorrectly');
    await drawer.getByTestId('category-name').fill('Delivery');
    await drawer.getByTestId('category-teams').click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await drawer.getByTestId('category-name').click();
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Category created').waitFor();
    await page.getByTestId('category-Delivery').getByText('Sales').waitFor();

    await page.getByTestId('add-template').click();
    const editor = page.getByRole('dialog');
    await editor.getByTestId('template-text').fill('Hello ');
    await editor.getByTestId('insert-client_name').click();
    await editor.getByTestId('template-text').press('End');
    await editor.getByTestId('template-text').pressSequentially(', your parcel ships today');
    // §5: a category must be chosen.
    await editor.getByRole('button', { name: 'Create' }).click();
    await fieldError(editor, 'Category', 'A category must be chosen');
    assert.equal(
      await editor.getByTestId('template-text').inputValue(),
      'Hello {client_name}, your parcel ships today',
    );
    await editor
      .getByTestId('template-preview')
      .locator('[data-variable="client_name"]', { hasText: 'Client name' })
      .waitFor();
    await editor.getByTestId('template-category').click();
    await page.getByRole('option', { name: 'Delivery' }).click();
    await screenshot(page, 'templates-editor');
    await assertAccessible(page, 'template editor');
    await editor.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Template created').waitFor();
    await editor.waitFor({ state: 'hidden' });

    await page.getByTestId('templates-search').fill('parcel');
    const row = page.getByTestId('template-row');
    await row.first().getByText('your parcel ships today').waitFor();
    await waitCount(row, 1);
    await page.getByTestId('templates-search').fill('');
    await screenshot(page, 'templates-page', { toasts: false });
    await assertAccessible(page, 'templates page');

    await page.getByRole('tab', { name: 'WhatsApp templates' }).click();
    await page.getByText('No WhatsApp templates').waitFor();
    await assertAccessible(page, 'WhatsApp templates');
    await screenshot(page, 'templates-whatsapp');
    assertNoErrors(errors);
  });

  test('the page at 390 px in Russian', async () => {
    const { page, errors } = await openPage(browser, server.url, { width: 390 });
    await page.goto('/not-found');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, '/admin/preferences/templates');
    await page.getByTestId('category-Delivery').waitFor();
    await page.getByTestId('templates-search').waitFor();
    await screenshot(page, 'templates-page-390-ru', { toasts: false });
    await assertAccessible(page, 'templates page, 390 px, Russian');
    assertNoErrors(errors);
  });

  test("an operator inserts it with '/', edits and sends it; the client gets the filled text", async () => {
    for (const width of [1440, 390]) {
      const { page, errors } = await openPage(browser, server.url, { width });
      await signIn(page, olegToken, `/admin/chats?filter=assigned&chat=${chatId}`);
      const input = page.getByTestId('composer-input');
      await input.waitFor();
      await input.fill('/parcel');
      const menu = page.getByTestId('slash-templates');
      await menu.getByTestId('template-option').first().waitFor();
      // Only the Sales operator's templates: the Support category is not offered.
      await input.fill('/describe');
      await menu.getByTestId('template-options-empty').waitFor();
      await input.fill('/');
      await menu.getByText('Delivery').waitFor();
      await input.fill('/parcel');
      await menu.getByTestId('template-option').first().waitFor();
      await waitCount(menu.getByTestId('template-option'), 1);
      await screenshot(page, width === 390 ? 'templates-slash-390' : 'templates-slash');
      await assertAccessible(page, `'/' template search at ${width}px`);
      // Escape closes the list and leaves the text; typing on opens it again.
      await input.press('Escape');
      await menu.waitFor({ state: 'hidden' });
      await input.pressSequentially(' ');
      await menu.waitFor();
      await input.fill('/parcel');
      await menu.getByTestId('template-option').first().waitFor();
      await input.press('ArrowDown');
      await input.press('ArrowUp');
      await input.press('Enter');
      await menu.waitFor({ state: 'hidden' });
      assert.equal(await input.inputValue(), 'Hello Wanda Client, your parcel ships today');
      if (width === 390) {
        // The templates button inserts at the cursor too.
        await input.fill('');
        await page.getByTestId('templates-button').click();
        await page.getByTestId('templates-search-input').fill('parcel');
        await page.getByTestId('templates-search-input').press('Enter');
        await assert.doesNotReject(async () => {
          await page.waitForFunction(
            () =>
              (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement | null)
                ?.value === 'Hello Wanda Client, your parcel ships today',
          );
        });
        await input.fill('');
        assertNoErrors(errors);
        continue;
      }
      await input.press('End');
      await input.pressSequentially(' by courier.');
      await input.press('Enter');
      await page.getByTestId('message-list').getByText('your parcel ships today by courier.').waitFor();
      for (let i = 0; i < 50 && !delivered.length; i++) await page.waitForTimeout(100);
      assert.deepEqual(delivered, ['Hello Wanda Client, your parcel ships today by courier.']);
      assertNoErrors(errors);
    }
  });

  test('locked by platform staff, the page says so and offers no changes', async () => {
    const staff = await apiLogin(
      server.url,
      'staff@smartconnect.local',
      server.passwords['staff@smartconnect.local'],
    );
    const me = await apiCall(server.url, 'GET', '/api/organisation', undefined, adminToken);
    const lock = (modifyDenied: string[]) =>
      apiCall(server.url, 'PATCH', `/api/organisations/${me.body.entity.id}`, { modifyDenied }, staff);
    assert.equal((await lock(['TEMPLATE'])).status, 200);
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/templates');
    await page.getByTestId('templates-locked').waitFor();
    await page.getByTestId('template-row').first().waitFor();
    assert.equal(await page.getByTestId('add-template').count(), 0);
    assert.equal(await page.getByTestId('add-category').count(), 0);
    await assertAccessible(page, 'locked templates');
    assert.equal((await lock([])).status, 200);
    assertNoErrors(errors);
  });
});
