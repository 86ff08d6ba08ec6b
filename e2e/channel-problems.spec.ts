import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
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
let provider: Server;
let providerUrl: string;

before(async () => {
  // A provider that refuses the channel's credentials on every call.
  provider = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = 401;
      res.end('{"error":"unauthorized"}');
    });
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  const address = provider.address();
  providerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  provider?.closeAllConnections();
  await new Promise<void>((r) => provider?.close(() => r()));
});

/** Waits until the organisation has an open channel problem (the outbox delivers after the send answers). */
async function problemOpens() {
  for (let i = 0; i < 100; i++) {
    const list = await apiCall(server.url, 'GET', '/api/channels/problems', undefined, adminToken);
    if (list.body.entity.items.length) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no channel problem opened');
}

/** Blinking alternates the title with 'Problem detected!' every second: seen within a few seconds. */
async function titleBlinks(page: Page, text: string) {
  await page.waitForFunction((t) => document.title === t, text, { timeout: 5000 });
}

describe("'Problem detected!'", () => {
  test('a channel whose provider refuses the token: the banner names it, the title blinks, dismiss clears it', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin');
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
    const support = teams.body.entity.items.find((x: { name: string }) => x.name === 'Support');
    const created = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      { type: 'api', name: 'Refusing shop', teamId: support.id, webhookUrl: providerUrl },
      adminToken,
    );
    const ch = created.body.entity;
    const op = await apiLogin(server.url, 'operator2@demo.local', server.passwords['operator2@demo.local']);
    await apiCall(server.url, 'PATCH', '/api/presence', { status: 'online' }, op);
    const pushed = await apiCall(
      server.url,
      'POST',
      `/api/channels/${ch.id}/inbound`,
      { externalMessageId: 'p-1', client: { externalId: 'c-p1', name: 'Pat Client' }, text: 'Hello' },
      ch.inboundKey,
    );
    const chatId = pushed.body.entity.chatId;
    const sent = await apiCall(server.url, 'POST', `/api/chats/${chatId}/messages`, { text: 'Hi!' }, op);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await problemOpens();

    // Pushed over realtime: the open page shows it without a reload.
    const banner = page.getByTestId('problems-banner');
    await banner.getByText('Problem detected!').waitFor();
    await banner.getByText(/the provider refused the channel’s token/).waitFor();
    await titleBlinks(page, 'Problem detected!');
    await screenshot(page, 'problem-detected', { toasts: false });
    await assertAccessible(page, 'problem banner');

    // An operator (no channels right) sees no banner.
    const opPage = await context.newPage();
    await signIn(opPage, op, '/admin');
    await opPage.getByRole('navigation').first().waitFor();
    assert.equal(await opPage.getByTestId('problems-banner').count(), 0);
    await opPage.close();

    // The link opens the channel.
    await banner.getByRole('link', { name: /Refusing shop/ }).click();
    await page.waitForURL(new RegExp(`/admin/preferences/channels/${ch.id}`));

    // Dismissed: the banner goes and the title stops blinking.
    await page.getByRole('button', { name: /Dismiss the problem of \W?Refusing shop/ }).click();
    await banner.waitFor({ state: 'hidden' });
    await page.waitForTimeout(1200);
    assert.notEqual(await page.title(), 'Problem detected!');
    assertNoErrors(errors);
    await context.close();
  });

  test('at 390 px in Russian', async () => {
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
    const support = teams.body.entity.items.find((x: { name: string }) => x.name === 'Support');
    const created = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      { type: 'api', name: 'Магазин', teamId: support.id, webhookUrl: providerUrl },
      adminToken,
    );
    const ch = created.body.entity;
    const op = await apiLogin(server.url, 'operator2@demo.local', server.passwords['operator2@demo.local']);
    const pushed = await apiCall(
      server.url,
      'POST',
      `/api/channels/${ch.id}/inbound`,
      { externalMessageId: 'p-2', client: { externalId: 'c-p2', name: 'Пётр' }, text: 'Привет' },
      ch.inboundKey,
    );
    await apiCall(server.url, 'POST', `/api/chats/${pushed.body.entity.chatId}/messages`, { text: 'Да' }, op);
    await problemOpens();
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, '/admin');
    const banner = page.getByTestId('problems-banner');
    await banner.getByText('Обнаружена проблема!').waitFor();
    await banner.getByText(/Магазин.*провайдер отклонил токен канала/).waitFor();
    await titleBlinks(page, 'Обнаружена проблема!');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'no sideways scrolling at 390 px');
    await screenshot(page, 'problem-detected-390-ru', { toasts: false });
    await assertAccessible(page, 'problem banner 390 px');
    assertNoErrors(errors);
    await context.close();
  });
});
