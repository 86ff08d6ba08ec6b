import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeAvito } from '../server/test/fakes/avito.ts';
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
  async () => ({ avito: await startFakeAvito() }),
  ({ avito }) => ({ AVITO_API_BASE_URL: avito.baseUrl }),
);

describe('Avito channel pages', () => {
  test('the admin connects an Avito account through its guide (both languages); a buyer writes about a listing and is answered', async () => {
    const { avito, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await page.reload();
    await page.getByRole('button', { name: 'Подключить Авито', exact: true }).click();
    const ru = page.getByRole('dialog');
    await ru.getByText(/каждый чат Авито приходит сюда вместе с объявлением/).waitFor();
    await assertAccessible(page, 'Avito guide (Russian)');
    await screenshot(page, 'channel-guide-avito-ru');
    await page.keyboard.press('Escape');
    await ru.waitFor({ state: 'detached' });
    await page.evaluate(() => localStorage.setItem('sc-lang', 'eng'));
    await page.reload();

    await page.getByRole('button', { name: 'Connect Avito', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/each Avito chat comes here with the listing it is about/).waitFor();
    await dialog.getByText(/Copy the Client ID and the Client secret shown there/).waitFor();
    await assertAccessible(page, 'Avito guide');
    await screenshot(page, 'channel-guide-avito');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop Avito');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Client ID', 'Please fill in all required fields');
    await fieldError(dialog, 'Client secret', 'Please fill in all required fields');
    await screenshot(page, 'channel-form-avito');
    await field(dialog, 'Client ID').fill(avito.clientId);
    await field(dialog, 'Client secret').fill(avito.clientSecret);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('channel-Shop Avito').getByText(avito.accountName).waitFor();
    await dialog.waitFor({ state: 'detached' });
    // Our webhook (with its key) is subscribed at Avito when the channel is saved.
    const registered = await waitFor(() =>
      [...avito.webhooks].find((u) => u.includes('/api/webhooks/avito/')),
    );
    const url = new URL(registered);
    const hook = `${server.url}${url.pathname}${url.search}`;

    await openWaiting(page);
    const listing = {
      id: 1768287444,
      title: 'Mazda 3 2008',
      url: 'https://avito.ru/moskva/avtomobili/mazda_3_2008_1768287444',
    };
    const avitoChat = avito.addChat({ id: 141906442, name: 'Guldan' }, listing);
    const status = await avito.deliver(
      hook,
      avito.payload(avitoChat, 'text', { text: 'Hello, is it still for sale?' }),
    );
    assert.equal(status, 200);
    await takeChat(page, 'Guldan', 'Hello, is it still for sale?');

    // The listing the chat is about: in the top bar and in the client panel, linking to Avito.
    const topics = page.getByTestId('chat-topic');
    await topics.nth(1).waitFor();
    assert.equal(await topics.count(), 2, 'the top bar and the client panel');
    for (const topic of await topics.all()) {
      const link = topic.getByRole('link', { name: `Listing ${listing.id}: ${listing.title}` });
      await link.waitFor();
      assert.equal(await link.getAttribute('href'), listing.url);
      assert.equal(await link.getAttribute('target'), '_blank');
      await topic.getByText(listing.title).waitFor();
    }

    await answer(page, 'Yes, it is. Come and see it.');
    const sent = await waitFor(() => avito.sent.find((s) => s.text === 'Yes, it is. Come and see it.'));
    assert.equal(sent.chatId, avitoChat);
    await deliveryShown(page, 'Yes, it is. Come and see it.', 'sent');
    // The new-chat toast would cover the top bar with the listing.
    await screenshot(page, 'channel-avito-chat', { toasts: false });
    assertNoErrors(errors);
    await context.close();
  });
});
