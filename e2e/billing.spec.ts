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
    await fieldError(topUp, 'Amount', 'invalid amount (min 500)');
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
});
