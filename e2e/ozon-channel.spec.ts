import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeOzon } from '../server/test/fakes/ozon.ts';
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
  async () => ({ ozon: await startFakeOzon() }),
  ({ ozon }) => ({ OZON_API_BASE_URL: ozon.baseUrl }),
);

describe('Ozon channel pages', () => {
  test('the admin connects an Ozon store through its guide (both languages), sees the push address once; a buyer’s message about an order is polled in and answered', async () => {
    const { ozon, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await page.reload();
    await page.getByRole('button', { name: 'Подключить Ozon', exact: true }).click();
    const ru = page.getByRole('dialog');
    await ru.getByText(/каждый чат Ozon приходит сюда вместе с заказом/).waitFor();
    await ru.getByText(/Premium Plus или Premium Pro/).waitFor();
    await assertAccessible(page, 'Ozon guide (Russian)');
    await screenshot(page, 'channel-guide-ozon-ru');
    await page.keyboard.press('Escape');
    await ru.waitFor({ state: 'detached' });
    await page.evaluate(() => localStorage.setItem('sc-lang', 'eng'));
    await page.reload();

    await page.getByRole('button', { name: 'Connect Ozon', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/each Ozon chat comes here with the order it is about/).waitFor();
    await dialog
      .getByText(/open Settings → Seller API and create an API key with access to the chats/)
      .waitFor();
    await dialog.getByText(/read the chats every 20 seconds/).waitFor();
    await assertAccessible(page, 'Ozon guide');
    await screenshot(page, 'channel-guide-ozon');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop Ozon');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Client ID', 'Please fill in all required fields');
    await fieldError(dialog, 'API key', 'Please fill in all required fields');
    await screenshot(page, 'channel-form-ozon');
    await field(dialog, 'Client ID').fill(ozon.clientId);
    await field(dialog, 'API key').fill(ozon.apiKey);
    await dialog.getByRole('button', { name: 'Create' }).click();

    // The push notifications address with its key, shown once.
    const created = page.getByRole('dialog', { name: 'Push notifications address of the channel' });
    const push = created.getByTestId('ozon-push-url');
    await push.waitFor();
    const address = new URL((await push.textContent()) ?? '');
    assert.equal(address.origin, server.url);
    assert.match(address.pathname, /^\/api\/webhooks\/ozon\/[0-9a-f-]{36}$/);
    assert.match(address.searchParams.get('key') ?? '', /^[A-Za-z0-9_-]{40,}$/);
    await created.getByText(/Settings → Notifications → Push notifications/).waitFor();
    await assertAccessible(page, 'Ozon push address');
    await screenshot(page, 'channel-created-ozon');
    await created.getByRole('button', { name: 'I have saved the key' }).click();
    await created.waitFor({ state: 'detached' });
    await page.getByTestId('channel-Shop Ozon').getByText(`Client ID ${ozon.clientId}`).waitFor();

    // Editing shows the address without the key; the key is not in the page any more.
    await page.getByTestId('channel-Shop Ozon').getByRole('link', { name: 'Shop Ozon' }).click();
    const again = page.getByTestId('ozon-push-url');
    await again.waitFor();
    assert.equal(await again.textContent(), `${address.origin}${address.pathname}?key=…`);
    assert.equal(await field(page, 'Client ID').inputValue(), ozon.clientId);
    assert.equal(await field(page, 'API key').inputValue(), '', 'the API key is write-only');
    await screenshot(page, 'channel-edit-ozon');

    // A buyer writes about an order: the server's next poll (every 20 s) brings the message.
    await openWaiting(page);
    const ozonChat = ozon.addChat();
    ozon.addMessage(ozonChat, ['Hello, when will my order be shipped?'], {
      userId: '7001',
      context: { order_number: '24219509-0020', sku: '147451959' },
    });
    await page.getByTestId('chat-row').filter({ hasText: 'Ozon buyer 7001' }).waitFor({ timeout: 30_000 });
    await takeChat(page, 'Ozon buyer 7001', 'Hello, when will my order be shipped?');

    // The order the chat is about, in the top bar (Ozon gives no public page of an order: no link).
    const topic = page.getByTestId('chat-topic').first();
    await topic.getByText('Order 24219509-0020').waitFor();

    await answer(page, 'It leaves the warehouse today.');
    const sent = await waitFor(() =>
      ozon.callsTo('/v1/chat/send/message').find((c) => c.body.text === 'It leaves the warehouse today.'),
    );
    assert.equal(sent.body.chat_id, ozonChat);
    assert.equal(sent.headers['client-id'], ozon.clientId);
    await deliveryShown(page, 'It leaves the warehouse today.', 'sent');
    // The new-chat toast would cover the top bar with the order.
    await screenshot(page, 'channel-ozon-chat', { toasts: false });
    assertNoErrors(errors);
    await context.close();
  });
});
