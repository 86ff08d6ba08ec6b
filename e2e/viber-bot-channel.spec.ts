import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeViber } from '../server/test/fakes/viber.ts';
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
  async () => ({ vb: await startFakeViber() }),
  ({ vb }) => ({ VIBER_API_BASE_URL: vb.baseUrl }),
);

describe('Viber bot channel pages', () => {
  test('the admin connects a Viber bot through its guide, gets a message and answers it', async () => {
    const { vb, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect Viber bot' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Open the bot’s info and copy its authentication token').waitFor();
    await assertAccessible(page, 'Viber bot guide');
    await screenshot(page, 'channel-guide-viber-bot');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop Viber');
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
    const { hook } = await channelHook(world, 'viber_bot', 'Shop Viber');
    assert.equal(vb.webhook, hook, 'the webhook is set (Viber checked it first)');

    await openWaiting(page);
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
    await takeChat(page, 'Anna Volkova', 'Hello, is the shop open?');
    await answer(page, 'Yes, until 21:00.');
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
    await deliveryShown(page, 'Yes, until 21:00.', 'read');
    await screenshot(page, 'channel-viber-bot-chat');
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });
});
