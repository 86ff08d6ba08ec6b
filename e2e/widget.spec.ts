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

/**
 * Types one character at a time until `shown` appears: typing is a signal, sent at most every 3 s and lost by a socket
 * that is still connecting, so a real person's continued typing is what makes it show.
 */
async function typeUntil(input: Locator, shown: Locator, text: string) {
  for (let i = 0; i < 40 && !(await shown.isVisible()); i++) {
    await input.pressSequentially(text[i % text.length]);
    await new Promise((r) => setTimeout(r, 400));
  }
  await shown.waitFor({ timeout: 2_000 });
}

/** A request category the chat's team may use (the close needs one). */
async function categoryFor(chatId: string): Promise<{ id: string } | undefined> {
  const chat = (await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, adminToken)).body.entity;
  return (await apiCall(server.url, 'GET', `/api/categories?teamId=${chat.team.id}`, undefined, adminToken))
    .body.entity.items[0];
}

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
    const channelId = /data-channel="([0-9a-f-]{36})"/.exec(snippet)?.[1] as string;
    let chatId: string | undefined;
    for (let i = 0; i < 50 && !chatId; i++) {
      const list = await apiCall(
        server.url,
        'GET',
        `/api/chats?filter=waiting&channelId=${channelId}`,
        undefined,
        adminToken,
      );
      chatId = list.body.entity.items[0]?.id;
      if (!chatId) await v.waitForTimeout(200);
    }
    assert.ok(chatId, 'the visitor opened a chat');
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

  test('closing the chat asks the visitor to rate in the widget; they rate once', async () => {
    const channelId = /data-channel="([0-9a-f-]{36})"/.exec(snippet)?.[1] as string;
    const on = await apiCall(
      server.url,
      'PATCH',
      `/api/channels/${channelId}`,
      { assessment: { enabled: true, text: 'How did we do?' } },
      adminToken,
    );
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const visitor = await openPage(browser, hostUrl);
    const v = visitor.page;
    await v.goto(hostUrl);
    await launcher(v).click();
    const input = v.getByRole('textbox', { name: 'Message' });
    await input.fill('Thanks, bye');
    await input.press('Enter');
    await v.getByText('Thanks, bye').waitFor();
    // The visitor's chat, Waiting or already with an operator.
    const listed = async (filter: string) =>
      (
        await apiCall(
          server.url,
          'GET',
          `/api/chats?filter=${filter}&channelId=${channelId}`,
          undefined,
          adminToken,
        )
      ).body.entity.items as { id: string; lastMessage: { text: string } | null }[];
    // The widget shows the message at once; the chat lists it once stored and routed.
    let chat: { id: string } | undefined;
    for (let i = 0; i < 50 && !chat; i++) {
      chat = [...(await listed('waiting')), ...(await listed('assigned'))].find(
        (c) => c.lastMessage?.text === 'Thanks, bye',
      );
      if (!chat) await v.waitForTimeout(200);
    }
    assert.ok(chat, "the visitor's chat");
    const category = await categoryFor(chat.id);
    const closed = await apiCall(
      server.url,
      'POST',
      `/api/chats/${chat.id}/close`,
      { categoryId: category?.id },
      adminToken,
    );
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    await v.getByText('How did we do?').waitFor({ timeout: 10_000 });
    await screenshot(v, 'widget-rating');
    await v.getByRole('button', { name: '5 · Excellent' }).click();
    await v.getByText('Thank you for your rating!').waitFor();
    const ratings = (await apiCall(server.url, 'GET', `/api/chats/${chat.id}/ratings`, undefined, adminToken))
      .body.entity;
    assert.equal(ratings[0].value, 'EXCELLENT');
    assertNoErrors(visitor.errors);
    await visitor.context.close();
  });

  test('typing both ways, the introduction, an operator file to the visitor, a rating asked before the end', async () => {
    const channelId = /data-channel="([0-9a-f-]{36})"/.exec(snippet)?.[1] as string;
    const assessment = { enabled: true, beforeEnd: true, text: 'Would you rate us?' };
    const on = await apiCall(server.url, 'PATCH', `/api/channels/${channelId}`, { assessment }, adminToken);
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const visitor = await openPage(browser, hostUrl);
    const v = visitor.page;
    await v.goto(hostUrl);
    await launcher(v).click();
    // The optional introduction: refused e-mail first, then saved.
    await v.getByRole('button', { name: 'Introduce yourself' }).click();
    await v.getByRole('textbox', { name: 'Name' }).fill('Ann Lee');
    await v.getByRole('textbox', { name: 'E-mail' }).fill('ann@');
    await v.getByRole('button', { name: 'Save' }).click();
    await v.getByText('E-mail specified incorrectly').waitFor();
    await assertAccessible(v, 'widget with the introduction form');
    await screenshot(v, 'widget-introduction');
    await v.getByRole('textbox', { name: 'E-mail' }).fill('ann@example.com');
    await v.getByRole('textbox', { name: 'Phone' }).fill('+44 20 7946 0000');
    await v.getByRole('button', { name: 'Save' }).click();
    const input = v.getByRole('textbox', { name: 'Message' });
    await input.fill('I need help with a refund');
    await input.press('Enter');
    await v.getByText('I need help with a refund').waitFor();
    let chatId: string | undefined;
    for (let i = 0; i < 50 && !chatId; i++) {
      const found = (
        await apiCall(
          server.url,
          'GET',
          `/api/chats?filter=waiting&channelId=${channelId}`,
          undefined,
          adminToken,
        )
      ).body.entity.items as { id: string; lastMessage: { text: string } | null }[];
      chatId = found.find((c) => c.lastMessage?.text === 'I need help with a refund')?.id;
      if (!chatId) await v.waitForTimeout(200);
    }
    assert.ok(chatId, "the visitor's chat");
    assert.equal(
      (await apiCall(server.url, 'POST', `/api/chats/${chatId}/take`, {}, adminToken)).status,
      200,
    );
    const op = await openPage(browser, server.url);
    await signIn(op.page, adminToken, `/admin/chats?filter=assigned&chat=${chatId}`);
    const o = op.page;
    await o.getByTestId('message').getByText('I need help with a refund').waitFor({ timeout: 15_000 });
    // The side panel shows what the visitor gave.
    await o.getByTestId('contact-email').getByText('ann@example.com').waitFor({ timeout: 10_000 });
    await o.getByTestId('chat-client').getByText('Ann Lee').waitFor();

    // The visitor types: the operator sees it; the operator types: the visitor sees it.
    await typeUntil(
      input,
      o.getByTestId('client-typing').getByText('The client is typing…'),
      'It was order 42 ',
    );
    const reply = o.getByRole('textbox', { name: 'Write a message' });
    await typeUntil(reply, v.getByText(/is typing…/), 'Let me check ');
    await screenshot(v, 'widget-operator-typing');
    await reply.fill('Let me check');
    await reply.press('Enter');
    await v.getByText('Let me check').waitFor({ timeout: 10_000 });

    // An operator's file reaches the visitor.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await o
      .locator('input[type="file"]')
      .setInputFiles({ name: 'refund-form.png', mimeType: 'image/png', buffer: png });
    await o.locator('[data-testid="composer-file"][data-ready="true"]').waitFor();
    await reply.press('Enter');
    const picture = v.locator('smartconnect-chat img.att[alt="refund-form.png"]');
    await picture.waitFor({ timeout: 10_000 });
    assert.equal(
      await picture.evaluate((img) => (img as HTMLImageElement).naturalWidth),
      1,
      'the picture loads across origins',
    );

    // The operator asks for a rating before the end; the visitor rates; the top bar and the timeline show it.
    await o.getByTestId('ask-rating').click();
    await o.getByTestId('chat-rating').getByText('Rating requested').waitFor();
    await v.getByText('Would you rate us?').waitFor({ timeout: 10_000 });
    await v.getByRole('button', { name: '4 · Good' }).click();
    await v.getByText('Thank you for your rating!').waitFor();
    await o.getByTestId('chat-rating').getByText('Rating: Good (4 of 5)').waitFor({ timeout: 10_000 });
    await o.locator('[data-testid="system-event"][data-kind="rated"]').waitFor();
    await o.locator('[data-testid="system-event"][data-kind="rating_requested"]').waitFor();
    await screenshot(o, 'workspace-rating');
    // Asked once per session: closing it asks no more.
    const category = await categoryFor(chatId);
    const closed = await apiCall(
      server.url,
      'POST',
      `/api/chats/${chatId}/close`,
      { categoryId: category?.id },
      adminToken,
    );
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const history = (await apiCall(server.url, 'GET', `/api/chats/${chatId}/history`, undefined, adminToken))
      .body.entity.items as { kind: string }[];
    assert.equal(history.filter((h) => h.kind === 'rating_requested').length, 1);
    assertNoErrors(visitor.errors);
    assertNoErrors(op.errors);
    await op.context.close();
    await visitor.context.close();
  });

  test('a rating link: the five choices, /success, and /already-used when used twice', async () => {
    const team = (await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken)).body.entity.items[0];
    const ch = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      {
        type: 'api',
        name: 'Rated API',
        teamId: team.id,
        webhookUrl: 'http://127.0.0.1:9/x',
        assessment: { enabled: true },
      },
      adminToken,
    );
    assert.equal(ch.status, 200, JSON.stringify(ch.body));
    const res = await fetch(`${server.url}/api/channels/${ch.body.entity.id}/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ch.body.entity.inboundKey}` },
      body: JSON.stringify({
        externalMessageId: 'r-1',
        client: { externalId: 'rater', name: 'Rater' },
        text: 'Hi',
      }),
    });
    const chatId = ((await res.json()) as { entity: { chatId: string } }).entity.chatId;
    const category = (await apiCall(server.url, 'GET', '/api/categories', undefined, adminToken)).body.entity
      .items[0];
    assert.equal(
      (
        await apiCall(
          server.url,
          'POST',
          `/api/chats/${chatId}/close`,
          { categoryId: category?.id },
          adminToken,
        )
      ).status,
      200,
    );
    const msgs = (await apiCall(server.url, 'GET', `/api/chats/${chatId}/messages`, undefined, adminToken))
      .body.entity.items;
    const link = msgs
      .map((m: { text: string }) => /(\/link-action\/[0-9a-f-]{36})/.exec(m.text)?.[1])
      .find(Boolean);
    assert.ok(link, JSON.stringify(msgs));
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await page.goto(link);
    await page.getByRole('button', { name: '4 · Good' }).waitFor();
    await screenshot(page, 'rating-link');
    await assertAccessible(page, '/link-action');
    await page.getByRole('button', { name: '4 · Good' }).click();
    await page.waitForURL('**/success');
    await page.getByText('Thank you for your rating!').waitFor();
    await screenshot(page, 'rating-success');
    await page.goto(link);
    await page.waitForURL('**/already-used');
    await page.getByTestId('status-title').getByText('Rating already sent').waitFor();
    await screenshot(page, 'rating-already-used');
    assertNoErrors(errors);
    await context.close();
  });

  test('support: the widget on the login page only, and a signed-in user chats with platform staff', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await page.goto('/');
    await page.getByRole('button', { name: /^Open chat/ }).waitFor();
    await screenshot(page, 'support-login');
    // Keyboard and screen-reader usable: axe finds nothing serious with the panel open, in either state.
    await assertAccessible(page, 'login page with the support widget closed');
    await page.getByRole('button', { name: /^Open chat/ }).click();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await assertAccessible(page, 'login page with the support widget open');
    await page.keyboard.press('Escape');
    await signIn(page, adminToken, '/admin/support');
    const chat = page.getByTestId('support-chat');
    await chat.getByRole('textbox', { name: 'Message' }).waitFor();
    assert.equal(
      await page.getByRole('button', { name: /^Open chat/ }).count(),
      0,
      'the launcher is on / only',
    );
    const input = chat.getByRole('textbox', { name: 'Message' });
    await input.fill('Our widget works, thanks!');
    await input.press('Enter');
    await chat.getByText('Our widget works, thanks!').waitFor();
    // Platform staff answer in their own workspace.
    const staffToken = await apiLogin(
      server.url,
      'staff@smartconnect.local',
      server.passwords['staff@smartconnect.local'],
    );
    let waiting: { id: string; client: { name: string } }[] = [];
    for (let i = 0; i < 50 && !waiting.length; i++) {
      waiting = (await apiCall(server.url, 'GET', '/api/chats?filter=waiting', undefined, staffToken)).body
        .entity.items;
      if (!waiting.length) {
        waiting = (await apiCall(server.url, 'GET', '/api/chats?filter=assigned', undefined, staffToken)).body
          .entity.items;
      }
      if (!waiting.length) await page.waitForTimeout(200);
    }
    assert.match(waiting[0].client.name, /^Demo Administrator <admin@demo.local> \(Demo\)$/);
    await apiCall(server.url, 'POST', `/api/chats/${waiting[0].id}/take`, {}, staffToken);
    const reply = await apiCall(
      server.url,
      'POST',
      `/api/chats/${waiting[0].id}/messages`,
      { text: 'Glad to hear it' },
      staffToken,
    );
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    await chat.getByText('Glad to hear it').waitFor({ timeout: 10_000 });
    await screenshot(page, 'support-chat');
    await assertAccessible(page, '/admin/support');
    assertNoErrors(errors);
    await context.close();
  });
});
