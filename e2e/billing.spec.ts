// Organisations, plans and finance (issue 19): platform staff create an organisation on a tariff and extend it
// (Preferences -> Companies), look at Preferences -> Plans; an administrator opens Finance, is refused a top-up
// below 500, tops up through the (fake) YooKassa payment page and comes back to a credited balance, a payment and
// its documents. axe and screenshots at 1440 and 390 px.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type FakeYooKassa, startFakeYooKassa } from '../server/test/fakes/yookassa.ts';
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
let yk: FakeYooKassa;

before(async () => {
  yk = await startFakeYooKassa();
  server = await startServer({ env: yk.env });
  yk.webhookUrl = `${server.url}/api/finance/yookassa/notifications`;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await yk?.close();
});

const STAFF = 'staff@smartconnect.local';

describe('billing', () => {
  test('staff create an organisation on a tariff and extend it; the plans page', async () => {
    const token = await apiLogin(server.url, STAFF, server.passwords[STAFF]);
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, token, '/admin/preferences/companies');
    await page.getByRole('heading', { name: 'Organizations', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'New organisation' }).click();
    const form = page.getByTestId('company-form');
    await form.getByRole('button', { name: 'Create' }).click();
    await fieldError(form, 'Login', 'Login specified incorrectly');
    await field(form, 'Login').fill('acme');
    await field(form, 'Name').fill('Acme Ltd');
    await field(form, 'Administrator email').fill('boss@acme.test');
    await field(form, 'Tariff').click();
    await page.getByRole('option', { name: /^Basic/ }).click();
    await form.getByRole('button', { name: 'Create' }).click();
    const row = page.getByTestId('company-acme');
    await row.waitFor();
    const before = (await row.getByTestId('paid-until').textContent()) ?? '';
    await row.getByRole('button', { name: 'Extend 14 days' }).click();
    await page.getByText('Tariff extended by 14 days').waitFor();
    await page.waitForFunction(
      (b) =>
        document.querySelector('[data-testid="company-acme"] [data-testid="paid-until"]')?.textContent !== b,
      before,
    );
    const orgs = await apiCall(server.url, 'GET', '/api/organisations', undefined, token);
    const acme = orgs.body.entity.items.find((o: { login: string }) => o.login === 'acme');
    const trialEnd = new Date(Date.now() + 6 * 86_400_000);
    assert.equal(acme.paidUntil, new Date(trialEnd.getTime() + 14 * 86_400_000).toISOString().slice(0, 10));
    assert.equal(acme.tariffName, 'Basic');
    // The invitation link went to the log (no SMTP here).
    await server.waitForLog(/(\/restore\?token=\S+)/);
    await assertAccessible(page, 'companies');
    await screenshot(page, 'billing-companies', { toasts: false });
    await page.goto('/admin/preferences/plans');
    await page.getByTestId('plans').waitFor();
    await page.getByRole('button', { name: 'Edit' }).last().click();
    await page.getByRole('dialog').getByLabel('Enhanced statistics').waitFor();
    await page.waitForTimeout(400);
    await assertAccessible(page, 'plans drawer');
    await screenshot(page, 'billing-plans-drawer');
    await page.keyboard.press('Escape');
    await assertAccessible(page, 'plans');
    await screenshot(page, 'billing-plans');
    await page.setViewportSize({ width: 390, height: 844 });
    await assertAccessible(page, 'plans 390');
    await screenshot(page, 'billing-plans-390');
    await page.goto('/admin/preferences/companies');
    await page.getByTestId('companies').waitFor();
    await assertAccessible(page, 'companies 390');
    await screenshot(page, 'billing-companies-390');
    assertNoErrors(errors);
    await context.close();
  });

  test('an administrator tops up through the payment page and comes back to the credited balance', async () => {
    const token = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
    const { page, errors, context } = await openPage(browser, server.url);
    // The provider's pages go to the provider as they are: the harness's CSP route would fetch them itself and
    // follow the payment page's redirect back to us inside that fetch.
    await context.route(
      (u) => u.origin === yk.baseUrl,
      (route) => route.continue(),
    );
    await signIn(page, token, '/admin/finance');
    await page.getByTestId('balance').waitFor();
    await assertAccessible(page, 'finance balance');
    await screenshot(page, 'billing-finance-balance');
    const topUp = page.getByTestId('top-up');
    await field(topUp, 'Amount').fill('499');
    await topUp.getByRole('button', { name: 'Go to payment' }).click();
    await fieldError(topUp, 'Amount', 'Invalid amount: the minimum top-up is 500 ₽');
    await field(topUp, 'Amount').fill('1500');
    await topUp.getByRole('button', { name: 'Go to payment' }).click();
    await page.getByRole('heading', { name: 'Payment of 1500.00 RUB' }).waitFor();
    assert.ok(page.url().startsWith(`${yk.baseUrl}/checkout/`), page.url());
    await screenshot(page, 'billing-fake-payment-page');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page
      .getByTestId('payment-result')
      .getByText(/received/)
      .waitFor();
    assert.match(page.url(), /\/admin\/finance\/balance\?payment=/);
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="balance"]')?.textContent?.includes('1,500'),
    );
    await screenshot(page, 'billing-finance-returned', { toasts: false });
    await page.getByRole('tab', { name: 'Payments' }).click();
    await page.getByTestId('payments').waitFor();
    assert.match((await page.getByTestId('payments').textContent()) ?? '', /1500\.00/);
    await assertAccessible(page, 'payments');
    await screenshot(page, 'billing-finance-payments');
    await page.goto('/admin/finance/billing');
    await page.getByTestId('documents').waitFor();
    const docs = (await page.getByTestId('documents').textContent()) ?? '';
    for (const kind of ['Invoice', 'Act', 'Factura']) assert.match(docs, new RegExp(kind));
    await assertAccessible(page, 'billing documents');
    await screenshot(page, 'billing-finance-documents');
    await page.setViewportSize({ width: 390, height: 844 });
    await assertAccessible(page, 'documents 390');
    await screenshot(page, 'billing-finance-documents-390');
    await page.goto('/admin/finance/balance');
    await page.getByTestId('balance').waitFor();
    await assertAccessible(page, 'balance 390');
    await screenshot(page, 'billing-finance-balance-390');
    assertNoErrors(errors);
    await context.close();
  });

  test('in Russian: the finance screens, the top-up field error and the end-of-paid-days banner, at 1440 and 390 px', async () => {
    // The Demo organisation's paid days end the day after tomorrow: its administrator is warned in the shell.
    const staff = await apiLogin(server.url, STAFF, server.passwords[STAFF]);
    const orgs = await apiCall(server.url, 'GET', '/api/organisations', undefined, staff);
    const demo = orgs.body.entity.items.find((o: { login: string }) => o.login === 'demo');
    const ends = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    assert.equal(
      (await apiCall(server.url, 'PATCH', `/api/organisations/${demo.id}`, { paidUntil: ends }, staff))
        .status,
      200,
    );
    try {
      const token = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
      const { page, errors, context } = await openPage(browser, server.url);
      await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
      await signIn(page, token, '/admin/finance');
      await page.getByTestId('balance').waitFor();
      await page.getByRole('tab', { name: 'Баланс' }).waitFor();
      const banner = page.getByTestId('billing-banner');
      const date = new Date(`${ends}T00:00:00Z`).toLocaleDateString('ru-RU', {
        timeZone: 'UTC',
        dateStyle: 'medium',
      });
      assert.equal(
        await banner.getByText(`Оплаченный период заканчивается ${date} —`, { exact: false }).count(),
        1,
      );
      assert.equal(
        await banner.getByRole('link', { name: 'Пополнить' }).getAttribute('href'),
        '/admin/finance/balance',
      );
      await assertAccessible(page, 'finance balance ru');
      const topUp = page.getByTestId('top-up');
      await field(topUp, 'Сумма').fill('499');
      await topUp.getByRole('button', { name: 'Перейти к оплате' }).click();
      await fieldError(topUp, 'Сумма', 'Неверная сумма: минимальное пополнение — 500 ₽');
      await screenshot(page, 'billing-ru-balance');
      await page.getByRole('tab', { name: 'Платежи' }).click();
      await page.getByTestId('payments').waitFor();
      const payments = (await page.getByTestId('payments').textContent()) ?? '';
      for (const text of ['ID транзакции', 'Пополнение', '1500.00']) assert.ok(payments.includes(text), text);
      await assertAccessible(page, 'payments ru');
      await screenshot(page, 'billing-ru-payments');
      await page.getByRole('tab', { name: 'Счета' }).click();
      await page.getByTestId('documents').waitFor();
      const docs = (await page.getByTestId('documents').textContent()) ?? '';
      for (const text of ['Счёт-фактура', 'Акт', 'Оплачен']) assert.ok(docs.includes(text), text);
      await assertAccessible(page, 'documents ru');
      await screenshot(page, 'billing-ru-documents');
      await page.setViewportSize({ width: 390, height: 844 });
      await assertAccessible(page, 'documents ru 390');
      await screenshot(page, 'billing-ru-documents-390');
      await page.getByRole('tab', { name: 'Платежи' }).click();
      await page.getByTestId('payments').waitFor();
      await screenshot(page, 'billing-ru-payments-390');
      await page.getByRole('tab', { name: 'Баланс' }).click();
      await page.getByTestId('balance').waitFor();
      await assertAccessible(page, 'balance ru 390');
      await field(page.getByTestId('top-up'), 'Сумма').fill('100');
      await page.getByTestId('top-up').getByRole('button', { name: 'Перейти к оплате' }).click();
      await fieldError(page.getByTestId('top-up'), 'Сумма', 'Неверная сумма: минимальное пополнение — 500 ₽');
      await screenshot(page, 'billing-ru-balance-390');
      assertNoErrors(errors);
      await context.close();
    } finally {
      await apiCall(server.url, 'PATCH', `/api/organisations/${demo.id}`, { paidUntil: null }, staff);
    }
  });

  test('suspended for non-payment: the shell says why and leads to the top-up; a staff edit that pays lifts it', async () => {
    // Paid days over yesterday and nothing on the balance: the next daily run (once a minute) suspends the Demo.
    const staff = await apiLogin(server.url, STAFF, server.passwords[STAFF]);
    const orgs = await apiCall(server.url, 'GET', '/api/organisations', undefined, staff);
    const demo = orgs.body.entity.items.find((o: { login: string }) => o.login === 'demo');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const patch = (body: Record<string, unknown>) =>
      apiCall(server.url, 'PATCH', `/api/organisations/${demo.id}`, body, staff);
    assert.equal((await patch({ paidUntil: yesterday, balance: 0 })).status, 200);
    const suspended = async () =>
      (await apiCall(server.url, 'GET', '/api/organisations', undefined, staff)).body.entity.items.find(
        (o: { id: string }) => o.id === demo.id,
      ).suspended as boolean;
    try {
      const deadline = Date.now() + 100_000;
      while (!(await suspended())) {
        assert.ok(Date.now() < deadline, 'the daily run suspends the organisation within a minute or two');
        await new Promise((r) => setTimeout(r, 1000));
      }
      const token = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
      const { page, errors, context } = await openPage(browser, server.url);
      await signIn(page, token, '/admin/chats');
      const banner = page.getByRole('alert').filter({ hasText: 'suspended for non-payment' });
      await banner.waitFor();
      assert.equal(await banner.getAttribute('data-testid'), 'billing-banner');
      await banner.getByRole('link', { name: 'Top up' }).click();
      await page.getByTestId('balance').waitFor();
      await assertAccessible(page, 'suspended banner');
      await screenshot(page, 'billing-suspended');
      assertNoErrors(errors);
      await context.close();
    } finally {
      // A staff edit that makes the days paid again lifts the suspension at once.
      const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      assert.equal((await patch({ paidUntil: until, balance: 1500 })).status, 200);
      assert.equal(await suspended(), false);
      await patch({ paidUntil: null });
    }
  });
});
