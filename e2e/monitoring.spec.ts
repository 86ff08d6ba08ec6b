import assert from 'node:assert/strict';
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
  waitFor,
} from './harness.ts';

let server: TestServer;
let browser: Browser;
let adminToken: string;
let operatorToken: string;
let channelId: string;
let chatId: string;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  operatorToken = await apiLogin(
    server.url,
    'operator1@demo.local',
    server.passwords['operator1@demo.local'],
  );
  const me = await apiCall(server.url, 'GET', '/api/auth/user', undefined, operatorToken);
  // A team of operator 1 that hands nothing out by itself, so the chat waits until someone takes it.
  const team = await apiCall(
    server.url,
    'POST',
    '/api/teams',
    {
      name: 'Monitoring desk',
      description: 'Watched live',
      distributionMethod: 'manual',
      dialogLimit: 4,
      memberIds: [me.body.entity.id],
    },
    adminToken,
  );
  assert.equal(team.status, 200, JSON.stringify(team.body));
  const channel = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'Monitor API', teamId: team.body.entity.id, webhookUrl: 'http://127.0.0.1:9/hook' },
    adminToken,
  );
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
  channelId = channel.body.entity.id;
  const res = await fetch(`${server.url}/api/channels/${channelId}/inbound`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${channel.body.entity.inboundKey}`,
    },
    body: JSON.stringify({
      externalMessageId: 'mon-1',
      client: { externalId: 'mon-1', name: 'Mona Waiting' },
      text: 'Is anyone there?',
    }),
  });
  assert.equal(res.status, 200);
  chatId = ((await res.json()) as { entity: { chatId: string } }).entity.chatId;
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const cell = (page: Page, testId: string, rowId: string, col: string) =>
  page.getByTestId(testId).locator(`tr[data-row-id="${rowId}"] td[data-col="${col}"]`);
const headings = (page: Page, testId: string) =>
  page.getByTestId(testId).locator('thead th').allTextContents();

describe('monitoring', () => {
  test('the channels table updates live as an operator takes the chat in another browser', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/monitoring');
    await page.waitForURL(/\/admin\/monitoring\/channels$/);
    await page.getByTestId('monitoring-live').and(page.locator('[data-live="true"]')).waitFor();
    await waitFor(
      async () =>
        (await cell(page, 'monitoring-channels', channelId, 'waiting').textContent()) === '1' || undefined,
    );
    assert.equal(await cell(page, 'monitoring-channels', channelId, 'inProgress').textContent(), '0');
    assert.match(
      (await cell(page, 'monitoring-channels', channelId, 'longestWait').textContent()) ?? '',
      /^\d+ sec$|^\d+ min/,
    );
    await assertAccessible(page, 'monitoring channels');
    await screenshot(page, 'monitoring-channels', { toasts: false });

    // Operator 1, in a browser of their own, takes the chat from Waiting.
    const op = await openPage(browser, server.url);
    await signIn(op.page, operatorToken, `/admin/chats?filter=waiting&chat=${chatId}`);
    await op.page.getByRole('button', { name: 'Take', exact: true }).click();
    await op.page.waitForURL(/filter=assigned/);

    // The monitor's table follows without a reload.
    await cell(page, 'monitoring-channels', channelId, 'inProgress').filter({ hasText: /^1$/ }).waitFor();
    assert.equal(await cell(page, 'monitoring-channels', channelId, 'waiting').textContent(), '0');
    assert.equal(await cell(page, 'monitoring-channels', channelId, 'longestWait').textContent(), '—');

    await page.getByRole('tab', { name: 'Operators' }).click();
    await page.getByTestId('monitoring-operators').waitFor();
    const row = page.getByTestId('monitoring-operators').locator('tr', { hasText: 'Oleg' }).first();
    await row.locator('td[data-col="status"]', { hasText: 'In work' }).waitFor();
    await row.locator('td[data-col="load"]', { hasText: /^1 of \d+$/ }).waitFor();
    await assertAccessible(page, 'monitoring operators');
    await screenshot(page, 'monitoring-operators', { toasts: false });

    await page.getByRole('tab', { name: 'Clients' }).click();
    await page.getByText('Nobody is waiting').waitFor();
    await screenshot(page, 'monitoring-abonents-empty', { toasts: false });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Teams' }).click();
    await page.getByTestId('monitoring-teams').waitFor();
    await page.waitForTimeout(500);
    await assertAccessible(page, 'monitoring teams 390');
    await screenshot(page, 'monitoring-teams-390', { toasts: false });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(overflow, false, 'no horizontal page scroll at 390 px');
    assertNoErrors(errors);
    assertNoErrors(op.errors);
    await op.context.close();
    await context.close();
  });

  test('column settings: hide and reorder from the keyboard; kept after a reload', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/monitoring/channels');
    await page.getByTestId('monitoring-channels').waitFor();
    assert.deepEqual(await headings(page, 'monitoring-channels'), [
      'Name',
      'Type',
      'Team',
      'Waiting',
      'In progress',
      'Longest wait',
    ]);
    await page.getByTestId('monitoring-columns').click();
    const dialog = page.getByRole('dialog', { name: 'Column settings' });
    await dialog.waitFor();
    await assertAccessible(page, 'monitoring column settings');
    await screenshot(page, 'monitoring-column-settings');
    // Keyboard only: focus the 'Type' checkbox, untick it with Space; move 'Longest wait' up with Enter.
    await dialog.getByRole('checkbox', { name: 'Type' }).focus();
    await page.keyboard.press('Space');
    assert.equal(await dialog.getByRole('checkbox', { name: 'Type' }).isChecked(), false);
    await dialog.getByRole('button', { name: 'Move “Longest wait” up' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    const expected = ['Name', 'Team', 'Longest wait', 'Waiting', 'In progress'];
    assert.deepEqual(await headings(page, 'monitoring-channels'), expected);
    await page.reload();
    await page.getByTestId('monitoring-channels').waitFor();
    assert.deepEqual(await headings(page, 'monitoring-channels'), expected);
    assertNoErrors(errors);
    await context.close();
  });
});
