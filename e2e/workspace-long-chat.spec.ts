// A long conversation is virtualised (issue 12): a chat of a few thousand messages opens at its newest page, older
// pages load on scroll-up without the view jumping, and however many pages are loaded the DOM holds only the rows
// around the view.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertNoErrors,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
} from './harness.ts';

const LONG = 2500;
/** Rows drawn at most: the view (~600 px) and 900 px above and below it, at ~40–90 px a row. */
const MAX_ROWS = 70;

let server: TestServer;
let browser: Browser;
let chatId: string;
let olegToken: string;

const label = (n: number) => `Long chat line ${String(n).padStart(4, '0')}`;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  olegToken = await apiLogin(server.url, 'operator1@demo.local', server.passwords['operator1@demo.local']);
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
  const list = Array.isArray(teams.body.entity) ? teams.body.entity : teams.body.entity.items;
  const sales = list.find((t: { name: string }) => t.name === 'Sales');
  const ch = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'Long API', teamId: sales.id, webhookUrl: 'http://127.0.0.1:9/none' },
    adminToken,
  );
  assert.equal(ch.status, 200, JSON.stringify(ch.body));
  const inbound = (n: number) =>
    fetch(`${server.url}/api/channels/${ch.body.entity.id}/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ch.body.entity.inboundKey}` },
      body: JSON.stringify({
        externalMessageId: `long-${n}`,
        client: { externalId: 'long-client', name: 'Lena Long' },
        text: label(n),
      }),
    });
  const first = await inbound(1);
  chatId = ((await first.json()) as { entity: { chatId: string } }).entity.chatId;
  const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, adminToken);
  if (chat.body.entity.operator?.id === undefined)
    assert.equal(
      (await apiCall(server.url, 'POST', `/api/chats/${chatId}/take`, undefined, olegToken)).status,
      200,
    );
  // One after another, so the conversation's order is the numbers'.
  for (let n = 2; n <= LONG; n++) assert.equal((await inbound(n)).status, 200);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const state = (page: Page) =>
  page.getByTestId('message-list').evaluate((el) => ({
    loaded: Number(el.getAttribute('data-loaded')),
    rows: el.querySelectorAll('[data-testid="message"]').length,
    top: el.scrollTop,
    atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < 4,
  }));

describe('operator workspace: a long conversation', () => {
  test(`a chat of ${LONG} messages: newest first, older pages on scroll-up, a bounded DOM`, async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, olegToken, `/admin/chats?filter=assigned&chat=${chatId}`);
    const list = page.getByTestId('message-list');
    await list.getByText(label(LONG), { exact: true }).waitFor();
    let s = await state(page);
    assert.equal(s.loaded, 50, 'the newest page only');
    assert.ok(s.atBottom, 'opened at the newest message');
    assert.ok(s.rows < 50, `only the rows around the view are drawn (${s.rows} of 50)`);

    // Scroll up page after page: each older page loads, the view stays where it was, the DOM stays bounded.
    for (let i = 1; i <= 10; i++) {
      await list.evaluate((el) => {
        el.scrollTop = 0;
      });
      await page.waitForFunction(
        (n) =>
          Number(document.querySelector('[data-testid="message-list"]')?.getAttribute('data-loaded')) >= n,
        50 * (i + 1),
      );
      await page.waitForTimeout(150);
      s = await state(page);
      assert.ok(s.top > 100, `page ${i + 1}: the view jumped to the top (${s.top})`);
      assert.ok(s.rows <= MAX_ROWS, `page ${i + 1}: ${s.rows} message rows in the DOM`);
    }
    assert.ok(s.loaded >= 550, `${s.loaded} loaded`);
    // The rows in view are the older ones just loaded above the first page; the newest are not in the DOM.
    const oldestLoaded = LONG - s.loaded + 1;
    await list.getByText(label(oldestLoaded + 50), { exact: true }).waitFor();
    assert.equal(await list.getByText(label(LONG), { exact: true }).count(), 0);
    await screenshot(page, 'workspace-long-chat-scrolled');

    // Back to the end: the newest message is drawn again, still a bounded DOM.
    await list.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await list.getByText(label(LONG), { exact: true }).waitFor();
    s = await state(page);
    assert.ok(s.rows <= MAX_ROWS, `${s.rows} message rows in the DOM at the end`);
    assertNoErrors(errors);
    await context.close();
  });
});
