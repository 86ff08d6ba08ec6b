import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
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

/**
 * Issue 18's end-to-end path: the administrator draws a three-node bot, tries it in the simulator (the path
 * highlighted), publishes it, routes the site chat's new chats to it; a visitor talks to the bot through the widget on
 * another site, presses a button and is handed to people; the operator receives the chat with the bot's messages
 * marked.
 */
let server: TestServer;
let browser: Browser;
let adminToken: string;
let host: Server;
let hostUrl = '';
let snippet = '';
let botId = '';

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  host = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme shop</title></head><body><h1>Acme shop</h1>${snippet}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://localhost:${(host.address() as AddressInfo).port}/shop.html`;
});
after(async () => {
  await browser?.close();
  await server?.stop();
  host?.close();
});

async function choose(page: Page, scope: Locator, label: string, option: string) {
  await field(scope, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
async function saved(page: Page) {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.getAttribute('data-state') === 'saved',
    undefined,
    { timeout: 10_000 },
  );
}
const nodeIds = async (page: Page) =>
  page
    .locator('[data-testid^="bot-node-"]')
    .evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').replace('bot-node-', '')));
const highlightedNodes = async (page: Page) =>
  page
    .locator('[data-testid^="bot-node-"][data-highlighted]')
    .evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').replace('bot-node-', '')));

describe('chat bots end to end', () => {
  test('draw a three-node bot, try it in the simulator, publish, route the site chat to it', async () => {
    const teams = (await apiCall(server.url, 'GET', '/api/teams?limit=100', undefined, adminToken)).body
      .entity.items as { id: string; name: string }[];
    const support = teams.find((x) => x.name === 'Support') ?? teams[0];
    const ch = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      { type: 'site_chat', name: 'Bot site', teamId: support.id },
      adminToken,
    );
    assert.equal(ch.status, 200, JSON.stringify(ch.body));
    const channelId = ch.body.entity.id as string;
    snippet = `<script src="${server.url}/widget.js" data-channel="${channelId}" async></script>`;

    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/chat-bots');
    await page.getByRole('button', { name: 'Add chat bot' }).click();
    const dialog = page.getByRole('dialog');
    await field(dialog, 'Name').fill('Shop bot');
    await field(dialog, 'Default message').fill('Sorry, please press a button');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('bot-canvas').waitFor();
    botId = new URL(page.url()).searchParams.get('id') ?? '';
    assert.ok(botId, page.url());

    // The root: a reply with two buttons.
    const [root] = await nodeIds(page);
    await page.getByTestId(`bot-node-${root}`).click();
    const panel = page.getByTestId('node-editor');
    await field(panel, 'Bot reply').fill('Hello! Orders or opening hours?');
    await panel.getByRole('button', { name: 'Add button' }).click();
    await panel.getByRole('button', { name: 'Add button' }).click();
    await field(panel, 'Button 1').fill('Orders');
    await field(panel, 'Button 2').fill('Hours');
    // Two nodes: orders go to the Support team, hours close the chat.
    await page.getByRole('button', { name: 'Add node' }).click();
    await field(panel, 'Bot reply').fill('An operator will help with your order');
    await choose(page, panel, 'Final action', 'Pass to team');
    await choose(page, panel, 'Team', support.name);
    await page.getByRole('button', { name: 'Add node' }).click();
    await field(panel, 'Bot reply').fill('We are open 9 to 5');
    await choose(page, panel, 'Final action', 'Close chat');
    const [, orders, hours] = await nodeIds(page);
    assert.ok(orders && hours);
    await page.getByTestId(`bot-node-${root}`).click();
    const goesTo = panel.getByLabel('Goes to');
    await goesTo.nth(0).click();
    await page.getByRole('option', { name: '2. An operator will help with your order' }).click();
    await goesTo.nth(1).click();
    await page.getByRole('option', { name: '3. We are open 9 to 5' }).click();
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="bot-node-${id}"]`)?.getAttribute('data-issues') === '0',
      root,
      { timeout: 5000 },
    );
    await saved(page);

    // The simulator: step through as a customer, the path highlighted on the canvas.
    await page.getByRole('button', { name: 'Try', exact: true }).click();
    const sim = page.getByTestId('bot-simulator');
    await sim.getByText('Hello! Orders or opening hours?').waitFor();
    assert.deepEqual(await highlightedNodes(page), [root]);
    await sim.getByRole('button', { name: 'Orders' }).click();
    await sim.getByText('An operator will help with your order').waitFor();
    await sim.getByTestId('simulator-final').getByText('pass to a team').waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid^="bot-node-"][data-highlighted]').length === 2,
      undefined,
      { timeout: 5000 },
    );
    assert.deepEqual((await highlightedNodes(page)).sort(), [root, orders].sort());
    assert.equal(await page.getByTestId(`bot-node-${hours}`).getAttribute('data-highlighted'), null);
    await assertAccessible(page, 'chat bot simulator');
    await screenshot(page, 'chat-bot-simulator', { toasts: false });
    await sim.getByRole('button', { name: 'Restart' }).click();
    await sim.getByRole('textbox').fill('hours');
    await sim.getByRole('textbox').press('Enter');
    await sim.getByText('We are open 9 to 5').waitFor();
    await sim.getByTestId('simulator-final').getByText('close the chat').waitFor();

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published as version 1').waitFor();

    // The routing rule: the site chat's new chats go to the bot.
    const rule = await apiCall(
      server.url,
      'POST',
      '/api/routing-rules',
      {
        name: 'Site visitors to the bot',
        conditions: { clients: 'any', channelIds: [channelId] },
        action: { type: 'chat_bot', botId },
      },
      adminToken,
    );
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    assertNoErrors(errors);
    await context.close();
  });

  test('a visitor talks to the bot in the widget, presses a button and reaches an operator', async () => {
    assert.ok(snippet && botId, 'needs the bot of the previous test');
    const visitor = await openPage(browser, hostUrl);
    const v = visitor.page;
    await v.goto(hostUrl);
    await v.getByRole('button', { name: /^Open chat/ }).click();
    const input = v.getByRole('textbox', { name: 'Message' });
    await input.fill('Hi there');
    await input.press('Enter');
    await v.getByText('Hello! Orders or opening hours?', { exact: false }).waitFor({ timeout: 15_000 });
    // The bot's buttons: native in the widget; pressing one sends its payload.
    const orders = v.locator('smartconnect-chat').getByRole('button', { name: 'Orders' });
    await orders.waitFor({ timeout: 10_000 });
    // The bot's message is marked as the bot's, not an operator's.
    await v.locator('smartconnect-chat .who').filter({ hasText: /^Bot$/ }).first().waitFor();
    await screenshot(v, 'chat-bot-widget', { toasts: false });
    await assertAccessible(v, 'widget with bot buttons');
    await orders.click();
    await v.getByText('An operator will help with your order').waitFor({ timeout: 15_000 });

    // The operator receives the chat in the team's queue, the bot's messages marked.
    const op = await openPage(browser, server.url);
    await signIn(op.page, adminToken, '/admin/chats?filter=waiting');
    const row = op.page.getByTestId('chat-row').first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const botLine = op.page.getByTestId('message').filter({ hasText: 'Hello! Orders or opening hours?' });
    await botLine.waitFor({ timeout: 10_000 });
    await botLine.getByTestId('bot-badge').waitFor();
    const handOver = op.page
      .getByTestId('message')
      .filter({ hasText: 'An operator will help with your order' });
    await handOver.getByTestId('bot-badge').waitFor();
    assert.equal(
      await op.page.getByTestId('message').filter({ hasText: 'Hi there' }).getByTestId('bot-badge').count(),
      0,
      "the visitor's own message is not the bot's",
    );
    await op.page.getByRole('button', { name: 'Take' }).click();
    const reply = op.page.getByRole('textbox', { name: 'Write a message' });
    await reply.fill('Hello, which order is it?');
    await reply.press('Enter');
    await v.getByText('Hello, which order is it?').waitFor({ timeout: 10_000 });
    await assertAccessible(op.page, 'operator conversation with bot messages');
    await screenshot(op.page, 'chat-bot-operator', { toasts: false });

    // §4 transfer to a chat bot: the dialog lists the published bots; the bot answers again from its root node.
    await op.page.getByRole('button', { name: 'Transfer' }).click();
    await op.page.getByRole('radio', { name: 'Chat bot', exact: true }).check();
    await choose(op.page, op.page.getByRole('dialog'), 'Choose a chat bot', 'Shop bot');
    await assertAccessible(op.page, 'transfer dialog with chat bots');
    await screenshot(op.page, 'chat-transfer-to-bot');
    await op.page.getByRole('dialog').getByRole('button', { name: 'Transfer' }).click();
    await op.page.getByText('The chat has been transferred').waitFor();
    await v
      .locator('smartconnect-chat')
      .getByText('Hello! Orders or opening hours?')
      .nth(1)
      .waitFor({ timeout: 15_000 });
    await signIn(op.page, adminToken, '/admin/chats?filter=waiting');
    await op.page.getByTestId('chat-row').first().click();
    // The timeline names the bot (the name isolated for bidi text, hence the pattern).
    await op.page
      .locator('[data-testid="system-event"][data-kind="transfer"]')
      .filter({ hasText: /Transferred to the chat bot .?Shop bot/ })
      .waitFor({ timeout: 10_000 });
    await screenshot(v, 'chat-bot-widget-handed-over', { toasts: false });
    assertNoErrors(visitor.errors);
    assertNoErrors(op.errors);
    await op.context.close();
    await visitor.context.close();
  });
});
