import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeDevino } from '../server/test/fakes/devino.ts';
import { startFakeSmsBy } from '../server/test/fakes/smsby.ts';
import { answer, channelWorld, nameAndTeam, openWaiting, takeChat } from './channel-fixture.ts';
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
  async () => ({ devino: await startFakeDevino(), smsby: await startFakeSmsBy() }),
  ({ devino, smsby }) => ({ DEVINO_VIBER_API_BASE_URL: devino.baseUrl, SMSBY_API_BASE_URL: smsby.baseUrl }),
);

describe('Viber business channel pages', () => {
  test('the guide in Russian names both providers and Viber’s restriction in Russia', async () => {
    const { browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.reload();
    await page.getByRole('button', { name: /Viber \(бизнес\)/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Россия: заключите договор на Viber с Devino Telecom/).waitFor();
    await dialog.getByText(/Беларусь: в кабинете SMS.by/).waitFor();
    await dialog.getByText(/С декабря 2024 года доступ к Viber в России ограничен/).waitFor();
    await assertAccessible(page, 'Viber business guide (Russian)');
    await screenshot(page, 'channel-guide-viber-business-ru');
    assertNoErrors(errors);
    await context.close();
  });

  test('the admin connects Viber for Russia through Devino, gets a reply and answers it', async () => {
    const { devino, browser, server, adminToken } = world;
    devino.reach = (url) => url.replace(/^https?:\/\/[^/]+/, server.url);
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect Viber (business)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Russia: sign a Viber contract with Devino Telecom/).waitFor();
    await dialog.getByText(/Viber has been restricted in Russia since December 2024/).waitFor();
    await assertAccessible(page, 'Viber business guide');
    await screenshot(page, 'channel-guide-viber-business');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop Viber business');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Provider login', 'Please fill in all required fields');
    await field(dialog, 'Provider login').fill(devino.login);
    await field(dialog, 'Provider password').fill('wrong-password');
    await field(dialog, 'Viber service ID').fill(devino.subject);
    await field(dialog, 'Phone').fill('+7 495 123-45-67');
    await dialog
      .getByRole('switch', { name: 'Send as SMS when Viber is not delivered' })
      .check({ force: true });
    await field(dialog, 'SMS sender name').fill(devino.smsSender);
    await assertAccessible(page, 'Viber business fields');
    await screenshot(page, 'channel-form-viber-business');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Provider password', 'Password specified incorrectly');
    await field(dialog, 'Provider password').fill(devino.password);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const replyUrl = (await page.getByTestId('viber-reply-url').innerText()).trim();
    assert.match(replyUrl, /\/api\/webhooks\/viber\/[0-9a-f-]{36}\?key=.+$/, 'the reply address, once');
    await page.getByRole('button', { name: 'I have saved the key' }).click();
    await page.getByTestId('channel-Shop Viber business').getByText('+74951234567').waitFor();

    await openWaiting(page);
    assert.equal(
      await devino.reply([devino.replyItem('79161234567', 'Добрый день, доставка есть?')], replyUrl),
      200,
    );
    await takeChat(page, '79161234567', 'Добрый день, доставка есть?');
    await answer(page, 'Yes, tomorrow from 10:00.');
    const sent = await waitFor(() =>
      devino.sent.find((s) => (s.message.content as { text?: string }).text === 'Yes, tomorrow from 10:00.'),
    );
    assert.equal(sent.message.address, '79161234567');
    assert.equal(sent.resendSms, true);
    assert.equal(sent.message.smsSrcAddress, devino.smsSender);
    await screenshot(page, 'channel-viber-business-chat');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'channel-viber-business-chat-390');
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });
});
