// Issue 36 polish: the first-run checklist on the empty chat center, finance in Russian (the tariff of the Demo
// organisation, the platform's notes translated, short transaction ids, the too-small top-up), the add-user form's
// phone as sign-up takes it and the duplicate e-mail as a field error, the client card's dialogs and files.
// axe and screenshots at 1440 and 390 px.
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
let token: string;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  token = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('issue 36 polish', () => {
  test('the first-run checklist on the empty chat center: ticked items, links, dismissed for good', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, token, '/admin/chats');
    const list = page.getByTestId('first-run');
    await list.waitFor();
    // The Demo organisation has its website chat and four people; nobody tried the widget yet.
    assert.equal(await list.getByTestId('first-run-channel').getAttribute('data-done'), 'true');
    assert.equal(await list.getByTestId('first-run-colleague').getAttribute('data-done'), 'true');
    assert.equal(await list.getByTestId('first-run-widget').getAttribute('data-done'), 'false');
    assert.match(
      (await list.getByRole('link', { name: 'Try the website chat as a visitor' }).getAttribute('href')) ??
        '',
      /^\/widget-preview\/[0-9a-f-]{36}$/,
    );
    assert.equal(
      await list.getByRole('link', { name: 'Connect a channel' }).getAttribute('href'),
      '/admin/preferences/channels',
    );
    await assertAccessible(page, 'first-run checklist');
    await screenshot(page, 'polish-first-run', { toasts: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await assertAccessible(page, 'first-run checklist 390');
    await screenshot(page, 'polish-first-run-390', { toasts: false });
    await page.setViewportSize({ width: 1440, height: 900 });
    await list.getByRole('button', { name: 'Hide the checklist' }).click();
    await list.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByText('Select a conversation to start answering').first().waitFor();
    assert.equal(await page.getByTestId('first-run').count(), 0);
    assertNoErrors(errors);
    await context.close();
  });

  test('finance in Russian: the Demo tariff is named, the notes translated, ids short, the too-small top-up a sentence', async () => {
    const top = await apiCall(server.url, 'POST', '/api/finance/top-up', { amount: 600 }, token);
    assert.equal(top.status, 200, JSON.stringify(top.body));
    const { page, errors, context } = await openPage(browser, server.url);
    await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, token, '/admin/finance');
    await page.getByTestId('balance').waitFor();
    assert.equal((await page.getByTestId('tariff').textContent())?.trim(), 'Extended');
    assert.equal(await page.getByText('Без тарифа').count(), 0);
    const topUp = page.getByTestId('top-up');
    await field(topUp, 'Сумма').fill('499');
    await topUp.getByRole('button', { name: 'Перейти к оплате' }).click();
    await fieldError(topUp, 'Сумма', 'Неверная сумма: минимальное пополнение — 500 ₽');
    await assertAccessible(page, 'finance ru');
    await screenshot(page, 'polish-finance-ru', { toasts: false });
    await page.goto('/admin/finance/payments');
    const payments = page.getByTestId('payments');
    await payments.waitFor();
    const text = (await payments.textContent()) ?? '';
    assert.match(text, /Пополнение баланса/);
    assert.doesNotMatch(text, /Top-up/);
    assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-/, 'no raw ids');
    assert.match(text, /…[0-9A-F]{8}/);
    await assertAccessible(page, 'payments ru');
    await screenshot(page, 'polish-payments-ru', { toasts: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await assertAccessible(page, 'payments ru 390');
    await screenshot(page, 'polish-payments-ru-390', { toasts: false });
    assertNoErrors(errors);
    await context.close();
  });

  test('add user: the phone as sign-up takes it is stored in §3 form; a duplicate e-mail is a field error', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, token, '/admin/users/edit');
    const fill = async (email: string, phone: string) => {
      await field(page, 'Name').fill('Pavel Phone');
      await field(page, 'Email').fill(email);
      await field(page, 'Phone').fill(phone);
      await field(page, 'Role').click();
      await page.getByRole('option', { name: 'Operator' }).click();
      await field(page, 'Password').fill('Pavel#Pass1');
      await field(page, 'Repeat password').fill('Pavel#Pass1');
      await page.getByRole('button', { name: 'Create' }).click();
    };
    await fill('operator2@demo.local', '+7 999 123-45-67');
    await fieldError(page, 'Email', 'Email already exists');
    await assertAccessible(page, 'add user duplicate e-mail');
    await screenshot(page, 'polish-user-duplicate-email', { toasts: false });
    await field(page, 'Email').fill('pavel@demo.local');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/admin/users/all');
    const users = await apiCall(server.url, 'GET', '/api/users?search=Pavel', undefined, token);
    assert.equal(users.body.entity.items[0].phone, '79991234567');
    assertNoErrors(errors, /409/);
    await context.close();
  });

  test("the client card: the client's dialogs open read-only in place; the files section", async () => {
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, token);
    const list = Array.isArray(teams.body.entity) ? teams.body.entity : teams.body.entity.items;
    const sales = list.find((t: { name: string }) => t.name === 'Sales');
    const ch = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      { type: 'api', name: 'Card API', teamId: sales.id, webhookUrl: 'http://127.0.0.1:9/none' },
      token,
    );
    assert.equal(ch.status, 200, JSON.stringify(ch.body));
    const res = await fetch(`${server.url}/api/channels/${ch.body.entity.id}/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ch.body.entity.inboundKey}` },
      body: JSON.stringify({
        externalMessageId: 'card-1',
        client: { externalId: 'card-client', name: 'Carla Card' },
        text: 'Where is my parcel?',
      }),
    });
    assert.equal(res.status, 200);
    const chatId = ((await res.json()) as { entity: { chatId: string } }).entity.chatId;
    const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, token);
    const clientId = chat.body.entity.client.id;
    const { page, errors, context } = await openPage(browser, server.url);
    // Before any file: the section says so.
    await signIn(page, token, `/admin/clients/${clientId}`);
    await page.getByText('No files yet').waitFor();
    // The administrator takes the chat and sends the client a picture: the card lists it, downloadable.
    assert.equal(
      (await apiCall(server.url, 'POST', `/api/chats/${chatId}/take`, undefined, token)).status,
      200,
    );
    const form = new FormData();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    form.append('file', new Blob([png], { type: 'image/png' }), 'parcel-label.png');
    const uploaded = await fetch(`${server.url}/api/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    assert.equal(uploaded.status, 200);
    const attachment = ((await uploaded.json()) as { entity: unknown }).entity;
    const sent = await apiCall(
      server.url,
      'POST',
      `/api/chats/${chatId}/messages`,
      { text: 'Your parcel label', attachments: [attachment] },
      token,
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await page.reload();
    const dialogs = page.getByTestId('client-history');
    await dialogs.waitFor();
    await dialogs.getByRole('button', { name: /^Open the earlier conversation on Card API/ }).click();
    await page.getByRole('dialog').getByText('Where is my parcel?').waitFor();
    await page.keyboard.press('Escape');
    const files = page.getByTestId('client-files');
    await files.getByRole('link', { name: 'parcel-label.png' }).waitFor();
    await files.getByTestId('file-size').waitFor();
    await assertAccessible(page, 'client card');
    await screenshot(page, 'polish-client-card', { toasts: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await assertAccessible(page, 'client card 390');
    await screenshot(page, 'polish-client-card-390', { toasts: false });
    assertNoErrors(errors);
    await context.close();
  });
});
