import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type FakeVk, startFakeVk } from '../server/test/fakes/vk.ts';
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
let vk: FakeVk;

before(async () => {
  vk = await startFakeVk();
  server = await startServer({
    env: {
      VK_API_BASE_URL: vk.baseUrl,
      VK_OAUTH_BASE_URL: vk.baseUrl,
      VK_APP_ID: vk.appId,
      VK_APP_SECRET: vk.appSecret,
    },
  });
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await vk?.close();
});

describe('VK community bot channel pages', () => {
  test('the guide with VK login: a refused login is the toast; authorise, choose a community, authorise it, save', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    // VK's dialog and its redirects back to us are the browser's own navigations.
    await context.route(`${vk.baseUrl}/**`, (route) => route.continue());
    await signIn(page, adminToken, '/admin/preferences/channels');
    const open = async () => {
      await page.getByRole('button', { name: 'Connect VKontakte bot' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Next' }).click();
      return dialog;
    };
    vk.deny = true;
    let dialog = await open();
    await dialog.getByText('Save: we set up the Callback API in the community for you').waitFor();
    await dialog.getByRole('button', { name: 'Log in with VK' }).click();
    await page.getByText('VK access denied (retry login later)').waitFor();
    vk.deny = false;

    dialog = await open();
    await assertAccessible(page, 'VK login');
    await screenshot(page, 'channel-vk-bot-login');
    await dialog.getByRole('button', { name: 'Log in with VK' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByText('Logged in with VK. Choose the community to connect:').waitFor();
    await field(dialog, 'Community').click();
    await page.getByRole('option', { name: 'Shop VK · vk.com/shopvk' }).click();
    await assertAccessible(page, 'VK community choice');
    await screenshot(page, 'channel-vk-bot-choose');
    await dialog.getByRole('button', { name: 'Authorise the community' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByTestId('vk-community-authorised').waitFor();
    await field(dialog, 'Name').fill('Shop VK login');
    await field(dialog, 'Team').click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await assertAccessible(page, 'VK community authorised');
    const wide = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'channel-vk-bot-authorised-390');
    if (wide) await page.setViewportSize(wide);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('channel-Shop VK login').getByText('vk.com/shopvk').waitFor();
    const server0 = vk.callbackServers.at(-1);
    assert.ok(server0?.url.includes('/api/webhooks/vk_bot/'));
    assert.equal(server0?.settings.message_new, '1');
    assertNoErrors(errors);
    await page.close();
  });

  test('the admin connects a VK community through its guide, VK confirms the server, a message is answered', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect VKontakte bot' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Choose the community: copy its ID (the number in club218123456)').waitFor();
    await assertAccessible(page, 'VK guide');
    await screenshot(page, 'channel-guide-vk-bot');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await field(dialog, 'Name').fill('Shop VK');
    await field(dialog, 'Team').click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Community access token', 'Please fill in all required fields');
    await field(dialog, 'Community access token').fill(`vk1.a.${'0'.repeat(80)}`);
    await field(dialog, 'Community ID').fill(String(vk.groupId));
    await field(dialog, 'Confirmation string').fill(vk.confirmation);
    await field(dialog, 'Secret key').fill(vk.secret);
    await dialog.getByRole('button', { name: 'Create' }).click();
    // VK refuses the token (error 5): the field says so in our words.
    await fieldError(dialog, 'Community access token', 'Incorrect token/ID specified');
    await field(dialog, 'Community access token').fill(vk.token);
    // The form at 390 px: every field reachable, nothing cut off.
    const wide = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await field(dialog, 'Secret key').scrollIntoViewIfNeeded();
    await screenshot(page, 'channel-vk-bot-form-390');
    if (wide) await page.setViewportSize(wide);
    await dialog.getByRole('button', { name: 'Create' }).click();

    const created = page.getByRole('dialog', { name: 'Add the server in VK' });
    await created.waitFor();
    const list = await apiCall(server.url, 'GET', '/api/channels', undefined, adminToken);
    const id = list.body.entity.items.find((c: { name: string }) => c.name === 'Shop VK').id;
    const hook = `${server.url}/api/webhooks/vk_bot/${id}`;
    await created.getByTestId('vk-callback-url').getByText(hook).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[role=dialog]').length === 1);
    await assertAccessible(page, 'VK Callback API set-up');
    await screenshot(page, 'channel-vk-bot-created', { toasts: false });
    await created.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('channel-Shop VK').getByText('vk.com/shopvk').waitFor();

    // VK confirms the server with our answer, then posts events.
    assert.deepEqual(await vk.deliver(hook, { type: 'confirmation', secret: undefined }), {
      status: 200,
      text: vk.confirmation,
    });
    await page.goto('/admin/chats?filter=waiting');
    await page.getByText('Nobody is waiting').waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(await vk.deliver(hook, vk.messageNew(555, { text: 'Hello, is the shop open?' })), {
      status: 200,
      text: 'ok',
    });
    const row = page.getByTestId('chat-row').filter({ hasText: 'id555' });
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page.getByTestId('message').getByText('Hello, is the shop open?').waitFor();
    await page.getByRole('button', { name: 'Take' }).click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    const box = page.getByRole('textbox', { name: 'Write a message' });
    await box.fill('Yes, until 21:00.');
    await box.press('Enter');
    const sent = await waitFor(() => vk.sent.find((s) => s.params.message === 'Yes, until 21:00.'));
    assert.equal(sent.params.peer_id, '555');
    await page
      .getByTestId('message')
      .filter({ hasText: 'Yes, until 21:00.' })
      .locator('[data-testid="delivery"][data-status="sent"]')
      .waitFor();
    await screenshot(page, 'channel-vk-bot-chat');
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });
});
