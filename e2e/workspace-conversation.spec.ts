import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertNoErrors,
  dropFile,
  launchBrowser,
  makeJpeg,
  openPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
} from './harness.ts';

let server: TestServer;
let browser: Browser;
let webhook: Server;
let adminToken: string;
let olegToken: string;
let supervisorToken: string;
let channelId: string;
let inboundKey: string;
let chatId: string;
const HISTORY = 70;

/** The channel's webhook: accepts every reply except one saying FAIL, which it rejects (HTTP 400). */
async function startWebhook(): Promise<string> {
  webhook = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const failing = String(JSON.parse(body || '{}').text ?? '').includes('FAIL');
      res.writeHead(failing ? 400 : 200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(webhook.address() as { port: number }).port}/hook`;
}

const inbound = (n: number, text: string) =>
  fetch(`${server.url}/api/channels/${channelId}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${inboundKey}` },
    body: JSON.stringify({
      externalMessageId: `ws-${n}`,
      client: { externalId: 'ws-client', name: 'Wanda Client' },
      text,
    }),
  });

const label = (n: number) => `History message ${String(n).padStart(3, '0')}`;

/** The message list's scroll state: how far from the top, and whether its bottom is in view. */
const scrollOf = (page: Page) =>
  page.getByTestId('message-list').evaluate((el) => ({
    top: el.scrollTop,
    atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < 4,
  }));

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  olegToken = await apiLogin(server.url, 'operator1@demo.local', server.passwords['operator1@demo.local']);
  supervisorToken = await apiLogin(
    server.url,
    'supervisor@demo.local',
    server.passwords['supervisor@demo.local'],
  );
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
  const list = Array.isArray(teams.body.entity) ? teams.body.entity : teams.body.entity.items;
  const sales = list.find((t: { name: string }) => t.name === 'Sales');
  const ch = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'Shop API', teamId: sales.id, webhookUrl: await startWebhook() },
    adminToken,
  );
  assert.equal(ch.status, 200, JSON.stringify(ch.body));
  channelId = ch.body.entity.id;
  inboundKey = ch.body.entity.inboundKey;
  // The first message opens the chat; Oleg takes it; then a long history follows (more than one page).
  const first = await inbound(1, label(1));
  chatId = ((await first.json()) as { entity: { chatId: string } }).entity.chatId;
  const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, adminToken);
  if (chat.body.entity.operator?.id === undefined) {
    const taken = await apiCall(server.url, 'POST', `/api/chats/${chatId}/take`, undefined, olegToken);
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
  }
  for (let n = 2; n <= HISTORY; n++) assert.equal((await inbound(n, label(n))).status, 200);
  const category = await apiCall(server.url, 'POST', '/api/categories', { name: 'Delivery' }, adminToken);
  assert.equal(category.status, 200);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  webhook?.close();
});

describe('operator workspace: the conversation', () => {
  test('newest first, older pages on scroll-up in place, composer with draft, emoji, files, ticks, edit, retry', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, olegToken, `/admin/chats?filter=assigned&chat=${chatId}`);
    const list = page.getByTestId('message-list');
    await list
      .getByText(label(HISTORY))
      .waitFor()
      .catch(async (err) => {
        await screenshot(page, 'workspace-failure');
        throw new Error(`${err}\n${errors.join('\n')}`);
      });
    // The newest page first, scrolled to its end; the oldest messages are not loaded yet.
    await list.getByText(label(HISTORY)).waitFor();
    assert.equal(await list.getByText(label(1), { exact: true }).count(), 0);
    assert.equal((await scrollOf(page)).atBottom, true);
    await page.getByTestId('day-separator').first().getByText('Today').waitFor();
    await screenshot(page, 'workspace-conversation-newest');

    // Scrolling up loads the older page; the view stays on the message that was at the top (the oldest loaded:
    // the list is virtualised, so rows far from the view are not in the DOM and the loaded count is its attribute).
    const oldestText = label(HISTORY - 49);
    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.waitForFunction(
      (n) =>
        Number(document.querySelector('[data-testid="message-list"]')?.getAttribute('data-loaded')) === n,
      HISTORY,
    );
    const stillThere = page.getByTestId('message').filter({ hasText: oldestText }).first();
    const [box, item] = [await list.boundingBox(), await stillThere.boundingBox()];
    assert.ok(box && item && item.y >= box.y - 5 && item.y < box.y + box.height, `${item?.y} in ${box?.y}`);
    assert.ok((await scrollOf(page)).top > 100, 'the view did not jump to the top');
    // The whole history is there now: its start, and Oleg's take inline after the first message.
    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.getByTestId('conversation-start').waitFor();
    await list
      .locator('[data-testid="system-event"][data-kind="assign"]')
      .getByText('Oleg Operator')
      .waitFor();
    await screenshot(page, 'workspace-conversation-history');

    // A draft survives a reload.
    const input = page.getByTestId('composer-input');
    await input.fill('Half-written answer');
    await page.waitForTimeout(500);
    await page.reload();
    await page.getByTestId('composer-input').waitFor();
    assert.equal(await page.getByTestId('composer-input').inputValue(), 'Half-written answer');

    // Emoji at the cursor; Shift+Enter adds a line, Enter sends; the reply is Sent.
    await input.fill('Thanks ');
    await page.getByTestId('emoji-button').click();
    await page.getByTestId('emoji-picker').getByRole('button', { name: '👍' }).click();
    assert.equal(await input.inputValue(), 'Thanks 👍');
    await input.press('Shift+Enter');
    await input.pressSequentially('We are on it.');
    await input.press('Enter');
    const reply = page.getByTestId('message').filter({ hasText: 'We are on it.' });
    await reply.locator('[data-status="sent"]').waitFor();
    assert.equal(await input.inputValue(), '');

    // A picture by the button: previewed, sent, opened in the lightbox.
    const jpeg = Buffer.from(await makeJpeg(page), 'base64');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'parcel.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await page.locator('[data-testid="composer-file"][data-ready="true"]').waitFor();
    await input.press('Enter');
    const picture = page.getByTestId('attachment-image').last();
    await picture.waitFor();
    await picture.click();
    await page.getByRole('dialog', { name: 'parcel.jpg' }).locator('img').waitFor();
    await screenshot(page, 'workspace-lightbox');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // A text file dropped on the conversation: a download link.
    await dropFile(page, page.getByTestId('conversation'), {
      name: 'invoice.txt',
      mimeType: 'text/plain',
      base64: Buffer.from('Invoice 42\n').toString('base64'),
    });
    await page.locator('[data-testid="composer-file"][data-ready="true"]').waitFor();
    await input.fill('Your invoice');
    await input.press('Enter');
    const file = page
      .getByTestId('message')
      .filter({ hasText: 'Your invoice' })
      .getByTestId('attachment-file');
    await file.waitFor();
    assert.equal(await file.getAttribute('download'), 'invoice.txt');

    // A pasted picture joins the message being written and can be removed; a file over 10 MB is refused at once.
    await page.getByTestId('composer-input').evaluate((el, base64) => {
      const dt = new DataTransfer();
      dt.items.add(
        new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], 'pasted.jpg', {
          type: 'image/jpeg',
        }),
      );
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, jpeg.toString('base64'));
    const pasted = page
      .locator('[data-testid="composer-file"][data-ready="true"]')
      .filter({ hasText: 'pasted.jpg' });
    await pasted.waitFor();
    await pasted.getByRole('button', { name: 'Remove pasted.jpg' }).click();
    await pasted.waitFor({ state: 'detached' });
    await page.getByTestId('conversation').evaluate((el) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.bin'));
      for (const type of ['dragenter', 'dragover', 'drop'])
        el.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.getByText('huge.bin is larger than 10 MB').waitFor();
    assert.equal(await page.getByTestId('composer-file').count(), 0);

    // Undelivered: the provider's reason on keyboard focus (and hover).
    await input.fill('This one will FAIL');
    await input.press('Enter');
    const failed = page.getByTestId('message').filter({ hasText: 'This one will FAIL' });
    await failed.locator('[data-status="undelivered"]').waitFor({ timeout: 15_000 });
    await failed.getByTestId('delivery-reason').focus();
    await page.getByRole('tooltip').getByText('Not delivered: HTTP 400').waitFor();

    // Edit one's own message: the 'edited' mark.
    // The message is found by its id: while edited, its text is in the edit box.
    const own = page.locator(`[data-testid="message"][data-id="${await reply.getAttribute('data-id')}"]`);
    await own.getByTestId('edit-message').click();
    const edit = own.getByRole('textbox', { name: 'Message text' });
    await edit.fill('Thanks 👍 We are on it, parcel ships today.');
    await edit.press('Enter');
    await page
      .getByTestId('message')
      .filter({ hasText: 'parcel ships today' })
      .getByTestId('edited')
      .waitFor();

    // An internal note looks different.
    await page.getByRole('switch', { name: 'Internal' }).click();
    await input.fill('Customer is VIP');
    await input.press('Enter');
    await page
      .locator('[data-testid="message"][data-internal="true"]')
      .getByText('Customer is VIP')
      .waitFor();
    await page.getByRole('switch', { name: 'Internal' }).click();

    // Optimistic send: shown at once; when the request fails it says so and Retry sends it.
    await page.route('**/api/chats/*/messages', (route) =>
      route.request().method() === 'POST' ? route.abort('connectionreset') : route.fallback(),
    );
    await input.fill('Sent when the network is back');
    await input.press('Enter');
    const pending = page.locator('[data-testid="pending-message"][data-state="failed"]');
    await pending.getByText('Not sent').waitFor();
    await screenshot(page, 'workspace-conversation-failed');
    await page.unroute('**/api/chats/*/messages');
    await pending.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('message').filter({ hasText: 'Sent when the network is back' }).waitFor();
    assert.equal(await page.getByTestId('pending-message').count(), 0);
    await screenshot(page, 'workspace-conversation');
    assertNoErrors(errors, /Failed to load resource|ERR_CONNECTION_RESET|request failed/);
    await context.close();
  });

  test('a supervisor takes over the chat; the operator sees who handles it now; 390 px and Russian', async () => {
    const oleg = await openPage(browser, server.url);
    await signIn(oleg.page, olegToken, `/admin/chats?filter=assigned&chat=${chatId}`);
    await oleg.page
      .getByTestId('composer-input')
      .waitFor()
      .catch(async (err) => {
        await screenshot(oleg.page, 'workspace-failure-2');
        throw new Error(`${err}\n${oleg.errors.join('\n')}`);
      });
    assert.equal(await oleg.page.getByTestId('composer-input').isDisabled(), false);
    // An operator has no take-over button (and the server refuses: takeover.test.ts).
    assert.equal(await oleg.page.getByTestId('take-over').count(), 0);
    await oleg.page.waitForLoadState('networkidle');

    const sup = await openPage(browser, server.url);
    await signIn(sup.page, supervisorToken, `/admin/chats?filter=assigned&chat=${chatId}`);
    await sup.page.getByTestId('chat-channel').getByText('API').waitFor();
    await sup.page.getByTestId('take-over').click();
    await sup.page.getByText('You have taken over the chat').waitFor();
    const event = sup.page.locator('[data-testid="system-event"][data-kind="takeover"]');
    await event.getByText('took over the chat from').waitFor();
    assert.match((await event.textContent()) ?? '', /Oleg Operator/);
    assert.equal(await sup.page.getByTestId('composer-input').isDisabled(), false);
    await screenshot(sup.page, 'workspace-takeover', { toasts: false });

    // Oleg's screen follows live: he can no longer write.
    await oleg.page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement | null)?.disabled !==
        false,
      undefined,
      { timeout: 10_000 },
    );
    await screenshot(oleg.page, 'workspace-taken-from-operator', { toasts: false });
    assertNoErrors(oleg.errors, /Failed to load resource/);
    assertNoErrors(sup.errors, /Failed to load resource/);
    await oleg.context.close();
    await sup.context.close();

    // A phone: no horizontal overflow, in Russian.
    const phone = await openPage(browser, server.url, { width: 390 });
    await phone.page.goto('/not-found');
    await phone.page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(phone.page, supervisorToken, `/admin/chats?filter=assigned&chat=${chatId}`);
    await phone.page.getByTestId('composer-input').waitFor();
    await phone.page.getByTestId('day-separator').first().getByText('Сегодня').waitFor();
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= 390, `page is ${overflow} px wide`);
    await phone.page.getByTestId('emoji-button').click();
    await phone.page.getByTestId('emoji-picker').waitFor();
    await screenshot(phone.page, 'workspace-conversation-390-ru');
    assertNoErrors(phone.errors, /Failed to load resource/);
    await phone.context.close();
  });
});
