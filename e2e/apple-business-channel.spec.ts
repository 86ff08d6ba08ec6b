import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeAppleBusiness } from '../server/test/fakes/apple-business.ts';
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
  async () => ({ apple: await startFakeAppleBusiness() }),
  ({ apple }) => ({ APPLE_BUSINESS_API_BASE_URL: apple.baseUrl }),
);

describe('Apple Messages for Business channel pages', () => {
  test('the admin connects Messages for Business through its guide (both languages); a customer writes and is answered', async () => {
    const { apple, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await page.reload();
    await page.getByRole('button', { name: 'Подключить Apple Business Chat', exact: true }).click();
    const ru = page.getByRole('dialog');
    await ru.getByText(/каждый разговор приходит сюда/).waitFor();
    await ru
      .getByText(/Apple Business Register/)
      .first()
      .waitFor();
    await assertAccessible(page, 'Apple Messages for Business guide (Russian)');
    await screenshot(page, 'channel-guide-apple-business-ru');
    await page.keyboard.press('Escape');
    await ru.waitFor({ state: 'detached' });
    await page.evaluate(() => localStorage.setItem('sc-lang', 'eng'));
    await page.reload();

    await page.getByRole('button', { name: 'Connect Apple Business Chat', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/from Messages on their iPhone, iPad or Mac/).waitFor();
    await dialog.getByText(/get from the provider its MSP ID and the API secret/).waitFor();
    await assertAccessible(page, 'Apple Messages for Business guide');
    await screenshot(page, 'channel-guide-apple-business');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop Messages');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Business ID', 'Please fill in all required fields');
    await fieldError(dialog, 'MSP ID', 'Please fill in all required fields');
    await fieldError(dialog, 'API secret', 'Please fill in all required fields');
    // A secret Apple's gateway refuses: the fields say so.
    await field(dialog, 'Business ID').fill(apple.businessId);
    await field(dialog, 'MSP ID').fill(apple.mspId);
    await field(dialog, 'API secret').fill(Buffer.from('not the secret').toString('base64'));
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'API secret', 'Incorrect token/ID specified');
    await assertAccessible(page, 'Apple Messages for Business form with errors');
    await screenshot(page, 'channel-form-apple-business');
    await field(dialog, 'API secret').fill(apple.secret);
    await dialog.getByRole('button', { name: 'Create' }).click();

    // The webhook address to give the provider.
    const created = page.getByRole('dialog', { name: 'Webhook address for your provider' });
    const hookField = created.getByTestId('apple-business-webhook-url');
    await hookField.waitFor();
    const address = new URL((await hookField.textContent()) ?? '');
    assert.equal(address.origin, server.url);
    assert.match(address.pathname, /^\/api\/webhooks\/apple_business_chat\/[0-9a-f-]{36}$/);
    await assertAccessible(page, 'Apple Messages for Business webhook address');
    await created.getByRole('button', { name: 'Close' }).last().click();
    await created.waitFor({ state: 'detached' });
    await page.getByTestId('channel-Shop Messages').getByText(`Business ID ${apple.businessId}`).waitFor();

    await openWaiting(page);
    const customer = 'urn:mbid:AQAAY2hlbnRlc3QtZTJlLWN1c3RvbWVy';
    assert.equal(await apple.deliver(address.href, apple.text(customer, 'Hello, is my order ready?')), 200);
    await takeChat(page, 'Apple client urn:mbid', 'Hello, is my order ready?');
    await answer(page, 'Yes, it ships today.');
    const sent = await waitFor(() => apple.sent.find((s) => s.body.body === 'Yes, it ships today.'));
    assert.equal(sent.body.destinationId, customer);
    await deliveryShown(page, 'Yes, it ships today.', 'sent');
    await screenshot(page, 'channel-apple-business-chat', { toasts: false });
    assertNoErrors(errors);
    await context.close();
  });
});
