import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertAccessible,
  assertNoErrors,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
} from './harness.ts';

let server: TestServer;
let browser: Browser;
let token: string;
let channelId: string;
let inboundKey: string;
let n = 0;

const inbound = (externalId: string, name: string, text: string) =>
  fetch(`${server.url}/api/channels/${channelId}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${inboundKey}` },
    body: JSON.stringify({ externalMessageId: `w-${n++}`, client: { externalId, name }, text }),
  });

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  token = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, token);
  const sales = teams.body.entity.items.find((t: { name: string }) => t.name === 'Sales');
  const ch = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'Shop', teamId: sales.id, webhookUrl: 'http://127.0.0.1:9/none' },
    token,
  );
  assert.equal(ch.status, 200, JSON.stringify(ch.body));
  channelId = ch.body.entity.id;
  inboundKey = ch.body.entity.inboundKey;
  await apiCall(server.url, 'POST', '/api/categories', { name: 'Delivery' }, token);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('workspace lists, side panel, search, create chat, expired', () => {
  test('lists by last activity with unread counts and waiting times; filters; Take moves the list along', async () => {
    for (const [id, name, text] of [
      ['alpha', 'Alpha Client', 'Где мой заказ?'],
      ['bravo', 'Bravo Client', 'I want a refund'],
      ['charlie', 'Charlie Client', 'Hello there'],
    ])
      assert.equal((await inbound(id, name, text)).status, 200);
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, token, '/admin/chats?filter=waiting');
    const rows = page.getByTestId('chat-row');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 3);
    assert.match((await rows.first().textContent()) ?? '', /Charlie/);
    await page.getByTestId('waiting-time').first().waitFor();
    await page.waitForLoadState('networkidle');
    // A new message of the oldest chat moves it up with its unread count, live.
    await inbound('alpha', 'Alpha Client', 'Ау, есть кто-нибудь?');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="chat-row"]')?.textContent?.includes('Alpha'),
    );
    const alpha = rows.filter({ hasText: 'Alpha Client' });
    await alpha.getByTestId('unread').getByText('2').waitFor();
    const before = await alpha.getByTestId('waiting-time').textContent();
    await page.waitForTimeout(1200);
    assert.notEqual(
      await alpha.getByTestId('waiting-time').textContent(),
      before,
      'the waiting time is live',
    );
    await screenshot(page, 'workspace-list-waiting');
    await assertAccessible(page, 'chat list');

    // Quick search filters the list; the URL keeps it.
    await page.getByTestId('quick-search').fill('refund');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-row"]').length === 1);
    assert.match(page.url(), /q=refund/);
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-row"]').length === 3);

    // Opening the chat reads it; the side panel shows the client and the current request.
    await alpha.click();
    await page.getByTestId('client-panel').getByText('Current request').waitFor();
    assert.equal(await alpha.getByTestId('unread').count(), 0);
    await page.getByTestId('client-name').getByText('Alpha Client').waitFor();
    await page.getByTestId('edit-client-name').click();
    const name = page.getByLabel('Profile name');
    await name.fill('A'.repeat(33));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Name specified incorrectly').waitFor();
    await name.fill('Alla Petrova');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('client-name').getByText('Alla Petrova').waitFor();
    await screenshot(page, 'workspace-side-panel');
    await assertAccessible(page, 'side panel');

    // Take: the chat opens In progress and the list follows.
    await page.getByRole('button', { name: 'Take', exact: true }).click();
    await page.waitForURL(/filter=assigned/);
    await rows.filter({ hasText: 'Alla Petrova' }).waitFor();
    assert.deepEqual(
      errors.filter((e) => !/409/.test(e)),
      [],
    );
    await context.close();
  });

  test('extended search marks the match and opens the chat at the message', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, token, `/admin/expanded-search?q=${encodeURIComponent('заказы')}`);
    const hit = page.getByTestId('search-hit').first();
    await hit.waitFor();
    assert.equal(await page.getByTestId('search-match').first().textContent(), 'заказ');
    // No client is named so: the clients column says it.
    await page.getByText('No client found').waitFor();
    await screenshot(page, 'workspace-search');
    await assertAccessible(page, 'extended search');
    await hit.click();
    await page.waitForURL(/\/admin\/chats\?filter=assigned&chat=[0-9a-f-]+&message=[0-9a-f-]+/);
    // The conversation opens at that message, marked for a moment.
    await page.locator('[data-testid="message"][data-found="true"]').getByText('Где мой заказ?').waitFor();
    assertNoErrors(errors);
    await context.close();
  });

  test('a new chat with a known client; the expired list; 390 px and Russian', async () => {
    // Bravo's chat is closed: the create-chat page starts a new one.
    const waiting = await apiCall(server.url, 'GET', '/api/chats?filter=waiting&q=bravo', undefined, token);
    const bravo = waiting.body.entity.items[0];
    await apiCall(server.url, 'POST', `/api/chats/${bravo.id}/take`, undefined, token);
    const cat = await apiCall(server.url, 'GET', '/api/categories', undefined, token);
    const categoryId = (cat.body.entity.items ?? cat.body.entity)[0].id;
    assert.equal(
      (await apiCall(server.url, 'POST', `/api/chats/${bravo.id}/close`, { categoryId }, token)).status,
      200,
    );
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, token, '/admin/chats/create');
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'workspace-create-chat-empty');
    await page.getByRole('button', { name: 'Start the chat' }).click();
    await page.getByText('Please fill in all required fields').first().waitFor();
    await page.getByTestId('client-search').fill('bravo');
    await page.getByRole('option', { name: /Bravo Client/ }).click();
    await page.getByRole('radio', { name: /Shop/ }).waitFor();
    await page.getByTestId('create-chat-text').fill('Your refund is on its way');
    await screenshot(page, 'workspace-create-chat');
    await assertAccessible(page, 'create chat');
    await page.getByRole('button', { name: 'Start the chat' }).click();
    await page.waitForURL(/filter=assigned&chat=/);
    await page.getByTestId('message').getByText('Your refund is on its way').waitFor();
    await page.getByTestId('client-history').getByText('Closed').waitFor();

    await page.goto('/admin/chats/expired');
    await page.getByText('No expired chats').waitFor();
    await screenshot(page, 'workspace-expired');
    await assertAccessible(page, 'expired chats');
    assertNoErrors(errors);
    await context.close();

    const phone = await openPage(browser, server.url, { width: 390 });
    await phone.page.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(phone.page, token, '/admin/chats?filter=waiting');
    await phone.page.getByTestId('chat-row').first().waitFor();
    await phone.page.getByText(/ждёт/).first().waitFor();
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    assert.equal(overflow, false);
    await screenshot(phone.page, 'workspace-list-390-ru');
    await assertAccessible(phone.page, 'chat list at 390 px');
    assertNoErrors(phone.errors);
    await phone.context.close();
  });

  test('a long list is windowed and loads its next cursor pages while scrolling', async () => {
    const many = 130;
    for (let i = 0; i < many; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          inbound(`bulk-${i + j}`, `Bulk ${String(i + j).padStart(3, '0')}`, 'Hi'),
        ),
      );
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, token, '/admin/chats?filter=waiting');
    await page.getByTestId('chat-row').first().waitFor();
    const rendered = () => page.getByTestId('chat-row').count();
    assert.ok((await rendered()) < 30, `only the rows in view are rendered (${await rendered()})`);
    // The oldest chat is on the third page (50 a page): scrolling down loads the pages after it.
    const list = page.getByTestId('chat-list');
    const oldest = page.getByTestId('chat-row').filter({ hasText: 'Bulk 000' });
    for (let i = 0; i < 40 && !(await oldest.count()); i++) {
      await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.waitForTimeout(250);
    }
    await oldest.waitFor();
    assert.ok((await rendered()) < 30, 'still windowed at the end of the list');
    await screenshot(page, 'workspace-list-long');
    assertNoErrors(errors);
    await context.close();
  });
});
