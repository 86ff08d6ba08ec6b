// Web push for operators (issue 34) at /admin/profile/notifications: what the page does without a reachable push
// service (headless Chromium has none): the server's §8 texts for a test without a subscription and for a push service
// that refuses, this browser's failed subscription shown in place, the choices saved, a browser removed; Russian;
// axe; 390 px.
import assert from 'node:assert/strict';
import { createECDH, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertAccessible,
  assertNoErrors,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
} from './harness.ts';

let server: TestServer;
let browser: Browser;
let adminToken: string;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A browser's subscription as PushSubscription.toJSON() gives it, at a push service nobody listens on. */
function unreachableSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `http://127.0.0.1:9/push/${randomBytes(8).toString('hex')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

describe('push notifications settings', () => {
  test('an operator sees the push errors, changes what is pushed and removes a browser', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await context.grantPermissions(['notifications'], { origin: server.url });
    await signIn(page, adminToken, '/admin/profile/notifications');
    await page.getByRole('tab', { name: 'Notifications' }).waitFor();
    await page.getByRole('heading', { name: 'Push notifications' }).waitFor();
    await page.getByText('No browser is subscribed yet.').waitFor();
    await page.getByTestId('push-here').getByText('Off in this browser').waitFor();

    // No subscription yet: the server's 'push subscription missing', in place.
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await page
      .getByTestId('push-error')
      .getByText('Push notifications are not turned on in this browser')
      .waitFor();
    await assertAccessible(page, 'push settings with an error');

    // This browser cannot subscribe (no push service here): said in place, nothing stored.
    const turnOn = page.getByRole('button', { name: 'Turn on in this browser' });
    if (await turnOn.isEnabled()) {
      await turnOn.click();
      await page
        .getByTestId('push-error')
        .getByText(/cannot receive push notifications|could not subscribe/)
        .waitFor();
    } else await page.getByTestId('push-unsupported').waitFor();
    const state = await apiCall(server.url, 'GET', '/api/push/settings', undefined, adminToken);
    assert.deepEqual(state.body.entity.subscriptions, []);

    // The choices are saved as they are switched.
    await page.getByRole('switch', { name: /New chats/ }).click({ force: true });
    await page.getByText('Saved').first().waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Push notifications' }).waitFor();
    assert.equal(await page.getByRole('switch', { name: /New chats/ }).isChecked(), false);
    assert.equal(await page.getByRole('switch', { name: /New messages/ }).isChecked(), true);
    const saved = await apiCall(server.url, 'GET', '/api/push/settings', undefined, adminToken);
    assert.equal(saved.body.entity.newChats, false);
    await page.getByRole('switch', { name: /New chats/ }).click({ force: true });
    await page.getByText('Saved').first().waitFor();

    // A browser subscribed elsewhere whose push service does not answer: the server's 'push send failure'.
    const sub = await apiCall(
      server.url,
      'POST',
      '/api/push/subscriptions',
      unreachableSubscription(),
      adminToken,
    );
    assert.equal(sub.status, 200, JSON.stringify(sub.body));
    await page.reload();
    const devices = page.getByTestId('push-devices');
    await devices.waitFor();
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await page.getByTestId('push-error').getByText('The push notification could not be sent').waitFor();
    await screenshot(page, 'push-settings', { toasts: false });

    await devices.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No browser is subscribed yet.').waitFor();
    const left = await apiCall(server.url, 'GET', '/api/push/settings', undefined, adminToken);
    assert.deepEqual(left.body.entity.subscriptions, []);
    // The 404 and 502 answers are the ones the page provoked and showed.
    assertNoErrors(errors, /status of 502/);
    await context.close();
  });

  test('in Russian and at 390 px the page reads and works', async () => {
    const { page, context, errors } = await openPage(browser, server.url, { width: 390, height: 844 });
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, '/admin/profile/notifications');
    await page.getByRole('heading', { name: 'Push-уведомления' }).waitFor();
    await page.getByRole('button', { name: 'Тестовое уведомление' }).click();
    await page.getByTestId('push-error').getByText('Push-уведомления не включены в этом браузере').waitFor();
    const put = () =>
      page.waitForResponse((r) => r.url().endsWith('/api/push/settings') && r.request().method() === 'PUT');
    for (let i = 0; i < 2; i++) {
      const saving = put();
      await page.getByRole('switch', { name: /Новые сообщения/ }).click({ force: true });
      assert.equal((await saving).status(), 200);
    }
    await page.getByText('Сохранено').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(overflow, false, 'no sideways scrolling of the page at 390 px');
    await assertAccessible(page, 'push settings in Russian at 390 px');
    await screenshot(page, 'push-settings-ru-390', { toasts: false });
    await page.evaluate(() => localStorage.setItem('sc-lang', 'eng'));
    assertNoErrors(errors);
    await context.close();
  });
});
