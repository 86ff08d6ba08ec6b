// Event webhooks (issue 34) at /admin/preferences/extensions: the empty list, the form's field errors, an endpoint pointing at
// a receiver on this machine with its secret shown once, a test event and a real event (a client's message through
// an API channel) in the delivery log with their answer codes, sent again; the screen in Russian at 390 px.
// Checked with axe-core and looked at in screenshots.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
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
  waitFor,
} from './harness.ts';

let server: TestServer;
let browser: Browser;
let adminToken: string;
let receiver: Server;
let receiverUrl: string;
const received: { type: string; signature: string }[] = [];

before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({
        type: JSON.parse(body || '{}').type,
        signature: String(req.headers['smartconnect-signature'] ?? ''),
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('event webhooks', () => {
  test('(a) an endpoint is added, gets a test event and a real one, and its log shows them', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/extensions');
    await page.getByText('No endpoints yet').waitFor();
    await screenshot(page, 'webhooks-empty', { toasts: false });
    await assertAccessible(page, 'Event webhooks, empty');

    await page.getByTestId('webhook-add').click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await fieldError(drawer, 'URL', 'Value specified incorrectly');
    await field(drawer, 'URL').fill(receiverUrl);
    await field(drawer, 'Description').fill('CRM events');
    await drawer.getByLabel('Chat created').check();
    await drawer.getByLabel('Message created').check();
    await screenshot(page, 'webhooks-form', { toasts: false });
    await assertAccessible(page, 'Event webhooks, form');
    await drawer.getByRole('button', { name: 'Create' }).click();

    const secret = page.getByTestId('webhook-secret');
    await secret.waitFor();
    assert.match((await secret.innerText()).trim(), /^whsec_[A-Za-z0-9_-]{40,}$/);
    await screenshot(page, 'webhooks-secret', { toasts: false });
    await assertAccessible(page, 'Event webhooks, secret');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    const row = page.getByTestId('webhook-endpoint-row').filter({ hasText: receiverUrl });
    await row.waitFor();

    // A test event from the row.
    await row.getByRole('button', { name: /^Send a test event to / }).click();
    await page.getByText('Test event delivered: answer 200').waitFor();

    // A real event: a client's message through an API channel.
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
    const teamId = teams.body.entity.items[0].id;
    const channel = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      { type: 'api', name: 'Shop API', teamId, webhookUrl: 'http://127.0.0.1:9/unused' },
      adminToken,
    );
    assert.equal(channel.status, 200, JSON.stringify(channel.body));
    const sent = await apiCall(
      server.url,
      'POST',
      `/api/channels/${channel.body.entity.id}/inbound`,
      { externalMessageId: 'e2e-hook-1', client: { externalId: 'c-1', name: 'Ann' }, text: 'Hello hooks' },
      channel.body.entity.inboundKey,
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await waitFor(() => received.find((r) => r.type === 'message.created'));
    assert.ok(received.every((r) => /^t=\d+,v1=[0-9a-f]{64}$/.test(r.signature)));

    await row.getByRole('button', { name: /^Delivery log of / }).click();
    const log = page.getByTestId('webhook-deliveries');
    await log.waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="webhook-delivery-row"]').length >= 3,
      undefined,
      { timeout: 15_000 },
    );
    const messageRow = page.getByTestId('webhook-delivery-row').filter({ hasText: 'Message created' });
    await messageRow.getByText('Delivered').waitFor();
    assert.equal((await messageRow.getByTestId('webhook-delivery-code').innerText()).trim(), '200');
    await screenshot(page, 'webhooks-log', { toasts: false });
    await assertAccessible(page, 'Event webhooks, delivery log');
    const before = received.length;
    await messageRow.getByRole('button', { name: 'Send again: Message created' }).click();
    await page.getByText('Sent again: Delivered').waitFor();
    assert.equal(received.length, before + 1);
    assertNoErrors(errors);
    await context.close();
  });

  test('(b) the screen in Russian at 390 px', async () => {
    const { page, errors, context } = await openPage(browser, server.url, { width: 390, height: 844 });
    await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, '/admin/preferences/extensions');
    await page.getByText('Вебхуки событий').first().waitFor();
    await page.getByTestId('webhook-endpoint-row').first().waitFor();
    await screenshot(page, 'webhooks-ru-390', { toasts: false });
    await assertAccessible(page, 'Event webhooks, Russian, 390 px');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    // The log and the form open from the keyboard.
    await page
      .getByRole('button', { name: /^Журнал доставок / })
      .first()
      .focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('webhook-deliveries').waitFor();
    await page.getByText('Доставлено').first().waitFor();
    await screenshot(page, 'webhooks-ru-390-log', { toasts: false });
    await assertAccessible(page, 'Event webhooks log, Russian, 390 px');
    await page.keyboard.press('Escape');
    await page.getByTestId('webhook-add').focus();
    await page.keyboard.press('Enter');
    await page.getByText('Новый адрес').waitFor();
    await screenshot(page, 'webhooks-ru-390-form', { toasts: false });
    await assertAccessible(page, 'Event webhooks form, Russian, 390 px');
    assertNoErrors(errors);
    await context.close();
  });
});
