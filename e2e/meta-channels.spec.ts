import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type FakeMeta, startFakeMeta } from '../server/test/fakes/meta.ts';
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
  waitFor,
} from './harness.ts';

let server: TestServer;
let browser: Browser;
let adminToken: string;
let meta: FakeMeta;

before(async () => {
  meta = await startFakeMeta();
  server = await startServer({
    env: {
      META_GRAPH_BASE_URL: meta.baseUrl,
      META_OAUTH_BASE_URL: meta.baseUrl,
      META_APP_ID: meta.appId,
      META_APP_SECRET: meta.appSecret,
      META_VERIFY_TOKEN: 'e2e-verify-token',
    },
  });
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await meta?.close();
});

describe('Instagram channel pages', () => {
  test('a refused login is the toast; the admin logs in with Facebook, chooses the account, gets a message and answers it', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    // Facebook's dialog and its redirects back to us are the browser's own navigations (not refetched by the harness).
    await context.route(`${meta.baseUrl}/**`, (route) => route.continue());
    await signIn(page, adminToken, '/admin/preferences/channels');
    const open = async () => {
      await page.getByRole('button', { name: 'Connect Instagram' }).click();
      const dialog = page.getByRole('dialog');
      await dialog
        .getByText('Switch the Instagram account to a business account', { exact: false })
        .waitFor();
      await dialog.getByRole('button', { name: 'Next' }).click();
      return dialog;
    };
    meta.refuseLogin = true;
    let dialog = await open();
    await dialog.getByRole('button', { name: 'Log in with Facebook' }).click();
    await page.getByText('Instagram access denied (retry login later)').waitFor();
    meta.refuseLogin = false;

    dialog = await open();
    await assertAccessible(page, 'Instagram guide');
    await dialog.getByRole('button', { name: 'Log in with Facebook' }).click();
    // Back from Facebook: the guide opens at its settings with the login's accounts.
    dialog = page.getByRole('dialog');
    await dialog.getByText('You are logged in: choose the account to connect').waitFor();
    await field(dialog, 'Name').fill('Shop Instagram');
    await field(dialog, 'Team').click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await field(dialog, 'Instagram account').click();
    await page.getByRole('option', { name: `${meta.pageName} · @${meta.igUsername}` }).click();
    await assertAccessible(page, 'Instagram account choice');
    await screenshot(page, 'channel-guide-instagram');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('channel-Shop Instagram').getByText(`@${meta.igUsername}`).waitFor();
    assert.ok(meta.subscribed.has(meta.pageId));
    const list = await apiCall(server.url, 'GET', '/api/channels', undefined, adminToken);
    const id = list.body.entity.items.find((c: { name: string }) => c.name === 'Shop Instagram').id;
    const hook = `${server.url}/api/webhooks/instagram/${id}`;

    await page.goto('/admin/chats?filter=waiting');
    await page.getByText('Nobody is waiting').waitFor();
    await page.waitForLoadState('networkidle');
    const ask = meta.message('instagram', '9001', { text: 'Is the red dress in stock?' });
    assert.equal(await meta.deliver(hook, meta.payload('instagram', [ask])), 200);
    const row = page.getByTestId('chat-row').filter({ hasText: 'Instagram 9001' });
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page.getByTestId('message').getByText('Is the red dress in stock?').waitFor();
    await page.getByRole('button', { name: 'Take' }).click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    // The 24-hour messaging window, shown like WhatsApp's; Instagram has no templates to offer.
    await page
      .getByTestId('session-open')
      .getByText(/Instagram messaging window closes/)
      .waitFor();
    assert.equal(await page.getByTestId('provider-templates-button').count(), 0);
    const box = page.getByRole('textbox', { name: 'Write a message' });
    await box.fill('Yes, in all sizes.');
    await box.press('Enter');
    const sent = await waitFor(() =>
      meta.sent.find((s) => (s.body.message as { text?: string }).text === 'Yes, in all sizes.'),
    );
    assert.deepEqual(sent.body.recipient, { id: '9001' });
    await screenshot(page, 'channel-instagram-chat');
    assertNoErrors(errors, /status of 4\d\d/);
    await context.close();
  });
});
