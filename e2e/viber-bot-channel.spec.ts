import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type FakeViber, startFakeViber } from '../server/test/fakes/viber.ts';
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
let vb: FakeViber;

before(async () => {
  vb = await startFakeViber();
  server = await startServer({ env: { VIBER_API_BASE_URL: vb.baseUrl } });
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await vb?.close();
});

describe('Viber bot channel pages', () => {
  test('the admin connects a Viber bot through its guide, gets a message and answers it', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect Viber bot' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Open the bot’s info and copy its authentication token').waitFor();
    await assertAccessible(page, 'Viber bot guide');
    await screenshot(page, 'channel-guide-viber-bot');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await field(dialog, 'Name').fill('Shop Viber');
    await field(dialog, 'Team').click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await field(dialog, 'Authentication token').fill('4453b6ac12345678-e02c5f12174805f9-00000000000000aa');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Authentication token', 'Incorrect token/ID specified');
    await field(dialog, 'Authentication token').fill(vb.token);
    // The bot's photo (§3 'photo (jpg)'): a drop zone taking JPEG only.
    await dialog.getByTestId('avatar-drop').waitFor();
    await assertAccessible(page, 'Viber bot fields');
    await screenshot(page, 'channel-form-viber-bot');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'channel-form-viber-bot-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('channel-Shop Viber').getByText('viber://pa?chatURI=shopviber').waitFor();
    const list = await apiCall(server.url, 'GET', '/api/channels', undefined, adminToken);
    const id = list.body.entity.items.find((c: { name: string }) => c.name === 'Shop Viber').id;
    const hook = `${server.url}/api/webhooks/viber_bot/${id}`;
    assert.equal(vb.webhook, hook, 'the webhook is set (Viber checked it first)');

    await page.goto('/admin/chats?filter=waiting');
    await page.getByText('Nobody is waiting').waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(
      await vb.deliver(
        hook,
        vb.message(
          { id: 'vb-user-1=', name: 'Anna Volkova' },
          { type: 'text', text: 'Hello, is the shop open?' },
        ),
      ),
      200,
    );
    const row = page.getByTestId('chat-row').filter({ hasText: 'Anna Volkova' });
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page.getByTestId('message').getByText('Hello, is the shop open?').waitFor();
    await page.getByRole('button', { name: 'Take' }).click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    const box = page.getByRole('textbox', { name: 'Write a message' });
    await box.fill('Yes, until 21:00.');
    await box.press('Enter');
    const sent = await waitFor(() => vb.sent.find((s) => s.body.text === 'Yes, until 21:00.'));
    assert.equal(sent.body.receiver, 'vb-user-1=');
    assert.equal(
      await vb.deliver(hook, {
        event: 'seen',
        timestamp: Date.now(),
        user_id: 'vb-user-1=',
        message_token: sent.token,
      }),
      200,
    );
    await page
      .getByTestId('message')
      .filter({ hasText: 'Yes, until 21:00.' })
      .locator('[data-testid="delivery"][data-status="read"]')
      .waitFor();
    await screenshot(page, 'channel-viber-bot-chat');
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });
});
