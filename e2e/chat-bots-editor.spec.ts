import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
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

async function choose(page: Page, scope: Locator, label: string, option: string) {
  await field(scope, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
const saveState = (page: Page) => page.getByTestId('save-state');
async function saved(page: Page) {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.getAttribute('data-state') === 'saved',
    undefined,
    { timeout: 10_000 },
  );
}
/** Draws a transition on the canvas: from a button's dot to a node's input dot, with the mouse. */
async function drag(page: Page, from: Locator, to: Locator) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  assert.ok(a && b);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}
/** The canvas nodes' ids, in the order they were drawn. */
const nodeIds = async (page: Page) =>
  page
    .locator('[data-testid^="bot-node-"]')
    .evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').replace('bot-node-', '')));
const issuesOn = async (page: Page, id: string) =>
  Number(await page.getByTestId(`bot-node-${id}`).getAttribute('data-issues'));

describe('chat bot editor', () => {
  test('create a bot, draw three nodes, see an issue flagged then fixed, autosave, publish', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/chat-bots');
    await page.getByRole('button', { name: 'Add chat bot' }).waitFor();

    // Create: the name and the default message are required (§5).
    await page.getByRole('button', { name: 'Add chat bot' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Name', 'Name specified incorrectly');
    await fieldError(dialog, 'Default message', 'Please fill in all required fields');
    await field(dialog, 'Name').fill('Welcome bot');
    await field(dialog, 'Default message').fill('Sorry, I did not understand');
    await dialog.getByRole('button', { name: 'Create' }).click();

    // The editor opens on a draft with one root node; the empty scenario is flagged.
    await page.getByTestId('bot-canvas').waitFor();
    await page.getByTestId('bot-issues').getByText('Empty scenario').waitFor();
    const [root] = await nodeIds(page);
    await page.getByTestId(`bot-node-${root}`).click();
    const panel = page.getByTestId('node-editor');
    await field(panel, 'Bot reply').fill('Hello! Sales or support?');
    assert.match((await saveState(page).textContent()) ?? '', /Unsaved changes|Saving\.\.\./);
    await panel.getByRole('button', { name: 'Add button' }).click();
    await panel.getByRole('button', { name: 'Add button' }).click();
    await field(panel, 'Button 1').fill('Sales');
    await field(panel, 'Button 2').fill('Support');
    await saved(page);
    // The buttons have no transition yet: flagged on the root node.
    assert.ok((await issuesOn(page, root)) > 0);

    // Two more nodes: one passes to the Support team, the other closes the chat.
    await page.getByRole('button', { name: 'Add node' }).click();
    await field(panel, 'Bot reply').fill('Passing you to our team');
    await choose(page, panel, 'Final action', 'Pass to team');
    await choose(page, panel, 'Team', 'Support');
    await page.getByRole('button', { name: 'Add node' }).click();
    await field(panel, 'Bot reply').fill('Bye');
    await choose(page, panel, 'Final action', 'Close chat');
    // The reply's file: uploaded as the composer does, shown on the node, removable.
    const attach = async (name: string) => {
      const chooser = page.waitForEvent('filechooser');
      await panel.getByRole('button', { name: 'Attach a file' }).click();
      const jpeg = Buffer.alloc(4000);
      jpeg.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
      jpeg.set([0xff, 0xd9], 3998);
      await (await chooser).setFiles({ name, mimeType: 'image/jpeg', buffer: jpeg });
      await panel.getByTestId('reply-file').getByText(name).waitFor({ timeout: 10_000 });
    };
    await attach('first.jpg');
    await panel.getByRole('button', { name: 'Remove the file first.jpg' }).click();
    assert.equal(await panel.getByTestId('reply-file').count(), 0);
    await attach('goodbye.jpg');
    await page.getByTestId('node-file').getByText('goodbye.jpg').waitFor();
    const [, sales, bye] = await nodeIds(page);
    assert.ok(sales && bye);
    await page.getByTestId(`bot-node-${bye}`).getByTestId('unconnected').waitFor();

    // Connect: the first button by the side panel, the second by drawing on the canvas.
    await page.getByTestId(`bot-node-${root}`).click();
    const goesTo = panel.getByLabel('Goes to');
    await goesTo.first().click();
    await page.getByRole('option', { name: '2. Passing you to our team' }).click();
    await drag(
      page,
      page.getByTestId(`bot-node-${root}`).locator('.react-flow__handle.source').nth(1),
      page.getByTestId(`bot-node-${bye}`).locator('.react-flow__handle.target'),
    );
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="bot-node-${id}"]`)?.getAttribute('data-issues') === '0',
      root,
      { timeout: 5000 },
    );
    assert.equal(await page.getByTestId(`bot-node-${bye}`).getByTestId('unconnected').count(), 0);
    assert.equal(await page.getByTestId('bot-issues').count(), 0);
    await saved(page);
    await screenshot(page, 'chat-bot-editor', { toasts: false });

    // §8 toasts: delete needs a selected element; the root stays while other nodes exist.
    await page
      .getByTestId('bot-canvas')
      .locator('.react-flow__pane')
      .click({ position: { x: 5, y: 5 } });
    await page.getByRole('button', { name: 'Delete element' }).click();
    await page.getByText('Select an element to delete').waitFor();
    await page.getByTestId(`bot-node-${root}`).click();
    await page.getByRole('button', { name: 'Delete element' }).click();
    await page.getByText('The root node cannot be deleted while other nodes exist').waitFor();

    // Publish: the server agrees there is nothing wrong.
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published as version 1').waitFor();
    const bots = (await apiCall(server.url, 'GET', '/api/chat-bots', undefined, adminToken)).body.entity
      .items;
    const bot = bots.find((b: { name: string }) => b.name === 'Welcome bot');
    assert.equal(bot.publishedVersion, 1);
    const full = (await apiCall(server.url, 'GET', `/api/chat-bots/${bot.id}`, undefined, adminToken)).body
      .entity;
    assert.deepEqual(
      full.published.nodes.map((n: { reply: { text: string } }) => n.reply.text),
      ['Hello! Sales or support?', 'Passing you to our team', 'Bye'],
    );
    const byeReply = full.published.nodes[2].reply as { fileId: string | null; fileName?: string };
    assert.equal(byeReply.fileName, 'goodbye.jpg');
    assert.match(byeReply.fileId ?? '', /^[A-Za-z0-9_-]{20,}$/);
    await assertAccessible(page, 'chat bot editor');

    // The list: published; deleting is refused while a routing rule routes to the bot (its name shown).
    const rule = await apiCall(
      server.url,
      'POST',
      '/api/routing-rules',
      {
        name: 'New clients to the bot',
        conditions: { clients: 'new' },
        action: { type: 'chat_bot', botId: bot.id },
      },
      adminToken,
    );
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    await page.goto('/admin/preferences/chat-bots');
    await page.getByTestId('bot-Welcome bot').getByText('Version 1').waitFor();
    await assertAccessible(page, 'chat bots list');
    await screenshot(page, 'chat-bots-list', { toasts: false });
    await page.getByRole('button', { name: 'Delete Welcome bot' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    // The rules' names are isolated (bidi marks) inside the sentence.
    await page.getByText(/^The chat bot is used by rules: \W?New clients to the bot\W?$/).waitFor();
    assertNoErrors(errors);
    await context.close();
  });

  test('the editor takes the whole window; Add node puts the node at the centre of the view, selected (issue 36.11, both languages)', async () => {
    for (const lang of ['eng', 'rus'] as const) {
      const made = await apiCall(
        server.url,
        'POST',
        '/api/chat-bots',
        { name: `Room bot ${lang}`, defaultMessage: 'Sorry?' },
        adminToken,
      );
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const { page, errors, context } = await openPage(browser, server.url);
      await page.goto('/not-found');
      await page.evaluate((l) => localStorage.setItem('sc-lang', l), lang);
      await signIn(page, adminToken, `/admin/preferences/chat-bots/bot?id=${made.body.entity.id}`);
      await page.getByTestId('bot-canvas').locator('.react-flow__node').first().waitFor();
      // No Preferences frame and no side menu: the canvas is about as wide as the window and fills its height.
      const canvas = await page.getByTestId('bot-canvas').boundingBox();
      assert.ok(canvas && canvas.width >= 1440 - 40, JSON.stringify(canvas));
      assert.ok(canvas.y + canvas.height <= 900 && canvas.height >= 450, JSON.stringify(canvas));
      // The side menu is slid out of the window (AppShell keeps it, off screen).
      const nav = await page
        .getByRole('navigation', { name: lang === 'eng' ? 'Main menu' : 'Главное меню' })
        .boundingBox();
      assert.ok(!nav || nav.x + nav.width <= 0, JSON.stringify(nav));
      await assertAccessible(page, `chat bot editor in the whole window (${lang})`);

      // Move the view (drag the empty canvas down): the new node goes to the centre of what is shown now.
      await page.mouse.move(canvas.x + 60, canvas.y + 60);
      await page.mouse.down();
      await page.mouse.move(canvas.x + 60, canvas.y + 330, { steps: 10 });
      await page.mouse.up();
      const before = await nodeIds(page);
      await page.getByRole('button', { name: lang === 'eng' ? 'Add node' : 'Добавить узел' }).click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid^="bot-node-"]').length === n,
        before.length + 1,
      );
      const added = (await nodeIds(page)).find((id) => !before.includes(id));
      assert.ok(added);
      const node = await page.getByTestId(`bot-node-${added}`).boundingBox();
      const panel = await page.getByTestId('node-panel').boundingBox();
      assert.ok(node && panel);
      // The view is the canvas left of the node panel that floats over it.
      const centre = { x: (canvas.x + panel.x) / 2, y: canvas.y + canvas.height / 2 };
      const at = { x: node.x + node.width / 2, y: node.y + node.height / 2 };
      assert.ok(
        Math.abs(at.x - centre.x) <= 40 && Math.abs(at.y - centre.y) <= 40,
        JSON.stringify({ at, centre }),
      );
      assert.ok(
        node.x >= canvas.x &&
          node.x + node.width <= panel.x &&
          node.y >= canvas.y &&
          node.y + node.height <= canvas.y + canvas.height,
      );
      // Selected (its editor is open) and focused.
      await page.getByTestId('node-editor').waitFor();
      await page.waitForFunction((id) => document.activeElement?.getAttribute('data-id') === id, added);
      await screenshot(page, `chat-bot-editor-full-${lang}`, { toasts: false });

      // The way back is plain.
      await page
        .getByRole('link', { name: lang === 'eng' ? 'Back to chat bots' : 'Назад к чат-ботам' })
        .click();
      await page.waitForURL(/\/admin\/preferences\/chat-bots$/);
      await page
        .getByRole('button', { name: lang === 'eng' ? 'Add chat bot' : 'Добавить чат-бота' })
        .waitFor();
      assertNoErrors(errors);
      await context.close();
    }
  });

  test('390 px: the editor is usable on a phone', async () => {
    const bots = (await apiCall(server.url, 'GET', '/api/chat-bots', undefined, adminToken)).body.entity
      .items;
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await signIn(page, adminToken, `/admin/preferences/chat-bots/bot?id=${bots[0].id}`);
    await page.getByTestId('bot-canvas').waitFor();
    const canvas = await page.getByTestId('bot-canvas').boundingBox();
    assert.ok(canvas && canvas.width <= 390 && canvas.width > 250, JSON.stringify(canvas));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `horizontal overflow ${overflow}px`);
    const [root] = await nodeIds(page);
    await page.getByTestId(`bot-node-${root}`).click();
    await field(page.getByTestId('node-editor'), 'Bot reply').fill('Hello again! Sales or support?');
    await saved(page);
    await screenshot(page, 'chat-bot-editor-390', { toasts: false });
    await assertAccessible(page, 'chat bot editor at 390 px');
    assertNoErrors(errors);
    await context.close();
  });
});
