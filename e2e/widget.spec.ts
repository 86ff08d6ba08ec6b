import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiLogin,
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
let adminToken: string;
let host: Server;
let hostUrl = '';
let snippet = '';

/**
 * A customer's site on another localhost port, hostile to embedded widgets: every element reset, its own
 * buttons and text areas restyled, and a fixed banner fighting for the top z-index in the widget's corner.
 */
const hostPage = (tag: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme shop</title>
<style>
  body * { all: unset !important; }
  body { font: 30px/3 Georgia, serif; color: #0b0; background: #222; margin: 0; }
  button, textarea, div { font-size: 40px !important; color: red !important; z-index: 2147483647 !important; }
  smartconnect-chat { display: none !important; opacity: 0 !important; position: static !important; }
  .banner { position: fixed !important; right: 0 !important; bottom: 0 !important; width: 220px !important;
    height: 90px !important; display: block !important; background: #fa0 !important; z-index: 2147483647 !important; }
</style></head>
<body><h1>Acme shop</h1><p>Welcome to our store.</p><div class="banner">SALE</div>
${tag}
</body></html>`;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  host = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(hostPage(snippet));
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://localhost:${(host.address() as AddressInfo).port}/shop.html`;
});
after(async () => {
  await browser?.close();
  await server?.stop();
  host?.close();
});

/** The widget's launcher on the host page (inside its shadow root: Playwright's locators pierce it). */
const launcher = (page: Page) => page.getByRole('button', { name: /^Open chat/ });

describe('site chat widget', () => {
  test('the admin creates a site chat and copies the one-tag snippet', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect Site chat' }).click();
    await page.getByRole('dialog').getByTestId('guide-steps').waitFor();
    await screenshot(page, 'widget-guide');
    await page.getByRole('button', { name: 'Next' }).click();
    await field(page, 'Name').fill('Acme site');
    await field(page, 'Team').click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await field(page, 'Title').fill('Acme help');
    await field(page, 'Welcome message').fill('Hi! How can we help?');
    await page.getByRole('button', { name: 'Create' }).click();
    const code = page.getByTestId('widget-snippet');
    await code.waitFor();
    snippet = ((await code.textContent()) ?? '').trim();
    assert.match(
      snippet,
      new RegExp(`^<script src="${server.url}/widget.js" data-channel="[0-9a-f-]{36}" async></script>$`),
    );
    await screenshot(page, 'widget-snippet');
    await page.getByRole('button', { name: 'Done' }).click();
    assertNoErrors(errors);
    await context.close();
  });

  test('a visitor on another site chats with an operator both ways, with a file', async () => {
    assert.ok(snippet, 'needs the channel of the previous test');
    const visitor = await openPage(browser, hostUrl);
    const v = visitor.page;
    await v.goto(hostUrl);
    await launcher(v).waitFor();
    // The host's CSS cannot hide or move it: it sits in the corner, above the host's banner.
    const box = await launcher(v).boundingBox();
    assert.ok(box && box.width >= 50 && box.x > 1300 && box.y > 780, JSON.stringify(box));
    const top = await v.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.tagName,
      [box.x + 28, box.y + 28],
    );
    assert.equal(top, 'SMARTCONNECT-CHAT');
    await screenshot(v, 'widget-closed-desktop');
    await launcher(v).click();
    const input = v.getByRole('textbox', { name: 'Message' });
    await input.waitFor();
    await v.getByText('Hi! How can we help?').waitFor();
    await input.fill('Hello, is my <b>order</b> ready?');
    await input.press('Shift+Enter');
    await input.pressSequentially('Order 42.');
    await input.press('Enter');
    await v.getByText('Order 42.', { exact: false }).waitFor();
    assert.equal(await input.inputValue(), '');

    // The operator answers in the workspace.
    const op = await openPage(browser, server.url);
    await signIn(op.page, adminToken, '/admin/chats?filter=waiting');
    const row = op.page.getByTestId('chat-row').first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await op.page
      .getByTestId('message')
      .getByText('Hello, is my <b>order</b> ready?', { exact: false })
      .waitFor();
    assert.equal(
      await op.page.locator('[data-testid="message"] b').count(),
      0,
      'customer text is never HTML',
    );
    await op.page.getByRole('button', { name: 'Take' }).click();
    const reply = op.page.getByRole('textbox', { name: 'Write a message' });
    await reply.fill('Yes, it ships today.');
    await reply.press('Enter');
    // Live on the visitor's page, with the operator's name.
    await v.getByText('Yes, it ships today.').waitFor({ timeout: 10_000 });
    assert.equal(await v.locator('smartconnect-chat b').count(), 0, 'operator text is never HTML');

    // A file: typed by its content, shown to the operator.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await v
      .locator('smartconnect-chat input[type=file]')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: png });
    await v.locator('smartconnect-chat img.att').waitFor();
    await op.page
      .getByTestId('message')
      .filter({ hasText: 'receipt.png' })
      .or(op.page.locator('[data-testid="message"] img'))
      .first()
      .waitFor({ timeout: 10_000 });

    // A drop of the connection loses nothing: the operator writes while the socket is down.
    await v.evaluate(() =>
      (
        window as unknown as { SmartConnectWidget: { dropConnection(): void } }
      ).SmartConnectWidget.dropConnection(),
    );
    await reply.fill('Anything else?');
    await reply.press('Enter');
    await v.getByText('Anything else?').waitFor({ timeout: 15_000 });
    await screenshot(v, 'widget-open-desktop');
    await screenshot(op.page, 'widget-operator');

    // History comes back on return (same browser, new tab).
    const again = await visitor.context.newPage();
    await again.goto(hostUrl);
    await launcher(again).click();
    await again.getByText('Yes, it ships today.').waitFor();
    await again.close();
    assertNoErrors(visitor.errors);
    assertNoErrors(op.errors);
    await op.context.close();
    await visitor.context.close();
  });

  test('the widget at 360 px: closed and open, the panel fits', async () => {
    const { page, errors, context } = await openPage(browser, hostUrl, { width: 360 });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(hostUrl);
    await launcher(page).waitFor();
    await screenshot(page, 'widget-closed-360');
    await launcher(page).click();
    const panel = page.getByRole('dialog');
    await panel.waitFor();
    const box = await panel.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box));
    await page.getByRole('textbox', { name: 'Message' }).fill('Hi from a phone');
    await screenshot(page, 'widget-open-360');
    assertNoErrors(errors);
    await context.close();
  });
});
