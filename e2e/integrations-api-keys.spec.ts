// API keys (issue 34) at /admin/preferences/extensions: the empty state, the form's field errors, a key generated and
// shown once, used against the API, listed with its last use, rotated and revoked; both locales; axe; 390 px.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiLogin,
  assertAccessible,
  assertNoErrors,
  fieldError,
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

const withKey = (key: string, path: string) =>
  fetch(`${server.url}${path}`, { headers: { 'x-api-key': key } }).then((r) => r.status);

describe('API keys', () => {
  test('an administrator generates a key, sees it once, uses it, rotates and revokes it', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/extensions');
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByText('No API keys yet').waitFor();
    await assertAccessible(page, 'integrations, no keys');
    await screenshot(page, 'integrations-empty', { toasts: false });

    await page.getByTestId('api-key-new').first().click();
    await page.getByRole('button', { name: 'Create' }).click();
    await fieldError(page, 'Name', 'Please fill in all required fields');
    await page.getByText('Please fill in all required fields').nth(1).waitFor();
    await page.getByTestId('api-key-name').fill('CRM');
    await page.getByRole('checkbox', { name: 'Chats and messages: Read' }).check();
    await page.getByRole('checkbox', { name: 'Users and teams: Read' }).check();
    await assertAccessible(page, 'new API key form');
    await page.getByRole('button', { name: 'Create' }).click();

    const value = page.getByTestId('api-key-value');
    await value.waitFor();
    const key = (await value.textContent())?.trim() ?? '';
    assert.match(key, /^sck_[A-Za-z0-9_-]{43}$/);
    await assertAccessible(page, 'the key shown once');
    await page.getByTestId('api-key-done').click();
    assert.equal(await withKey(key, '/api/users'), 200, 'the key works');
    assert.equal(await withKey(key, '/api/channels'), 403, 'outside its scopes');

    await page.reload();
    const row = page.getByTestId('api-key-row');
    await row.waitFor();
    assert.equal(await row.count(), 1);
    assert.ok(!(await page.content()).includes(key), 'never shown again');
    await row.getByText('127.0.0.1').waitFor();
    await row.getByText('Active').waitFor();
    await screenshot(page, 'integrations-api-keys', { toasts: false });

    // Rotate with no overlap: the new key works, the old one stops at once.
    await page.getByRole('button', { name: 'Rotate CRM' }).click();
    await page.getByTestId('api-key-overlap').click();
    await page.getByRole('option', { name: 'No time: it stops now' }).click();
    await page.getByTestId('api-key-rotate-confirm').click();
    const next = ((await page.getByTestId('api-key-value').textContent()) ?? '').trim();
    assert.notEqual(next, key);
    await page.getByTestId('api-key-done').click();
    assert.equal(await withKey(key, '/api/users'), 401);
    assert.equal(await withKey(next, '/api/users'), 200);
    await page.getByTestId('api-key-status').getByText('Expired').waitFor();

    // Revoke the new one.
    await page.getByRole('button', { name: 'Revoke CRM' }).click();
    await page.getByTestId('api-key-revoke-confirm').click();
    await page.getByTestId('api-key-status').getByText('Revoked').first().waitFor();
    assert.equal(await withKey(next, '/api/users'), 401);
    assertNoErrors(errors);
    await page.context().close();
  });

  test('in Russian and at 390 px the page reads and works', async () => {
    const { page, errors } = await openPage(browser, server.url, { width: 390, height: 844 });
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, '/admin/preferences/extensions');
    await page.getByRole('heading', { name: 'API-ключи' }).waitFor();
    await page.getByTestId('api-key-new').first().click();
    await page.getByTestId('api-key-name').fill('Магазин');
    await page.getByRole('checkbox', { name: 'Клиенты: Запись' }).check();
    await page.getByRole('button', { name: 'Создать' }).click();
    await page.getByTestId('api-key-value').waitFor();
    await page.getByText('Ключ показывается только сейчас', { exact: false }).waitFor();
    await page.getByTestId('api-key-done').click();
    await page.getByTestId('api-key-row').filter({ hasText: 'Магазин' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(overflow, false, 'no sideways scrolling of the page at 390 px');
    await assertAccessible(page, 'integrations in Russian at 390 px');
    await screenshot(page, 'integrations-api-keys-ru-390', { toasts: false });
    await page.evaluate(() => localStorage.setItem('sc-lang', 'eng'));
    assertNoErrors(errors);
    await page.context().close();
  });
});
