import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type FakeViberBusiness, startFakeViberBusiness } from '../server/test/fakes/viber-business.ts';
import {
  ADMIN_PASSWORD,
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
let vb: FakeViberBusiness;

before(async () => {
  vb = await startFakeViberBusiness();
  server = await startServer({ env: { VIBER_BUSINESS_RU_BASE_URL: vb.baseUrl } });
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await vb?.close();
});

describe('Viber business channel pages', () => {
  test('the admin connects Viber business through its guide, gets a message and answers it', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect Viber (business)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Get from the provider the login and password of the API account').waitFor();
    await assertAccessible(page, 'Viber business guide');
    await screenshot(page, 'channel-guide-viber-business');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await field(dialog, 'Name').fill('Shop Viber business');
    await field(dialog, 'Team').click();
    await page.getByRole('option', { name: 'Sales' }).click();
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

    await page.goto('/admin/chats?filter=waiting');
    await page.getByText('Nobody is waiting').waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(
      await vb.deliver(
        vb.message('+375 29 123-45-67', { text: 'Добрый день, доставка есть?' }, 'Olga Ivanova'),
      ),
      200,
    );
    const row = page.getByTestId('chat-row').filter({ hasText: 'Olga Ivanova' });
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page.getByTestId('message').getByText('Добрый день, доставка есть?').waitFor();
    await page.getByRole('button', { name: 'Take' }).click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    const box = page.getByRole('textbox', { name: 'Write a message' });
    await box.fill('Yes, tomorrow from 10:00.');
    await box.press('Enter');
    const sent = await waitFor(() => vb.sent.find((s) => s.body.text === 'Yes, tomorrow from 10:00.'));
    assert.equal(sent.body.phone, '375291234567');
    assert.equal(await vb.deliver(vb.status(sent.messageId, 'read')), 200);
    await page
      .getByTestId('message')
      .filter({ hasText: 'Yes, tomorrow from 10:00.' })
      .locator('[data-testid="delivery"][data-status="read"]')
      .waitFor();
    await screenshot(page, 'channel-viber-business-chat');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'channel-viber-business-chat-390');
    assertNoErrors(errors, /status of 400/);
    await context.close();
  });
});
