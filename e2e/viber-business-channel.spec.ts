import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeViberBusiness } from '../server/test/fakes/viber-business.ts';
import {
  answer,
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
  async () => ({ vb: await startFakeViberBusiness() }),
  ({ vb }) => ({ VIBER_BUSINESS_RU_BASE_URL: vb.baseUrl }),
);

describe('Viber business channel pages', () => {
  test('the admin connects Viber business through its guide, gets a message and answers it', async () => {
    const { vb, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect Viber (business)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Get from the provider the login and password of the API account').waitFor();
    await assertAccessible(page, 'Viber business guide');
    await screenshot(page, 'channel-guide-viber-business');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop Viber business');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Provider login', 'Please fill in all required fields');
    await field(dialog, 'Provider login').fill(vb.login);
    await field(dialog, 'Provider password').fill('wrong-password');
    await field(dialog, 'Viber service ID').fill(vb.serviceId);
    await field(dialog, 'Phone').fill('+7 495 123-45-67');
    await assertAccessible(page, 'Viber business fields');
    await screenshot(page, 'channel-form-viber-business');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Provider password', 'Password specified incorrectly');
    await field(dialog, 'Provider password').fill(vb.password);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('channel-Shop Viber business').getByText('+74951234567').waitFor();
    assert.match(vb.callback?.url ?? '', /\/api\/webhooks\/viber\/[0-9a-f-]{36}$/, 'the callback is set');

    await openWaiting(page);
    assert.equal(
      await vb.deliver(
        vb.message('+375 29 123-45-67', { text: 'Добрый день, доставка есть?' }, 'Olga Ivanova'),
      ),
      200,
    );
    await takeChat(page, 'Olga Ivanova', 'Добрый день, доставка есть?');
    await answer(page, 'Yes, tomorrow from 10:00.');
    const sent = await waitFor(() => vb.sent.find((s) => s.body.text === 'Yes, tomorrow from 10:00.'));
    assert.equal(sent.body.phone, '375291234567');
    assert.equal(await vb.deliver(vb.status(sent.messageId, 'read')), 200);
    await deliveryShown(page, 'Yes, tomorrow from 10:00.', 'read');
    await screenshot(page, 'channel-viber-business-chat');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'channel-viber-business-chat-390');
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });
});
