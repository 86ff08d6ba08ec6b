// SMS-system import (issue 33): an `sms` channel, its export files uploaded at /admin/sms-imports — an unknown
// header waits for its columns, an SMS.ru export runs at once — progress, summary and refused rows; the same file
// again counts duplicates; the screen in Russian at 390 px; the channel created in the UI shows its callback address
// with the key once. Checked with axe-core and looked at in screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertAccessible,
  assertNoErrors,
  field,
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
let teamId: string;
/** The SMS.ru import of test (b), opened again in Russian by test (c). */
let smsRuImport = '';

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
  teamId = teams.body.entity.items.find((t: { name: string }) => t.name === 'Sales').id;
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** An `sms` channel made through the API; returns its id. */
async function smsChannel(name: string, service: 'smsru' | 'smsc' | 'other'): Promise<string> {
  const res = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'sms', name, teamId, service },
    adminToken,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.ok(res.body.entity.inboundKey);
  return res.body.entity.id;
}

/** Chooses a file in the drop area (its hidden file input). */
async function upload(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('sms-import-file').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(text, 'utf8'),
  });
}

/** Chooses an option of a Mantine Select named by its label. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await field(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const figure = (page: Page, name: string) => page.getByTestId(`sms-import-${name}`).locator('dd').innerText();

/** Waits for the open import's summary (status done). */
async function summary(page: Page): Promise<void> {
  await page.locator('[data-testid="sms-import-view"][data-status="done"]').waitFor({ timeout: 30_000 });
  await page.getByTestId('sms-import-summary').waitFor();
}

