import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeWhatsApp } from '../server/test/fakes/whatsapp.ts';
import { startFakeWhatsAppBsp } from '../server/test/fakes/whatsapp-bsp.ts';
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
  async () => ({ wa: await startFakeWhatsApp(), bsp: await startFakeWhatsAppBsp() }),
  ({ wa, bsp }) => ({ WHATSAPP_API_BASE_URL: wa.baseUrl, WHATSAPP_BSP_BASE_URL: bsp.baseUrl }),
);

describe('WhatsApp channel pages', () => {
  test('the admin connects WhatsApp through its guide, gets a message, answers it and sends a template after the session', async () => {
    const { wa, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect WhatsApp' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText('Create a Meta app of the Business type and add the WhatsApp product to it')
      .waitFor();
    await assertAccessible(page, 'WhatsApp guide');
    await screenshot(page, 'channel-guide-whatsapp');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop WhatsApp');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Phone number ID', 'Please fill in all required fields');
    await field(dialog, 'Phone number ID').fill(wa.phoneNumberId);
    await field(dialog, 'WhatsApp Business Account ID').fill(wa.wabaId);
    await field(dialog, 'Access token').fill('EAAGwrongwrongwrongwrongwrongwrong');
    await field(dialog, 'App secret').fill(wa.appSecret);
    await field(dialog, 'Verify token').fill('shop-verify-2026');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // Meta refuses the token (OAuthException 190): the field says so in our words.
    await fieldError(dialog, 'Access token', 'Incorrect token/ID specified');
    await field(dialog, 'Access token').fill(wa.accessToken);
    await dialog.getByRole('button', { name: 'Create' }).click();

    // After creation: the callback URL to paste in the Meta app.
    const created = page.getByRole('dialog', { name: 'Connect the webhook in Meta' });
    await created.waitFor();
    const { hook } = await channelHook(world, 'whatsapp', 'Shop WhatsApp');
    await created.getByTestId('whatsapp-callback-url').getByText(hook).waitFor();
    // The guide's dialog closes (its closing transition is a dialog without a title) before the check.
    await page.waitForFunction(() => document.querySelectorAll('[role=dialog]').length === 1);
    await assertAccessible(page, 'WhatsApp webhook set-up');
    await screenshot(page, 'channel-whatsapp-created', { toasts: false });
    await created.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('channel-Shop WhatsApp').getByText(wa.displayPhoneNumber).waitFor();
    assert.ok(wa.subscribed.has(wa.wabaId));

    // Meta checks the URL with the verify token, then posts signed messages.
    const check = await fetch(
      `${hook}?hub.mode=subscribe&hub.verify_token=shop-verify-2026&hub.challenge=4242`,
    );
    assert.equal(await check.text(), '4242');
    await openWaiting(page);
    const incoming = wa.message('79161234567', 'text', { text: { body: 'Do you deliver on Sunday?' } });
    const payload = wa.payload({
      contacts: [{ profile: { name: 'Olga Smirnova' }, wa_id: '79161234567' }],
      messages: [incoming],
    });
    assert.equal(await wa.deliver(hook, payload), 200);
    await takeChat(page, 'Olga Smirnova', 'Do you deliver on Sunday?');
    await page
      .getByTestId('session-open')
      .getByText(/WhatsApp session closes/)
      .waitFor();
    await answer(page, 'Yes, from 10 to 18.');
    const sent = await waitFor(() =>
      wa.sent.find((s) => (s.body.text as { body?: string } | undefined)?.body === 'Yes, from 10 to 18.'),
    );
    assert.equal(sent.body.to, '79161234567');
    // Meta reports it read: the message shows it.
    assert.equal(await wa.deliver(hook, wa.payload({ statuses: [wa.status(sent.wamid, 'read')] })), 200);
    await deliveryShown(page, 'Yes, from 10 to 18.', 'read');
    // WhatsApp cannot change a sent message: no edit for it (a note stays editable).
    assert.equal(
      await page
        .getByTestId('message')
        .filter({ hasText: 'Yes, from 10 to 18.' })
        .getByRole('button', { name: 'Edit message' })
        .count(),
      0,
    );
    await screenshot(page, 'channel-whatsapp-chat');

    // A day later (the browser's clock): the session has ended; only a template can be sent.
    wa.templates.push({
      id: '880001',
      name: 'delivery_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hello {{1}}, your delivery is on {{2}}' }],
    });
    await page.clock.setFixedTime(Date.now() + 25 * 3600_000);
    await page.reload();
    const ended = page.getByTestId('session-ended');
    await ended.getByText(/24-hour session ended/).waitFor();
    await assertAccessible(page, 'WhatsApp session ended');
    await screenshot(page, 'channel-whatsapp-session-ended');
    // Usable at 390 px: the notice wraps, its button stays reachable.
    await page.setViewportSize({ width: 390, height: 844 });
    await ended.getByRole('button', { name: 'WhatsApp templates' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'channel-whatsapp-session-ended-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await ended.getByRole('button', { name: 'WhatsApp templates' }).click();
    const picker = page.getByRole('dialog', { name: 'WhatsApp templates' });
    await picker.getByRole('radio', { name: /delivery_update/ }).check();
    await field(picker, 'Variable 1').fill('Olga');
    await picker.getByRole('button', { name: 'Send' }).click();
    await fieldError(picker, 'Variable 2', 'Please fill in all required fields');
    await field(picker, 'Variable 2').fill('Sunday');
    await picker
      .getByTestId('provider-template-preview')
      .getByText('Hello Olga, your delivery is on Sunday')
      .waitFor();
    await assertAccessible(page, 'WhatsApp templates dialog');
    await screenshot(page, 'channel-whatsapp-templates');
    await picker.getByRole('button', { name: 'Send' }).click();
    await picker.waitFor({ state: 'detached' });
    const template = await waitFor(() => wa.sent.find((s) => s.body.type === 'template'));
    assert.deepEqual(template.body.template, {
      name: 'delivery_update',
      language: { code: 'en_US' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Olga' },
            { type: 'text', text: 'Sunday' },
          ],
        },
      ],
    });
    await page.getByTestId('message').getByText('Hello Olga, your delivery is on Sunday').waitFor();
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });

  test('the admin connects WhatsApp through a business solution provider, gets a message and answers it', async () => {
    const { bsp, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect WhatsApp' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('Business solution provider').click();
    await nameAndTeam(page, dialog, 'Shop WhatsApp BSP');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Provider login', 'Please fill in all required fields');
    await field(dialog, 'Phone number').fill(`+${bsp.waNumber}`);
    await field(dialog, 'Provider login').fill(bsp.login);
    await field(dialog, 'Password').fill('not-the-password');
    await assertAccessible(page, 'WhatsApp BSP fields');
    await screenshot(page, 'channel-whatsapp-bsp-form');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Password', 'Password specified incorrectly');
    await field(dialog, 'Password').fill(bsp.password);
    await dialog.getByRole('button', { name: 'Create' }).click();

    // After creation: the callback URL with its key, shown once, to paste in the provider's portal.
    const created = page.getByRole('dialog', { name: 'Connect the callback at the provider' });
    await created.waitFor();
    const shown = await created.getByTestId('whatsapp-callback-url').innerText();
    const hook = shown.match(/https?:\/\/\S+\?key=\S+/)?.[0] ?? '';
    assert.ok(hook.startsWith(`${server.url}/api/webhooks/whatsapp/`), shown);
    await page.waitForFunction(() => document.querySelectorAll('[role=dialog]').length === 1);
    await assertAccessible(page, 'WhatsApp BSP callback set-up');
    await screenshot(page, 'channel-whatsapp-bsp-created', { toasts: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'channel-whatsapp-bsp-created-390', { toasts: false });
    await page.setViewportSize({ width: 1440, height: 900 });
    await created.getByRole('button', { name: 'Done' }).click();
    bsp.callbackUrl = hook;

    await openWaiting(page, { empty: false });
    const incoming = bsp.message('447700900777', { text: 'Is my order ready?' }, 'Emma Brown');
    assert.equal(await bsp.deliver(incoming), 200);
    await takeChat(page, 'Emma Brown', 'Is my order ready?');
    await page
      .getByTestId('session-open')
      .getByText(/WhatsApp session closes/)
      .waitFor();
    // A business solution provider has no templates: its chat offers none (the DTO says so).
    assert.equal(await page.getByTestId('provider-templates-button').count(), 0);
    await answer(page, 'Yes, you can collect it today.');
    const sent = await waitFor(() => bsp.sent.find((m) => m.fields.msg === 'Yes, you can collect it today.'));
    assert.equal(sent.fields.send_to, '447700900777');
    assert.equal(await bsp.deliver(bsp.dlr(sent.id, 'READ')), 200);
    await deliveryShown(page, 'Yes, you can collect it today.', 'read');
    await screenshot(page, 'channel-whatsapp-bsp-chat');
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });
});
