import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeVk } from '../server/test/fakes/vk.ts';
import {
  answer,
  channelHook,
  channelWorld,
  deliveryShown,
  nameAndTeam,
  openWaiting,
  takeChat,
} from './channel-fixture.ts';
import {
  assertAccessible,
  assertNoErrors,
  field,
  fieldError,
  openPage,
  screenshot,
  signIn,
  waitFor,
} from './harness.ts';

const world = channelWorld(
  async () => ({ vk: await startFakeVk() }),
  ({ vk }) => ({
    VK_API_BASE_URL: vk.baseUrl,
    VK_OAUTH_BASE_URL: vk.baseUrl,
    VK_APP_ID: vk.appId,
    VK_APP_SECRET: vk.appSecret,
  }),
);

describe('VK community bot channel pages', () => {
  test('the guide with VK login: a refused login is the toast; authorise, choose a community, authorise it, save', async () => {
    const { vk, browser, server, adminToken } = world;
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
    // The note names the community authorised (groups.getById with its token), not its id.
    await dialog
      .getByTestId('vk-community-authorised')
      .getByText('Community “Shop VK” authorised. Save to connect it; we set up its Callback API.')
      .waitFor();
    assert.equal(
      await dialog.getByTestId('vk-community-authorised').getByText(String(vk.groupId)).count(),
      0,
    );
    const byId = vk.calls.filter((c) => c.method === 'groups.getById').at(-1);
    assert.equal(byId?.params.group_id, String(vk.groupId));
    await nameAndTeam(page, dialog, 'Shop VK login');
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
    const { vk, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect VKontakte bot' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Choose the community: copy its ID (the number in club218123456)').waitFor();
    await assertAccessible(page, 'VK guide');
    await screenshot(page, 'channel-guide-vk-bot');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop VK');
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
    const { hook } = await channelHook(world, 'vk_bot', 'Shop VK');
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
    await openWaiting(page);
    assert.deepEqual(await vk.deliver(hook, vk.messageNew(555, { text: 'Hello, is the shop open?' })), {
      status: 200,
      text: 'ok',
    });
    await takeChat(page, 'id555', 'Hello, is the shop open?');
    await answer(page, 'Yes, until 21:00.');
    const sent = await waitFor(() => vk.sent.find((s) => s.params.message === 'Yes, until 21:00.'));
    assert.equal(sent.params.peer_id, '555');
    await deliveryShown(page, 'Yes, until 21:00.', 'sent');
    await screenshot(page, 'channel-vk-bot-chat');
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });
});