describe('SMS import', () => {
  test('(a) an unknown header: the columns are chosen, the import runs to its summary', async () => {
    const id = await smsChannel('Other SMS', 'other');
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/mailings');
    // The mailings list leads to the import.
    await page.getByTestId('import-sms').click();
    await page.waitForURL('**/admin/sms-imports');
    await page.getByText('No imports yet').waitFor();
    // The only SMS channel is chosen already.
    assert.equal(await field(page, 'SMS channel').inputValue(), 'Other SMS');
    await screenshot(page, 'sms-import-empty', { toasts: false });
    await assertAccessible(page, 'SMS import, empty');

    // Not a table: refused with the reason in words.
    await page.getByTestId('sms-import-file').setInputFiles({
      name: 'notes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 9, 0]),
    });
    await page.getByTestId('sms-import-error').waitFor();
    assert.match(await page.getByTestId('sms-import-error').innerText(), /The file was not imported/);
    // Not CSV or XLSX: refused before upload.
    await page.getByTestId('sms-import-file').setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('x'),
    });
    await page.getByText('The file “photo.png” is not CSV or XLSX.').waitFor();

    await upload(page, 'sent.csv', 'Кому;Что;Когда\r\n+79160001122;Привет;27.11.2026 10:00\r\n');
    await page.getByTestId('sms-import-mapping').waitFor();
    await page.getByTestId('sms-import-preview').getByText('+79160001122').waitFor();
    // One column for two fields is refused under the later one.
    await choose(page, 'Phone', 'Кому');
    await choose(page, 'SMS text', 'Кому');
    await choose(page, 'Time sent', 'Когда');
    await page.getByTestId('sms-import-start').click();
    await page.getByText('This column is already chosen for “Phone”').waitFor();
    await screenshot(page, 'sms-import-mapping', { toasts: false });
    await assertAccessible(page, 'SMS import, columns');
    await choose(page, 'SMS text', 'Что');
    await page.getByTestId('sms-import-start').click();
    await summary(page);
    assert.equal(await figure(page, 'imported'), '1');
    assert.equal(await figure(page, 'duplicates'), '0');
    assert.equal(await figure(page, 'refused'), '0');
    await page.getByTestId('sms-import-row').filter({ hasText: 'sent.csv' }).getByText('Done').waitFor();
    await screenshot(page, 'sms-import-done', { toasts: false });
    await assertAccessible(page, 'SMS import, summary');
    assert.ok(page.url().includes('import='), page.url());
    void id;
    assertNoErrors(errors);
    await context.close();
  });

  test('(b) an SMS.ru export runs at once; a refused row is listed; the same file again is a duplicate', async () => {
    const id = await smsChannel('SMS.ru account', 'smsru');
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, `/admin/sms-imports?channel=${id}`);
    await page.getByTestId('sms-imports-table').waitFor();
    assert.equal(await field(page, 'SMS channel').inputValue(), 'SMS.ru account');
    const csv = [
      'ID сообщения;Номер получателя;Текст сообщения;Дата отправки;Статус доставки',
      '77001;79160001133;Ваш заказ готов;27.11.2026 10:15:00;Доставлено',
      '77002;abc;Скидка 10%;27.11.2026 11:00:00;Доставлено',
    ].join('\r\n');
    await upload(page, 'smsru.csv', csv);
    await summary(page);
    assert.equal(await page.getByTestId('sms-import-mapping').count(), 0);
    await page.getByTestId('sms-import-detected').getByText('SMS.ru export').waitFor();
    assert.equal(await figure(page, 'imported'), '1');
    assert.equal(await figure(page, 'refused'), '1');
    const refusal = page.getByTestId('sms-import-refusal');
    assert.equal(await refusal.count(), 1);
    assert.match(await refusal.innerText(), /^3\s+No phone, or not a phone number$/);
    smsRuImport = new URL(page.url()).searchParams.get('import') ?? '';
    assert.ok(smsRuImport);
    await screenshot(page, 'sms-import-smsru', { toasts: false });
    await assertAccessible(page, 'SMS import, SMS.ru summary');

    await page.getByTestId('sms-import-another').click();
    await upload(page, 'smsru.csv', csv);
    await summary(page);
    assert.equal(await figure(page, 'imported'), '0');
    assert.equal(await figure(page, 'duplicates'), '1');
    assert.equal(await figure(page, 'refused'), '1');
    // Both imports of the file are listed, newest first; the earlier one opens its summary again.
    const rows = page.getByTestId('sms-import-row').filter({ hasText: 'smsru.csv' });
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="sms-import-row"]').length === 3,
    );
    assert.match(await rows.nth(0).innerText(), /0 imported · 1 already · 1 refused/);
    await rows.nth(1).getByRole('button').click();
    await page.waitForURL(`**import=${smsRuImport}`);
    // The earlier import's own figures, once they replaced the later one's.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sms-import-imported"] dd')?.textContent?.trim() === '1',
    );
    await page.getByTestId('sms-import-refusal').waitFor();
    assert.equal(await figure(page, 'imported'), '1');
    assertNoErrors(errors);
    await context.close();
  });

  test('(c) the screen in Russian at 390 px', async () => {
    const { page, errors, context } = await openPage(browser, server.url, { width: 390, height: 844 });
    await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, `/admin/sms-imports?import=${smsRuImport}`);
    await page.getByText('Импорт SMS').first().waitFor();
    await page.getByText('Нет телефона или это не номер телефона').waitFor();
    await screenshot(page, 'sms-import-ru-390', { toasts: false });
    await assertAccessible(page, 'SMS import, Russian, 390 px');
    // A header not seen before waits for its columns, in Russian.
    await page.getByTestId('sms-import-another').click();
    await choose(page, 'SMS-канал', 'Other SMS');
    await upload(page, 'out.csv', 'Телефон клиента;Сообщение\r\n79160001144;Здравствуйте\r\n');
    await page.getByTestId('sms-import-mapping').waitFor();
    await page.getByText('Выберите столбцы').waitFor();
    await screenshot(page, 'sms-import-ru-390-mapping', { toasts: false });
    await assertAccessible(page, 'SMS import columns, Russian, 390 px');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    assertNoErrors(errors);
    await context.close();
  });

  test('(d) an SMS channel created in the channels screen shows its callback address with the key once', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect SMS mailing system (import)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('guide-steps').waitFor();
    await screenshot(page, 'sms-channel-guide', { toasts: false });
    await dialog.getByRole('button', { name: 'Next' }).click();
    await field(dialog, 'Name').fill('SMSC account');
    await field(dialog, 'Team').click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await field(dialog, 'SMS service').click();
    await page.getByRole('option', { name: 'SMSC.ru', exact: true }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByTestId('sms-callback-url');
    await shown.waitFor();
    const url = (await shown.textContent())?.trim() ?? '';
    const list = await apiCall(server.url, 'GET', '/api/channels', undefined, adminToken);
    const made = list.body.entity.items.find((c: { name: string }) => c.name === 'SMSC account');
    assert.ok(made);
    assert.match(url, new RegExp(`^${server.url}/api/sms/${made.id}/callback\\?key=[A-Za-z0-9_-]{16,}$`));
    await screenshot(page, 'sms-channel-created', { toasts: false });
    await assertAccessible(page, 'SMS channel created');
    // The key works: the service's JSON callback stores an SMS.
    const key = new URL(url).searchParams.get('key');
    const cb = await fetch(`${server.url}/api/sms/${made.id}/callback?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'cb-1', phone: '+79160001155', text: 'Hello', status: 'delivered' }),
    });
    assert.equal(cb.status, 200);
    await page.getByRole('button', { name: 'I have saved the key' }).click();
    assert.equal(await page.getByTestId('sms-callback-url').count(), 0);

    // The channel's page shows the address without the key, and leads to the import.
    await page.goto(`/admin/preferences/channels/${made.id}`);
    const again = page.getByTestId('sms-callback-url');
    await again.waitFor();
    assert.equal((await again.textContent())?.trim(), `${server.url}/api/sms/${made.id}/callback?key=…`);
    await page.getByText('The key (key=…) was shown once').waitFor();
    await screenshot(page, 'sms-channel-edit', { toasts: false });
    await assertAccessible(page, 'SMS channel page');
    await page.getByTestId('sms-open-import').click();
    await page.waitForURL(`**/admin/sms-imports?channel=${made.id}`);
    assert.equal(await field(page, 'SMS channel').inputValue(), 'SMSC account');
    assertNoErrors(errors);
    await context.close();
  });
});
