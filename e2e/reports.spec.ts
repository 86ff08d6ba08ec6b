import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
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
  // The operator goes In work: the summary and working time show their online time at once.
  const presence = await apiCall(server.url, 'PATCH', '/api/presence', { status: 'online' }, operatorToken);
  assert.equal(presence.status, 200, JSON.stringify(presence.body));
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The first series' colour of the report charts (Mantine blue 7, #1c7ed6). */
const BLUE: [number, number, number] = [28, 126, 214];

/**
 * Waits until the chart `testId` has painted its canvas; with `rgb`, until more pixels of that series colour show than
 * its legend icon alone would paint (a line or bar of it is drawn).
 */
async function drawn(page: Page, testId: string, rgb?: [number, number, number]) {
  const chart = page.getByTestId(testId);
  await chart.locator('canvas').first().waitFor();
  assert.ok(await chart.getAttribute('aria-label'), `${testId} has a name`);
  await page.waitForFunction(
    ([id, colour]) => {
      const canvas = document.querySelector(`[data-testid="${id}"] canvas`) as HTMLCanvasElement | null;
      const ctx = canvas?.getContext('2d');
      if (!canvas || !ctx || !canvas.width) return false;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] === 0) continue;
        if (!colour || colour.every((c, k) => Math.abs(data[i + k] - c) < 12)) ink++;
      }
      return ink > (colour ? 600 : 2000);
    },
    [testId, rgb ?? null] as const,
  );
}

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
    // The trend charts above the table: drawn, not only placed.
    await drawn(page, 'dialogs-chart', BLUE);
    // Nobody answered yet today: no times to draw, so that chart is left out.
    assert.equal(await page.getByTestId('times-chart').count(), 0);
    // The ratings 1-5 distribution: one column each, with a readable header.
    for (const score of [1, 2, 3, 4, 5])
      await page.getByRole('columnheader', { name: `Rated ${score} of 5` }).waitFor();
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
    // The operator is In work since the suite began, so today's dialogs may already be routed to them.
    await page.getByTestId('dialogs-report').or(page.getByText('Нет данных за период')).first().waitFor();
    await page.getByRole('textbox', { name: 'Период' }).click();
    await page.getByRole('option', { name: 'Произвольная дата' }).click();
    await page.getByLabel('Дата').fill('2001-01-01');
    await page.getByText('Нет данных за период').waitFor();
    await assertAccessible(page, 'own report');
    await page.goto('/admin/reports/dialogs');
    await page.waitForURL(/no-rights/);
    assertNoErrors(errors);
    await context.close();
  });

  test('every report tab renders; the period is shared across tabs; the summary downloads as CSV and XLSX', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/reports');
    await page.getByRole('heading', { name: 'Summary report' }).waitFor();
    const period = page.getByRole('textbox', { name: 'Period' });
    await period.click();
    await page.getByRole('option', { name: 'Today' }).click();
    await page.getByTestId('summary-table').waitFor();
    await page.getByRole('cell', { name: 'Operator' }).first().waitFor();
    await assertAccessible(page, 'summary report');
    await screenshot(page, 'reports-summary');

    // The download is exactly the rows of the table.
    const tableRows = await page.getByTestId('summary-table').locator('tbody tr').count();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-csv').click(),
    ]);
    assert.match(csv.suggestedFilename(), /^summary-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await csv.path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = text.trimEnd().split('\r\n');
    assert.equal(lines[0], 'Type,Name,Online time,Break time,Dialogs,Accepted messages,Missed messages');
    assert.equal(lines.length - 1, tableRows);
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-xlsx').click(),
    ]);
    assert.match(xlsx.suggestedFilename(), /\.xlsx$/);
    assert.equal(
      readFileSync(await xlsx.path())
        .subarray(0, 2)
        .toString(),
      'PK',
    );

    // An arbitrary date with nothing in it: 'No data for period', kept when moving to another tab.
    await period.click();
    await page.getByRole('option', { name: 'Arbitrary date' }).click();
    await page.getByLabel('Date').fill('2001-01-01');
    await page.getByText('No data for period').waitFor();
    await page.getByRole('tab', { name: 'Communication channels' }).click();
    await page.getByRole('heading', { name: 'Communication channels' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Period' }).inputValue(), 'Arbitrary date');
    await page.getByText('No data for period').waitFor();
    await period.click();
    await page.getByRole('option', { name: 'Today' }).click();

    for (const [tab, testId] of [
      ['Communication channels', 'channels-report'],
      ['Employees', 'employees-report'],
      ['Teams', 'teams-report'],
      ['Working time', 'time-report'],
      ['Mailings', null],
      ['Inquiry categories', null],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('heading', { name: tab }).waitFor();
      // The dialogs of today show once the rollups fold them (a few seconds); the categories of today are none.
      for (let i = 0; testId && i < 20; i++) {
        if (await page.getByTestId(testId).isVisible()) break;
        await page.waitForTimeout(1000);
        await page.reload();
        await page.getByRole('heading', { name: tab }).waitFor();
      }
      if (testId) await page.getByTestId(testId).waitFor();
      else await page.getByText('No data for period').waitFor();
      // Today's dialogs came through the channels: their bars are drawn. Employees and teams may have none yet (a
      // chart of zeros is left out); when there, it is drawn.
      if (testId === 'channels-report') await drawn(page, 'channels-chart', BLUE);
      else if (
        testId &&
        testId !== 'time-report' &&
        (await page.getByTestId(testId.replace('-report', '-chart')).count())
      )
        await drawn(page, testId.replace('-report', '-chart'));
      if (testId && testId !== 'time-report')
        for (const score of [1, 5])
          await page
            .getByTestId(testId)
            .getByRole('columnheader', { name: `Rated ${score} of 5` })
            .waitFor();
      await assertAccessible(page, `report ${tab}`);
      await screenshot(page, `reports-${tab.toLowerCase().replaceAll(' ', '-')}`);
    }
    await page.getByTestId('include-without-category').click();
    await page.getByRole('tab', { name: 'Working time' }).click();
    await drawn(page, 'working-time-chart');
    await screenshot(page, 'reports-time');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(500);
    await screenshot(page, 'reports-time-390');
    await page.getByRole('tab', { name: 'Summary report' }).click();
    await page.getByTestId('summary-table').waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'reports-summary-390');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(overflow, false, 'no horizontal page scroll at 390 px');
    assertNoErrors(errors);
    await context.close();
  });

  test("the administrator sets the organisation's time zone in Preferences; reports count in it; Russian texts", async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences');
    await page.getByRole('link', { name: 'Organisation' }).click();
    await page.getByRole('heading', { name: 'Organisation settings' }).waitFor();
    const zone = page.getByRole('textbox', { name: 'Time zone' });
    assert.match(await zone.inputValue(), /^Europe\/Moscow \(UTC\+03:00\)$/);
    await assertAccessible(page, 'organisation settings');
    // Searchable: typing part of a city narrows the list.
    await zone.click();
    await zone.fill('London');
    await page.getByRole('option', { name: /^Europe\/London \(UTC/ }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Organisation settings saved').waitFor();
    await screenshot(page, 'preferences-organisation');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await screenshot(page, 'preferences-organisation-390');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(overflow, false, 'no horizontal page scroll at 390 px');
    await page.setViewportSize({ width: 1440, height: 900 });
    // Reports now count days in London.
    await page.goto('/admin/reports/dialogs');
    await page.getByText('Time zone: Europe/London').first().waitFor();

    // In Russian: the settings page and the ratings headers of a report table.
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await page.goto('/admin/preferences/organisation');
    await page.getByRole('heading', { name: 'Настройки организации' }).waitFor();
    await page.getByRole('textbox', { name: 'Часовой пояс' }).waitFor();
    await assertAccessible(page, 'organisation settings (ru)');
    await page.goto('/admin/reports/teams');
    await page.getByRole('textbox', { name: 'Период' }).click();
    await page.getByRole('option', { name: 'Сегодня' }).click();
    for (let i = 0; i < 20 && !(await page.getByTestId('teams-report').isVisible()); i++)
      await page.waitForTimeout(500);
    for (const score of [1, 5])
      await page.getByRole('columnheader', { name: `Оценка ${score} из 5` }).waitFor();
    await page.evaluate(() => localStorage.removeItem('sc-lang'));
    const back = await apiCall(
      server.url,
      'PATCH',
      '/api/organisation',
      { timeZone: 'Europe/Moscow' },
      adminToken,
    );
    assert.equal(back.status, 200);
    assertNoErrors(errors);
    await context.close();

    // An operator has no such page: the menu lacks it and the address leads to the no-rights screen.
    const op = await openPage(browser, server.url);
    await signIn(op.page, operatorToken, '/admin/preferences/organisation');
    await op.page.waitForURL(/no-rights/);
    const refused = await apiCall(
      server.url,
      'PATCH',
      '/api/organisation',
      { timeZone: 'UTC' },
      operatorToken,
    );
    assert.equal(refused.status, 403);
    await op.context.close();
  });
});
