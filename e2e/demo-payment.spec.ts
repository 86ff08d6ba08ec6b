// The built-in demo payment page (issue 19): an installation with no YooKassa shop takes the seeded Demo
// organisation's top-ups on its own page (/admin/finance/demo-payment/{id}; issue 29: no other organisation's), so a
// newcomer can try the whole finance path. The administrator pays one
// top-up and cancels another; the balance, the payments and the result notice follow. Russian at 390 px; axe.
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
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
} from './harness.ts';

let server: TestServer;
let browser: Browser;

before(async () => {
  // No payment provider configured: the seeded Demo organisation (its administrator below) gets the demo page.
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('demo payment page', () => {
  test('without a payment provider: a top-up goes to the demo page; paid, the balance grows; cancelled, nothing', async () => {
    const token = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, token, '/admin/finance');
    const balance = page.getByTestId('balance');
    await balance.waitFor();
    const before = (await balance.textContent()) ?? '';
    const topUp = page.getByTestId('top-up');
    await field(topUp, 'Amount').fill('800');
    await topUp.getByRole('button', { name: 'Go to payment' }).click();
    await page.getByRole('heading', { name: 'Demo payment page' }).waitFor();
    assert.match(page.url(), /\/admin\/finance\/demo-payment\/[0-9a-f-]{36}$/);
    assert.match((await page.getByTestId('demo-amount').textContent()) ?? '', /800/);
    await assertAccessible(page, 'demo payment page');
    await screenshot(page, 'demo-payment-page');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page
      .getByTestId('payment-result')
      .getByText(/received/)
      .waitFor();
    assert.match(page.url(), /\/admin\/finance\/balance\?payment=/);
    await page.waitForFunction((was) => {
      const now = document.querySelector('[data-testid="balance"]')?.textContent ?? '';
      return now !== was && /800/.test(now);
    }, before);

    // A second top-up, cancelled on the page: the notice says so and the balance stays.
    const after = (await balance.textContent()) ?? '';
    await field(topUp, 'Amount').fill('500');
    await topUp.getByRole('button', { name: 'Go to payment' }).click();
    await page.getByRole('heading', { name: 'Demo payment page' }).waitFor();
    await page.getByRole('button', { name: 'Cancel payment' }).click();
    await page
      .getByTestId('payment-result')
      .getByText(/cancelled/)
      .waitFor();
    assert.equal(await balance.textContent(), after);
    await page.getByRole('tab', { name: 'Payments' }).click();
    await page.getByTestId('payments').waitFor();
    const payments = (await page.getByTestId('payments').textContent()) ?? '';
    assert.match(payments, /800\.00/);
    assert.match(payments, /cancelled/);
    assertNoErrors(errors);
    await context.close();
  });

  test('in Russian at 390 px; a payment not waiting there leads to the not-found page', async () => {
    const token = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
    const started = await apiCall(server.url, 'POST', '/api/finance/top-up', { amount: 650 }, token);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const path = new URL(started.body.entity.confirmationUrl).pathname;
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, token, path);
    await page.getByRole('heading', { name: 'Демонстрационная страница оплаты' }).waitFor();
    await page.getByRole('button', { name: /^Оплатить / }).waitFor();
    await page.getByRole('button', { name: 'Отменить платёж' }).waitFor();
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'no horizontal overflow',
    );
    await assertAccessible(page, 'demo payment 390 ru');
    await screenshot(page, 'demo-payment-page-390-ru');
    // A payment that is not waiting here: §8's not-found page, as for any screen.
    await page.goto('/admin/finance/demo-payment/01234567-89ab-7def-8123-456789abcdef');
    await page.waitForURL('**/not-found');
    // The refused load is the API's expected 404, not a page error.
    assertNoErrors(errors, /404/);
    await context.close();
  });
});
