import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type FakeTelegram, startFakeTelegram } from '../server/test/fakes/telegram.ts';
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
let tg: FakeTelegram;

before(async () => {
  tg = await startFakeTelegram();
  server = await startServer({ env: { TELEGRAM_API_BASE_URL: tg.baseUrl } });
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await tg?.close();
});

/** Opens a type's guide from the available channels and goes on to its fields. */
async function openGuide(page: Page, type: string) {
  await page.getByRole('button', { name: `Connect ${type}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('guide-steps').waitFor();
  return dialog;
}

async function chooseTeam(page: Page, team: string) {
  await field(page.getByRole('dialog'), 'Team').click();
  await page.getByRole('option', { name: team }).click();
}

const channelId = async (name: string): Promise<string> => {
  const list = await apiCall(server.url, 'GET', '/api/channels', undefined, adminToken);
  const found = list.body.entity.items.find((c: { name: string }) => c.name === name);
  assert.ok(found, `no channel ${name}`);
  return found.id;
};

describe('channel pages', () => {
  test('the admin connects an API channel through its guide; the key is shown once; duplicates are refused', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    // Demo starts with its website chat, ready to try.
    await page.getByText('Website chat').first().waitFor();
    // A type without an adapter is a disabled card, not a form.
    await page.getByTestId('channel-types').getByText('VOIP').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Connect VOIP' }).count(), 0);
    // The type without an adapter yet (voice).
    assert.ok((await page.getByText('Coming soon').count()) >= 1);
    assert.equal(await page.getByRole('button', { name: 'Connect Mobile app' }).count(), 1);
    await screenshot(page, 'channels-available');

    const dialog = await openGuide(page, 'API');
    await screenshot(page, 'channel-guide-api');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Name', 'Please fill in all required fields');
    await fieldError(dialog, 'Webhook URL', 'Please fill in all required fields');
    await field(dialog, 'Name').fill('Shop API');
    await chooseTeam(page, 'Sales');
    await field(dialog, 'Webhook URL').fill('javascript:alert(1)');
    await field(dialog, 'Half-expired after, minutes').fill('30');
    await field(dialog, 'Expired after, minutes').fill('10');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Webhook URL', 'Value specified incorrectly');
    await fieldError(dialog, 'Expired after, minutes', 'Time specified incorrectly');
    await field(dialog, 'Expired after, minutes').fill('60');
    // The server refuses a private address (OUTBOUND_ALLOWED_NETWORKS opens only 127.0.0.0/8 here).
    await field(dialog, 'Webhook URL').fill('http://10.1.2.3/hook');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Webhook URL', 'Local and private network addresses are not allowed');
    await screenshot(page, 'channel-guide-api-errors');
    await field(dialog, 'Webhook URL').fill('http://127.0.0.1:9/hook');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const key = (await page.getByTestId('inbound-key').textContent())?.trim() ?? '';
    assert.ok(key.length > 10, key);
    await screenshot(page, 'channel-api-key');
    await page.getByRole('button', { name: 'I have saved the key' }).click();
    const row = page.getByTestId('channel-Shop API');
    await row.waitFor();
    await row.getByText('http://127.0.0.1:9/hook').waitFor();
    await row.getByText('No messages yet').waitFor();
    assert.equal(await page.getByTestId('inbound-key').count(), 0);

    // The same name again: §8 'Channel already exists'.
    const again = await openGuide(page, 'API');
    await again.getByRole('button', { name: 'Next' }).click();
    await field(again, 'Name').fill('shop api');
    await chooseTeam(page, 'Sales');
    await field(again, 'Webhook URL').fill('http://127.0.0.1:9/other');
    await again.getByRole('button', { name: 'Create' }).click();
    await page.locator('.mantine-Notification-root').getByText('Channel already exists').waitFor();
    await fieldError(again, 'Name', 'Channel already exists');
    await again.getByRole('button', { name: 'Back' }).click();
    await again.getByRole('button', { name: 'Cancel' }).click();
    await screenshot(page, 'channels-api', { toasts: false });
    assertNoErrors(errors);
    await context.close();
  });

  test('the admin connects a Telegram bot through its guide, gets a message and answers it from the chat center', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    const dialog = await openGuide(page, 'Telegram');
    await dialog.getByText('Open @BotFather in Telegram (t.me/BotFather).').waitFor();
    await dialog.getByText(/reachable over HTTPS/).waitFor();
    await screenshot(page, 'channel-guide-telegram');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await field(dialog, 'Name').fill('Shop bot');
    await chooseTeam(page, 'Sales');
    // The app is open at a local address: polling is offered first; this installation takes the webhook.
    assert.equal(await dialog.getByRole('radio', { name: 'Polling' }).isChecked(), true);
    await dialog.getByRole('radio', { name: 'Webhook' }).check();
    await field(dialog, 'Bot token').fill('not a token');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Bot token', 'Incorrect token/ID specified');
    // A well-formed token Telegram does not know: getMe answers 401.
    await field(dialog, 'Bot token').fill('123456789:AAwrongwrongwrongwrongwrongwrong');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Bot token', 'Incorrect token/ID specified');
    // Telegram refuses the webhook: §8 'Channel creation error', the reason in our words.
    tg.failNext('setWebhook', {
      status: 400,
      description: 'Bad Request: bad webhook: HTTPS url must be provided',
    });
    await field(dialog, 'Bot token').fill(tg.token);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Channel creation error' });
    await toast.getByText(/must be reachable over HTTPS at its public address/).waitFor();
    await screenshot(page, 'channel-guide-telegram-error');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const row = page.getByTestId('channel-Shop bot');
    await row.waitFor();
    await row.getByText(`@${tg.bot.username}`).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const hook = tg.webhook;
    assert.ok(hook?.secretToken, 'the webhook is registered with a secret');
    const id = await channelId('Shop bot');
    assert.equal(hook.url, `${server.url}/api/webhooks/telegram/${id}`);

    // A customer writes to the bot; the admin answers from the chat center.
    await page.goto('/admin/chats?filter=waiting');
    await page.getByText('Nobody is waiting').waitFor();
    await page.waitForLoadState('networkidle');
    const update = tg.updates.text(
      { id: 5001, first_name: 'Ivan', last_name: 'Petrov' },
      'Is my order ready?',
    );
    assert.equal(
      await tg.deliver(update, `${server.url}/api/webhooks/telegram/${id}`, hook.secretToken),
      200,
    );
    const chat = page.getByTestId('chat-row').filter({ hasText: 'Ivan Petrov' });
    await chat.waitFor({ timeout: 10_000 });
    await chat.click();
    await page.getByTestId('message').getByText('Is my order ready?').waitFor();
    await page.getByRole('button', { name: 'Take' }).click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    const box = page.getByRole('textbox', { name: 'Write a message' });
    await box.fill('Yes, it ships today.');
    await box.press('Enter');
    const sent = await waitFor(() =>
      tg.expect.calls('sendMessage').find((c) => c.params.text === 'Yes, it ships today.'),
    );
    assert.equal(String(sent.params.chat_id), '5001');
    await page.getByTestId('message').filter({ hasText: 'Yes, it ships today.' }).waitFor();
    await screenshot(page, 'channel-telegram-chat');

    // The list shows when the last customer message came.
    await page.goto('/admin/preferences/channels');
    await page.getByTestId('channel-Shop bot').waitFor();
    assert.notEqual(
      (await page.getByTestId('channel-Shop bot').getByTestId('last-inbound').textContent())?.trim(),
      'No messages yet',
    );
    await screenshot(page, 'channels-connected', { toasts: false });
    // The one call the fake did not expect is the token check of the wrong token, on purpose.
    assert.deepEqual(
      tg.unexpected.map((u) => u.reason),
      ['wrong bot token'],
    );
    assertNoErrors(errors, /status of 502/);
    await context.close();
  });

  test('the admin edits a channel in its tabs and disconnects it after confirming', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('link', { name: 'Shop bot' }).click();
    await page.getByRole('tab', { name: 'General' }).waitFor();
    // The token is write-only: the field is empty, empty means unchanged.
    assert.equal(await field(page, 'Bot token').inputValue(), '');
    await field(page, 'Name').fill('Shop bot (main)');
    await field(page, 'Half-expired after, minutes').fill('abc');
    await field(page, 'Half-expired after, minutes').fill('15');
    await field(page, 'Expired after, minutes').fill('45');
    await field(page, 'Notification e-mail').fill('alerts@shop');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await fieldError(page, 'Notification e-mail', 'Email specified incorrectly');
    await field(page, 'Notification e-mail').fill('alerts@shop.test');
    await field(page, 'Also visible to teams').click();
    await page.getByRole('option', { name: 'Support' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('switch', { name: 'Allow the client to rate before the dialog ends' }).check();
    await field(page, 'Rating request text').fill('How did we do? Rate us from 1 to 5.');
    const setWebhooks = tg.expect.calls('setWebhook').length;
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The channel has been changed').waitFor();
    await page.getByRole('heading', { name: 'Shop bot (main)' }).waitFor();
    // Nothing of the bot changed: Telegram was not asked again.
    assert.equal(tg.expect.calls('setWebhook').length, setWebhooks);
    const saved = await apiCall(
      server.url,
      'GET',
      `/api/channels/${await channelId('Shop bot (main)')}`,
      undefined,
      adminToken,
    );
    assert.equal(saved.body.entity.halfExpiredMinutes, 15);
    assert.equal(saved.body.entity.expiredMinutes, 45);
    assert.equal(saved.body.entity.notificationEmail, 'alerts@shop.test');
    assert.equal(saved.body.entity.visibleTeamIds.length, 1);
    assert.equal(saved.body.entity.ratingBeforeEnd, true);
    assert.equal(saved.body.entity.ratingMessage, 'How did we do? Rate us from 1 to 5.');
    await field(page, 'Bot token').fill('123:short');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await fieldError(page, 'Bot token', 'Incorrect token/ID specified');
    await field(page, 'Bot token').fill('');
    await screenshot(page, 'channel-edit-general', { toasts: false });
    await page.getByRole('tab', { name: 'Routing' }).click();
    await page.getByText('Manage routing rules').waitFor();
    await page.getByRole('tab', { name: 'Automatic replies' }).click();
    await page.getByTestId('auto-reply-holding').waitFor();
    await screenshot(page, 'channel-edit-auto-replies', { toasts: false });

    // Keyboard: the tabs move with the arrow keys.
    await page.getByRole('tab', { name: 'Automatic replies' }).focus();
    await page.keyboard.press('ArrowLeft');
    await page.getByText('Manage routing rules').waitFor();

    await page.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Disconnect the channel?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    assert.equal(tg.expect.calls('deleteWebhook').length, 0);
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('The channel has been disconnected').waitFor();
    await page.waitForURL(/\/admin\/preferences\/channels$/);
    await page.getByTestId('channel-Shop API').waitFor();
    assert.equal(await page.getByTestId('channel-Shop bot (main)').count(), 0);
    await waitFor(() => (tg.expect.calls('deleteWebhook').length === 1 ? true : undefined));
    assert.deepEqual(
      tg.unexpected.map((u) => u.reason),
      ['wrong bot token'],
    );
    assertNoErrors(errors);
    await context.close();
  });

  test('a bot behind a firewall: polling, chosen by default on a local address, gets messages without a webhook; the edit page switches it to the webhook', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    const dialog = await openGuide(page, 'Telegram');
    await dialog.getByText(/choose polling/).waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await field(dialog, 'Name').fill('Office bot');
    await chooseTeam(page, 'Sales');
    await field(dialog, 'Bot token').fill(tg.token);
    assert.equal(await dialog.getByRole('radio', { name: 'Polling' }).isChecked(), true);
    await dialog.getByText(/Works behind a firewall/).scrollIntoViewIfNeeded();
    await screenshot(page, 'channel-guide-telegram-polling');
    await assertAccessible(page, 'telegram guide: how messages arrive');
    const deletes = tg.expect.calls('deleteWebhook').length;
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('channel-Office bot').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal(tg.webhook, null, 'no webhook: the server asks Telegram');
    assert.equal(tg.expect.calls('deleteWebhook').length, deletes + 1);

    // A customer writes: the message waits at Telegram until the server's poll takes it.
    await page.goto('/admin/chats?filter=waiting');
    await page.getByText('Nobody is waiting').waitFor();
    tg.queue(
      tg.updates.text(
        { id: 5002, first_name: 'Olga', last_name: 'Smirnova' },
        'Written from behind a firewall',
      ),
    );
    const chat = page.getByTestId('chat-row').filter({ hasText: 'Olga Smirnova' });
    await chat.waitFor({ timeout: 15_000 });
    await chat.click();
    await page.getByTestId('message').getByText('Written from behind a firewall').waitFor();

    // The installation got a public address: the edit page takes the bot to the webhook.
    await page.goto('/admin/preferences/channels');
    await page.getByRole('link', { name: 'Office bot' }).click();
    await page.getByRole('tab', { name: 'General' }).waitFor();
    assert.equal(await page.getByRole('radio', { name: 'Polling' }).isChecked(), true);
    await page.getByRole('radio', { name: 'Webhook' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The channel has been changed').waitFor();
    const id = await channelId('Office bot');
    await waitFor(() => (tg.webhook?.url === `${server.url}/api/webhooks/telegram/${id}` ? true : undefined));
    assertNoErrors(errors);
    await context.close();
  });

  test('at 390 px the list and a guide are usable, in Russian too', async () => {
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByTestId('channel-Shop API').waitFor();
    await screenshot(page, 'channels-390');
    const dialog = await openGuide(page, 'Telegram');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await field(dialog, 'Bot token').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'nothing wider than the screen');
    await screenshot(page, 'channel-guide-390');
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await page.reload();
    await page.getByText('Подключённые каналы').waitFor();
    await page.getByRole('button', { name: 'Подключить Telegram' }).click();
    await page.getByText('Откройте @BotFather в Telegram (t.me/BotFather).').waitFor();
    await screenshot(page, 'channel-guide-390-ru');
    assertNoErrors(errors);
    await context.close();
  });
});
