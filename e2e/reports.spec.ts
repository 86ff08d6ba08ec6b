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
let adminToken: string;
let operatorToken: string;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  operatorToken = await apiLogin(
    server.url,
    'operator1@demo.local',
    server.passwords['operator1@demo.local'],
  );
  // Two new dialogs today through an API channel of the Sales team.
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
  const sales = teams.body.entity.items.find((t: { name: string }) => t.name === 'Sales');
  const channel = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'Reports API', teamId: sales.id, webhookUrl: 'http://127.0.0.1:9/hook' },
    adminToken,
  );
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
  const { id, inboundKey } = channel.body.entity;
  for (const client of ['r-1', 'r-2']) {
    const res = await fetch(`${server.url}/api/channels/${id}/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${inboundKey}` },
      body: JSON.stringify({
        externalMessageId: `m-${client}`,
        client: { externalId: client, name: client },
        text: 'Hi',
      }),
    });
    assert.equal(res.status, 200);
  }
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('reports', () => {
  test('the Dialogs tab: the period dropdown, an empty date, today once the rollups caught up, 390 px', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/reports/dialogs');
    await page.getByRole('heading', { name: 'Dialogs' }).waitFor();
    const period = page.getByRole('textbox', { name: 'Period' });
    await period.click();
    for (const name of [
      'Today',
      'Yesterday',
      'Last 7 days',
      'Last 30 days',
      'Arbitrary period',
      'Arbitrary date',
    ])
      await page.getByRole('option', { name }).waitFor();
    await page.getByRole('option', { name: 'Arbitrary date' }).click();
    await page.getByTestId('report-needs-period').waitFor();
    await page.getByLabel('Date').fill('2001-01-01');
    await page.getByText('No data for period').waitFor();
    await assertAccessible(page, 'reports dialogs (empty)');

    await period.click();
    await page.getByRole('option', { name: 'Today' }).click();
    // The rollups fold rows a few seconds old: reload until today's dialogs show.
    for (let i = 0; i < 30; i++) {
      const n = await page
        .getByTestId('total-dialogsNew')
        .textContent({ timeout: 1000 })
        .catch(() => null);
      if (n && Number(n.replace(/\D/g, '')) >= 2) break;
      await page.waitForTimeout(1000);
      await page.reload();
      await page.getByRole('heading', { name: 'Dialogs' }).waitFor();
      await page.getByRole('textbox', { name: 'Period' }).click();
      await page.getByRole('option', { name: 'Today' }).click();
    }
    const total = await page.getByTestId('total-dialogsNew').textContent();
    assert.ok(Number(total?.replace(/\D/g, '')) >= 2, String(total));
    await page.getByTestId('dialogs-series').waitFor();
    await assertAccessible(page, 'reports dialogs');
    await screenshot(page, 'reports-dialogs');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('dialogs-report').waitFor();
    // Let the layout settle after the resize (the tabs wrap, the grid reflows).
    await page.waitForTimeout(500);
    await screenshot(page, 'reports-dialogs-390');
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 5)
        .map((e) => `${e.tagName}.${e.className}`.slice(0, 80)),
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(overflow, false, `no horizontal page scroll at 390 px: ${wide.join(' | ')}`);
    assertNoErrors(errors);
    await context.close();
  });

  test('an operator sees their own statistics on /report and no Dialogs tab; Russian texts', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await page.goto('/not-found');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, operatorToken, '/admin/reports');
    await page.getByRole('heading', { name: 'Моя статистика' }).waitFor();
    await page.getByText('Нет данных за период').waitFor();
    await assertAccessible(page, 'own report');
    await page.goto('/admin/reports/dialogs');
    await page.waitForURL(/no-rights/);
    assertNoErrors(errors);
    await context.close();
  });
});
