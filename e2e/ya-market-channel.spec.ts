import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeYaMarket } from '../server/test/fakes/ya-market.ts';
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
  async () => ({ market: await startFakeYaMarket() }),
  ({ market }) => ({ YANDEX_MARKET_API_BASE_URL: market.baseUrl }),
);

describe('Yandex Market channel pages', () => {
  test('the admin connects a Market cabinet through its guide (both languages), sees the notifications address once; a buyer’s message about an order is polled in and answered', async () => {
    const { market, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await page.reload();
    await page.getByRole('button', { name: 'Подключить Яндекс Маркет', exact: true }).click();
    const ru = page.getByRole('dialog');
    await ru.getByText(/каждый чат Маркета приходит сюда вместе с заказом/).waitFor();
    await ru.getByText(/API и модули → Токены авторизации/).waitFor();
    await ru.getByText(/«Общение с покупателями» \(communication\)/).waitFor();
    await assertAccessible(page, 'Yandex Market guide (Russian)');
    await screenshot(page, 'channel-guide-ya-market-ru');
    await page.keyboard.press('Escape');
    await ru.waitFor({ state: 'detached' });
    await page.evaluate(() => localStorage.setItem('sc-lang', 'eng'));
    await page.reload();

    await page.getByRole('button', { name: 'Connect Yandex Market', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/each Market chat comes here with the order it is about/).waitFor();
    await dialog.getByText(/Settings → API and modules → Authorisation tokens/).waitFor();
    await dialog.getByText(/“Customer communication” access \(communication\)/).waitFor();
    await dialog.getByText(/the number after business\/ in the cabinet’s address/).waitFor();
    await assertAccessible(page, 'Yandex Market guide');
    await screenshot(page, 'channel-guide-ya-market');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop Market');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Business ID', 'Please fill in all required fields');
    await fieldError(dialog, 'Api-Key token', 'Please fill in all required fields');
    // A key Market refuses is the field's error, from the server.
    await field(dialog, 'Business ID').fill(market.businessId);
    await field(dialog, 'Api-Key token').fill('not-the-key');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Api-Key token', 'Incorrect token/ID specified');
    await screenshot(page, 'channel-form-ya-market');
    await field(dialog, 'Api-Key token').fill(market.apiKey);
    await dialog.getByRole('button', { name: 'Create' }).click();

    // The API notifications address with its key, shown once, with the steps in the cabinet.
    const created = page.getByRole('dialog', { name: 'API notifications address of the channel' });
    const push = created.getByTestId('ya-market-push-url');
    await push.waitFor();
    const address = new URL((await push.textContent()) ?? '');
    assert.equal(address.origin, server.url);
    assert.match(address.pathname, /^\/api\/webhooks\/ya_market\/[0-9a-f-]{36}$/);
    assert.match(address.searchParams.get('key') ?? '', /^[A-Za-z0-9_-]{40,}$/);
    await created.getByText(/Settings → API and modules → the API notifications tab/).waitFor();
    await created.getByText(/choose the cabinet level/).waitFor();
    await assertAccessible(page, 'Yandex Market notifications address');
    await screenshot(page, 'channel-created-ya-market');
    await created.getByRole('button', { name: 'I have saved the key' }).click();
    await created.waitFor({ state: 'detached' });
    await page.getByTestId('channel-Shop Market').getByText(`Business ID ${market.businessId}`).waitFor();

    // Editing shows the address without the key; the key is not in the page any more.
    await page.getByTestId('channel-Shop Market').getByRole('link', { name: 'Shop Market' }).click();
    const again = page.getByTestId('ya-market-push-url');
    await again.waitFor();
    assert.equal(await again.textContent(), `${address.origin}${address.pathname}?key=…`);
    assert.equal(await field(page, 'Business ID').inputValue(), market.businessId);
    assert.equal(await field(page, 'Api-Key token').inputValue(), '', 'the Api-Key is write-only');
    await screenshot(page, 'channel-edit-ya-market');

    // A buyer writes about an order: the server's next poll (every 30 s) brings the message.
    await openWaiting(page);
    const chatId = market.addChat({ customerName: 'Ivan P.', orderId: '123456789' });
    market.addMessage(chatId, 'Hello, when will my order be shipped?');
    await page.getByTestId('chat-row').filter({ hasText: 'Ivan P.' }).waitFor({ timeout: 45_000 });
    await takeChat(page, 'Ivan P.', 'Hello, when will my order be shipped?');

    // The order the chat is about, in the top bar (Market documents no cabinet link to an order: none).
    const topic = page.getByTestId('chat-topic').first();
    await topic.getByText('Order 123456789').waitFor();

    await answer(page, 'It leaves the warehouse today.');
    const sent = await waitFor(() =>
      market.callsTo('/chats/message').find((c) => c.body.message === 'It leaves the warehouse today.'),
    );
    assert.equal(sent.query.chatId, chatId);
    assert.equal(sent.headers['api-key'], market.apiKey);
    await deliveryShown(page, 'It leaves the warehouse today.', 'sent');
    await screenshot(page, 'channel-ya-market-chat', { toasts: false });
    // The refused key's 400, answered to the form.
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });
});
