import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
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
let adminToken: string;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const ruleNames = async () =>
  (await apiCall(server.url, 'GET', '/api/routing-rules', undefined, adminToken)).body.entity.items.map(
    (r: { name: string }) => r.name,
  );

async function choose(page: Page, label: string, option: string) {
  await field(page.getByRole('dialog'), label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('routing rules', () => {
  test('the admin creates two rules, reorders them by drag, and the channel tab lists them', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/routing-rules');
    await page.getByTestId('rule-default').waitFor();

    // The first rule: the name is required (§5), then new clients go to Support.
    await page.getByRole('button', { name: 'Add rule' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Name', 'Name specified incorrectly');
    await field(dialog, 'Name').fill('New clients to Support');
    await choose(page, 'Clients', 'New clients');
    await choose(page, 'Team', 'Support');
    await screenshot(page, 'routing-rule-drawer');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Rule created').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // The second: repeated clients to their last operator.
    await page.getByRole('button', { name: 'Add rule' }).click();
    await field(dialog, 'Name').fill('Returning to last operator');
    await choose(page, 'Clients', 'Repeated clients');
    await choose(page, 'Action', 'To the last operator');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('rule-Returning to last operator').waitFor();
    assert.deepEqual(await ruleNames(), [
      'New clients to Support',
      'Returning to last operator',
      'Default rule',
    ]);

    // Drag the second above the first: the new order is saved on the server.
    await page
      .getByTestId('rule-Returning to last operator')
      .dragTo(page.getByTestId('rule-New clients to Support'));
    await page.getByText('The order of the rules has been saved').waitFor();
    assert.deepEqual(await ruleNames(), [
      'Returning to last operator',
      'New clients to Support',
      'Default rule',
    ]);
    // The keyboard way: the move buttons.
    await page.getByRole('button', { name: /^Move \W?New clients to Support\W? up$/ }).click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="routing-rules"] li')?.getAttribute('data-testid') ===
        'rule-New clients to Support',
    );
    assert.deepEqual(await ruleNames(), [
      'New clients to Support',
      'Returning to last operator',
      'Default rule',
    ]);
    await screenshot(page, 'routing-rules', { toasts: false });
    await assertAccessible(page, 'routing rules');

    // The Website chat's Routing tab lists the rules that apply to it.
    const channels = await apiCall(server.url, 'GET', '/api/channels', undefined, adminToken);
    const site = channels.body.entity.items.find((c: { name: string }) => c.name === 'Website chat');
    await page.goto(`/admin/preferences/channels/${site.id}`);
    await page.getByRole('tab', { name: 'Routing' }).click();
    await page.getByTestId('channel-rules').getByText('New clients to Support').waitFor();
    await screenshot(page, 'channel-routing-tab', { toasts: false });
    await assertAccessible(page, 'channel routing tab');

    // A new client's chat is routed to Support by the first rule; its timeline names the rule.
    const op2 = await apiLogin(server.url, 'operator2@demo.local', server.passwords['operator2@demo.local']);
    await apiCall(server.url, 'PATCH', '/api/presence', { status: 'online' }, op2);
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
    const sales = teams.body.entity.items.find((x: { name: string }) => x.name === 'Sales');
    const shop = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      { type: 'api', name: 'Shop', teamId: sales.id, webhookUrl: 'http://127.0.0.1:9/x' },
      adminToken,
    );
    const pushed = await apiCall(
      server.url,
      'POST',
      `/api/channels/${shop.body.entity.id}/inbound`,
      { externalMessageId: 'r-1', client: { externalId: 'c-r1', name: 'Rita Client' }, text: 'Hello' },
      shop.body.entity.inboundKey,
    );
    const chatId = pushed.body.entity.chatId;
    const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, adminToken);
    assert.equal(chat.body.entity.team.name, 'Support');
    await page.goto(`/admin/chats?filter=assigned&chat=${chatId}`);
    await page.getByText(/Routed by the rule \W?New clients to Support/).waitFor();
    await screenshot(page, 'routing-rule-timeline', { toasts: false });
    assertNoErrors(errors);
    await context.close();
  });

  test('a rule that closes the chats of one channel: the timeline names the rule', async () => {
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
    const sales = teams.body.entity.items.find((x: { name: string }) => x.name === 'Sales');
    const spam = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      { type: 'api', name: 'Spam line', teamId: sales.id, webhookUrl: 'http://127.0.0.1:9/x' },
      adminToken,
    );
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/routing-rules');
    await page.getByTestId('rule-default').waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const dialog = page.getByRole('dialog');
    await field(dialog, 'Name').fill('Close spam');
    await field(dialog, 'Channels').click();
    await page.getByRole('option', { name: 'Spam line', exact: true }).click();
    await page.keyboard.press('Escape');
    await choose(page, 'Action', 'Close the chat');
    // A closing rule names no team.
    assert.equal(await field(dialog, 'Team').count(), 0);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('rule-Close spam').getByText('Close the chat').waitFor();
    // The first rule that holds wins: 'New clients to Support' (above) would take Sam first, so the closing rule
    // moves to the top.
    for (const above of ['Returning to last operator', 'New clients to Support']) {
      await page.getByRole('button', { name: /^Move \W?Close spam\W? up$/ }).click();
      await page.waitForFunction(
        (name) =>
          document
            .querySelector('[data-testid="rule-Close spam"]')
            ?.nextElementSibling?.getAttribute('data-testid') === `rule-${name}`,
        above,
      );
    }
    assert.deepEqual((await ruleNames()).slice(0, 2), ['Close spam', 'New clients to Support']);
    const pushed = await apiCall(
      server.url,
      'POST',
      `/api/channels/${spam.body.entity.id}/inbound`,
      { externalMessageId: 's-1', client: { externalId: 'c-s1', name: 'Sam Spam' }, text: 'Buy now' },
      spam.body.entity.inboundKey,
    );
    const chatId = pushed.body.entity.chatId;
    const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, adminToken);
    assert.equal(chat.body.entity.status, 'closed');
    await page.goto(`/admin/chats?filter=closed&chat=${chatId}`);
    await page.getByText(/Closed by the rule \W?Close spam/).waitFor();
    await screenshot(page, 'routing-rule-close-timeline', { toasts: false });
    assertNoErrors(errors);
    await context.close();
  });

  test('at 390 px in Russian: the list, the default rule read-only', async () => {
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, '/admin/preferences/routing-rules');
    await page.getByTestId('rule-default').getByText('Правило по умолчанию').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'no sideways scrolling at 390 px');
    await screenshot(page, 'routing-rules-390-ru');
    await assertAccessible(page, 'routing rules 390 px');
    await page.getByTestId('rule-default').getByRole('button').click();
    await page.getByRole('dialog').getByText('Его нельзя изменить или удалить', { exact: false }).waitFor();
    await screenshot(page, 'routing-rule-default-390-ru');
    assertNoErrors(errors);
    await context.close();
  });
});
