// The mobile app channel (issue 34): the admin creates one through its guide (both languages) with an FCM service
// account and an APNs key checked against the fakes, copies the identity secret shown once, and rotates it on the
// channel's page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeApns } from '../server/test/fakes/apns.ts';
import { startFakeFcm } from '../server/test/fakes/fcm.ts';
import { channelHook, channelWorld, nameAndTeam } from './channel-fixture.ts';
import {
  assertAccessible,
  assertNoErrors,
  field,
  fieldError,
  openPage,
  screenshot,
  signIn,
} from './harness.ts';

const world = channelWorld(
  async () => ({ fcm: await startFakeFcm(), apns: await startFakeApns() }),
  ({ fcm, apns }) => ({
    FCM_API_BASE_URL: fcm.baseUrl,
    FCM_TOKEN_URL: fcm.tokenUrl,
    APNS_BASE_URL: apns.baseUrl,
  }),
);

describe('mobile app channel pages', () => {
  test('created through its guide with push credentials; the identity secret is shown once and rotated', async () => {
    const { fcm, apns, browser, server, adminToken } = world;
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await page.reload();
    await page.getByRole('button', { name: 'Подключить Мобильное приложение', exact: true }).click();
    const ru = page.getByRole('dialog');
    await ru.getByText(/Подключите своё приложение для iOS или Android/).waitFor();
    await assertAccessible(page, 'mobile app guide (Russian)');
    await page.keyboard.press('Escape');
    await ru.waitFor({ state: 'detached' });
    await page.evaluate(() => localStorage.setItem('sc-lang', 'eng'));
    await page.reload();

    await page.getByRole('button', { name: 'Connect Mobile app', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Connect your own iOS or Android app with our SDK/).waitFor();
    await assertAccessible(page, 'mobile app guide');
    await screenshot(page, 'channel-guide-mobile-app');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop app');
    await dialog.getByTestId('mobile-app-fcmServiceAccount').fill(fcm.wrongKeyAccount());
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Service account key (JSON)', 'Incorrect token/ID specified', 15_000);
    await dialog.getByTestId('mobile-app-fcmServiceAccount').fill(fcm.serviceAccount);
    await dialog.getByTestId('mobile-app-apnsKey').fill(apns.p8);
    await field(dialog, 'Key ID').fill(apns.keyId);
    await field(dialog, 'Team ID').fill(apns.teamId);
    await field(dialog, 'Bundle ID').fill(apns.bundleId);
    await dialog.getByText('Sandbox (development builds)').click();
    await screenshot(page, 'mobile-app-form');
    await dialog.getByRole('button', { name: 'Create' }).click();

    const shown = page.getByRole('dialog', { name: 'Identity secret' });
    const secret = (await shown.getByTestId('mobile-app-identity-secret').textContent())?.trim() ?? '';
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    await assertAccessible(page, 'mobile app identity secret');
    await screenshot(page, 'mobile-app-created');
    await shown.getByRole('button', { name: 'I have saved the secret' }).click();
    assertNoErrors(errors);

    const { id } = await channelHook(world, 'mobile_app', 'Shop app');
    await page.goto(`/admin/preferences/channels/${id}`);
    await page.getByText(`In use: the secret ending in …${secret.slice(-4)}`).waitFor();
    await page.getByText(`Connected to the Firebase project ${fcm.projectId}`).waitFor();
    assert.equal(await field(page, 'Bundle ID').inputValue(), apns.bundleId);
    await page.getByTestId('mobile-app-rotate').click();
    const confirm = page.getByRole('dialog', { name: 'Make a new identity secret' });
    await confirm.getByText(/stops working at once/).waitFor();
    await confirm.getByRole('button', { name: 'Make a new identity secret' }).click();
    const again = page.getByRole('dialog', { name: 'Identity secret' });
    const rotated = (await again.getByTestId('mobile-app-identity-secret').textContent())?.trim() ?? '';
    assert.match(rotated, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(rotated, secret);
    await again.getByRole('button', { name: 'I have saved the secret' }).click();
    await page.getByText(`In use: the secret ending in …${rotated.slice(-4)}`).waitFor();
    await screenshot(page, 'mobile-app-edit');
    assertNoErrors(errors);
  });
});
