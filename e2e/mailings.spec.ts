import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startFakeWhatsApp } from '../server/test/fakes/whatsapp.ts';
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
/** Meta's WhatsApp Cloud API: the WhatsApp channel's registered templates. */
let wa: Awaited<ReturnType<typeof startFakeWhatsApp>>;
let browser: Browser;
let webhook: Server;
let adminToken: string;
let channelId: string;
/** The texts the API channel's webhook received: what the clients get. */
const delivered: string[] = [];

async function startWebhook(): Promise<string> {
  webhook = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const text = JSON.parse(body || '{}').text;
      if (typeof text === 'string') delivered.push(text);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(webhook.address() as { port: number }).port}/hook`;
}

/** A client writes to the API channel (a contact of it from then on); returns the client's id. */
async function clientWrites(key: string, externalId: string, name: string): Promise<string> {
  const res = await fetch(`${server.url}/api/channels/${channelId}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ externalMessageId: `m-${externalId}`, client: { externalId, name }, text: 'Hi' }),
  });
  assert.equal(res.status, 200);
  const chatId = ((await res.json()) as { entity: { chatId: string } }).entity.chatId;
  const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, adminToken);
  return chat.body.entity.client.id;
}

/** The live count's figure once it settles on `n`. */
async function eligible(page: Page, n: number): Promise<void> {
  await page
    .getByTestId('audience-eligible')
    .getByText(String(n), { exact: true })
    .waitFor({ timeout: 10_000 });
}

before(async () => {
  wa = await startFakeWhatsApp();
  server = await startServer({ env: { WHATSAPP_API_BASE_URL: wa.baseUrl } });
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
  const sales = teams.body.entity.items.find((t: { name: string }) => t.name === 'Sales');
  const ch = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'Shop API', teamId: sales.id, webhookUrl: await startWebhook() },
    adminToken,
  );
  assert.equal(ch.status, 200, JSON.stringify(ch.body));
  channelId = ch.body.entity.id;
  const key = ch.body.entity.inboundKey;
  await clientWrites(key, 'c-1', 'Wanda Client');
  await clientWrites(key, 'c-2', 'Otto Client');
  const blocked = await clientWrites(key, 'c-3', 'Boris Blocked');
  const bl = await apiCall(server.url, 'POST', '/api/blacklist', { clientId: blocked }, adminToken);
  assert.equal(bl.status, 200, JSON.stringify(bl.body));
});
after(async () => {
  await browser?.close();
  await server?.stop();
  webhook?.close();
  await wa?.close();
});

describe('mailings', () => {
  test('an administrator writes a mailing, sees the live count, saves and starts it, and reads its statistics', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/chats');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Mailings' }).click();
    await page.waitForURL('**/admin/mailings');
    await page.getByText('No mailings yet').waitFor();
    await screenshot(page, 'mailings-empty', { toasts: false });
    await assertAccessible(page, 'mailings, empty');

    await page.getByTestId('add-mailing').click();
    await page.waitForURL('**/admin/mailings/new');
    await page.getByText('Choose a channel to count its recipients.').waitFor();
    await page.getByTestId('save-mailing').click();
    await fieldError(page, 'Name', 'Name specified incorrectly');
    await page.getByTestId('mailing-name').fill('Autumn sale');
    // The site chat cannot write first: the server refuses it under the channel.
    await page.getByTestId('mailing-channel').click();
    await page
      .getByRole('option', { name: /\(Site chat\)$/ })
      .first()
      .click();
    await page.getByTestId('audience-count-error').waitFor({ timeout: 10_000 });
    await page.getByTestId('mailing-channel').click();
    await page.getByRole('option', { name: 'Shop API (API)' }).click();
    await eligible(page, 2);
    await page.getByTestId('audience-skipped-blacklisted').getByText('In the blacklist: 1').waitFor();
    // Only Wanda by the uploaded list; an unknown entry is counted as not found.
    await page.getByTestId('audience-list').fill('c-1\nnobody');
    await eligible(page, 1);
    await page.getByTestId('audience-not-found').waitFor();
    await page.getByTestId('audience-list').fill('');
    await eligible(page, 2);

    await page.getByTestId('mailing-text').fill('Hello ');
    await page.getByTestId('insert-client_name').click();
    await page.getByTestId('mailing-text').press('End');
    await page.getByTestId('mailing-text').pressSequentially(', the sale starts today!');
    await page.getByTestId('mailing-preview').locator('[data-variable="client_name"]').waitFor();
    await page.getByTestId('window-on').check();
    await page.getByTestId('window-from').fill('00:00');
    await page.getByTestId('window-to').fill('23:59');
    await screenshot(page, 'mailings-form', { toasts: false });
    await assertAccessible(page, 'mailing form');
    await page.getByTestId('save-mailing').click();
    await page.getByText('Mailing saved as a draft').waitFor();
    await page.waitForURL(/\/admin\/mailings\/[0-9a-f-]{36}$/);
    await page.locator('[data-testid="mailing-status"][data-status="draft"]').waitFor();
    await eligible(page, 2);
    await screenshot(page, 'mailings-draft', { toasts: false });
    await assertAccessible(page, 'draft mailing page');

    // A draft is edited in place: at most 10 a second.
    await page.getByTestId('mailing-edit').click();
    await page.waitForURL(/\/edit$/);
    await page.getByTestId('rate').fill('10');
    await page.getByTestId('save-mailing').click();
    await page.getByText('Mailing changed').waitFor();
    await page.getByText('10 messages a second').waitFor();

    await page.getByTestId('mailing-start').click();
    await page.getByText('Mailing started').waitFor();
    // Sent to both (polled every 2 s while sending), the blacklisted client skipped.
    await page.locator('[data-testid="mailing-status"][data-status="finished"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('mailing-progress-value').getByText('100%').waitFor();
    const stat = (name: string) => page.getByTestId(`stat-${name}`).locator('dd').innerText();
    assert.equal(await stat('recipients'), '3');
    assert.equal(await stat('sent'), '2');
    assert.equal(await stat('skipped'), '1');
    await page.getByTestId('skipped-by').getByText('In the blacklist').waitFor();
    await waitFor(() => (delivered.length >= 2 ? true : undefined));
    assert.deepEqual(delivered.sort(), [
      'Hello Otto Client, the sale starts today!',
      'Hello Wanda Client, the sale starts today!',
    ]);
    // The recipients as a file.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('mailing-export-csv').click(),
    ]);
    assert.match(file.suggestedFilename(), /^mailing-\d{4}-\d\d-\d\d-[0-9a-f]{8}\.csv$/);
    const csv = await readFile((await file.path()) ?? '', 'utf8');
    assert.equal(
      csv
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n').length,
      4,
      'a header and three recipients',
    );
    await screenshot(page, 'mailings-detail', { toasts: false });
    await assertAccessible(page, 'mailing page');

    // Reports -> Mailings (the last 7 days by default): the mailing with its figures.
    await page.goto(`${server.url}/admin/reports/mailings`);
    const reported = page.getByTestId('mailings-report-row').filter({ hasText: 'Autumn sale' });
    await reported.waitFor();
    assert.match(await reported.innerText(), /Service/);
    await assertAccessible(page, 'reports, mailings');

    await page.getByRole('link', { name: 'Mailings' }).first().click();
    await page.getByTestId('mailing-row').getByText('Autumn sale').waitFor();
    await page.locator('[data-testid="mailing-row"] [data-status="finished"]').waitFor();
    await screenshot(page, 'mailings-list', { toasts: false });
    await assertAccessible(page, 'mailings list');
    assertNoErrors(errors);
  });

  test('a scheduled mailing is cancelled and deleted, each after a confirmation', async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const created = await apiCall(
      server.url,
      'POST',
      '/api/mailings',
      {
        name: 'Tomorrow',
        channelId,
        marketingType: 'advertising',
        text: 'See you tomorrow',
        scheduledAt: at,
      },
      adminToken,
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, `/admin/mailings/${created.body.entity.id}`);
    await page.getByTestId('mailing-start').click();
    await page.locator('[data-testid="mailing-status"][data-status="scheduled"]').waitFor();
    await page.getByTestId('mailing-cancel').click();
    await page.getByRole('dialog').getByText('Cancel the mailing?').waitFor();
    await assertAccessible(page, 'cancel confirmation');
    await page.getByRole('dialog').getByRole('button', { name: 'Keep' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.locator('[data-testid="mailing-status"][data-status="scheduled"]').waitFor();
    await page.getByTestId('mailing-cancel').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel mailing' }).click();
    await page.locator('[data-testid="mailing-status"][data-status="cancelled"]').waitFor();
    await page.getByTestId('mailing-delete').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Mailing deleted').waitFor();
    await page.waitForURL('**/admin/mailings');
    await page.getByTestId('mailing-row').first().waitFor();
    assert.equal(await page.getByTestId('mailing-row').getByText('Tomorrow').count(), 0);
    assertNoErrors(errors);
  });

  test('a mailing of files alone: attached, one removed, saved and listed on its page', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/mailings/new');
    await page.getByTestId('mailing-name').fill('Price list');
    await page.getByTestId('mailing-channel').click();
    await page.getByRole('option', { name: 'Shop API (API)' }).click();
    await eligible(page, 2);
    // Neither a text nor a file: the text is asked for.
    await page.getByTestId('save-mailing').click();
    await fieldError(page, 'Text', 'Please fill in all required fields');
    // Chosen through the button, as a keyboard user would.
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Attach files' }).press('Enter'),
    ]);
    await chooser.setFiles([
      { name: 'prices.txt', mimeType: 'text/plain', buffer: Buffer.from('Tea 3\nCoffee 4\n') },
      { name: 'old.txt', mimeType: 'text/plain', buffer: Buffer.from('Outdated\n') },
    ]);
    const files = page.getByTestId('mailing-file');
    await files.filter({ hasText: 'prices.txt' }).waitFor();
    await files.filter({ hasText: 'old.txt' }).waitFor();
    await page.getByRole('button', { name: 'Remove old.txt' }).click();
    await files.filter({ hasText: 'old.txt' }).waitFor({ state: 'detached' });
    assert.equal(await files.count(), 1);
    await assertAccessible(page, 'mailing form with files');
    await page.getByTestId('save-mailing').click();
    await page.getByText('Mailing saved as a draft').waitFor();
    await page.waitForURL(/\/admin\/mailings\/[0-9a-f-]{36}$/);
    const view = page.getByTestId('mailing-files-view');
    await view.getByRole('link', { name: 'prices.txt' }).waitFor();
    assert.equal(await view.getByRole('link').count(), 1);
    const id = page.url().split('/').pop();
    const saved = await apiCall(server.url, 'GET', `/api/mailings/${id}`, undefined, adminToken);
    assert.equal(saved.body.entity.text, '');
    assert.deepEqual(
      saved.body.entity.attachments.map((a: { name: string }) => a.name),
      ['prices.txt'],
    );
    await assertAccessible(page, 'mailing page with files');
    // Edited: the file stays with the mailing.
    await page.getByTestId('mailing-edit').click();
    await page.waitForURL(/\/edit$/);
    await page.getByTestId('mailing-file').filter({ hasText: 'prices.txt' }).waitFor();
    assertNoErrors(errors);
  });

  test('a WhatsApp mailing with a registered template: its variables filled, the text left out', async () => {
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
    const sales = teams.body.entity.items.find((t: { name: string }) => t.name === 'Sales');
    const ch = await apiCall(
      server.url,
      'POST',
      '/api/channels',
      {
        type: 'whatsapp',
        name: 'Shop WhatsApp',
        teamId: sales.id,
        phoneNumberId: wa.phoneNumberId,
        wabaId: wa.wabaId,
        accessToken: wa.accessToken,
        appSecret: wa.appSecret,
        verifyToken: 'shop-verify-2026',
      },
      adminToken,
    );
    assert.equal(ch.status, 200, JSON.stringify(ch.body));
    wa.templates.push({
      id: '880001',
      name: 'delivery_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hello {{1}}, your delivery is on {{2}}' }],
    });
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/mailings/new');
    await page.getByTestId('mailing-name').fill('Deliveries');
    // No template part for a channel other than WhatsApp.
    await page.getByTestId('mailing-channel').click();
    await page.getByRole('option', { name: 'Shop API (API)' }).click();
    await eligible(page, 2);
    assert.equal(await page.getByTestId('mailing-template-fields').count(), 0);
    await page.getByTestId('mailing-channel').click();
    await page.getByRole('option', { name: 'Shop WhatsApp (WhatsApp)' }).click();
    await page.getByText('Outside the 24-hour window').waitFor();
    await page.getByTestId('mailing-template').click();
    await page.getByRole('option', { name: 'delivery_update (English)' }).click();
    await field(page, 'Variable 1').fill('{client_name}');
    await page.getByTestId('save-mailing').click();
    await fieldError(page, 'Variable 2', 'Please fill in all required fields');
    await field(page, 'Variable 2').fill('Monday');
    await page
      .getByTestId('mailing-template-preview')
      .getByText('Hello {client_name}, your delivery is on Monday')
      .waitFor();
    await assertAccessible(page, 'mailing form with a WhatsApp template');
    await page.getByTestId('save-mailing').click();
    await page.getByText('Mailing saved as a draft').waitFor();
    await page.waitForURL(/\/admin\/mailings\/[0-9a-f-]{36}$/);
    await page.getByTestId('mailing-template-view').getByText('delivery_update').waitFor();
    const id = page.url().split('/').pop();
    const saved = await apiCall(server.url, 'GET', `/api/mailings/${id}`, undefined, adminToken);
    assert.equal(saved.body.entity.text, '');
    assert.deepEqual(saved.body.entity.template, {
      name: 'delivery_update',
      languageCode: 'en_US',
      variables: ['{client_name}', 'Monday'],
    });
    assertNoErrors(errors);
  });

  test("the organisation's opt-out words: changed, kept, refused empty and reset to the defaults", async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/mailings');
    await page.getByTestId('opt-out-words').click();
    const dialog = page.getByRole('dialog', { name: 'Opt-out words' });
    const pill = (word: string) => dialog.locator('.mantine-Pill-root', { hasText: word });
    await pill('UNSUBSCRIBE').waitFor();
    await dialog.getByText('Default words').waitFor();
    assert.equal(
      await dialog.getByTestId('opt-out-words-reset').count(),
      0,
      'no reset while the defaults apply',
    );
    await pill('UNSUBSCRIBE').locator('button').click();
    await pill('UNSUBSCRIBE').waitFor({ state: 'detached' });
    await field(dialog, 'Words').fill('ХВАТИТ');
    await field(dialog, 'Words').press('Enter');
    await pill('ХВАТИТ').waitFor();
    await dialog.getByTestId('opt-out-words-save').click();
    await page.getByText('Opt-out words saved').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const saved = await apiCall(server.url, 'GET', '/api/mailing-settings', undefined, adminToken);
    assert.deepEqual(saved.body.entity, {
      optOutWords: ['STOP', 'СТОП', 'Отписаться', 'Отписка', 'ХВАТИТ'],
      custom: true,
    });

    // Opened again: the words kept, the organisation's own.
    await page.getByTestId('opt-out-words').click();
    await pill('ХВАТИТ').waitFor();
    await dialog.getByText('Your own words').waitFor();
    assert.equal(await pill('UNSUBSCRIBE').count(), 0);
    await screenshot(page, 'mailings-opt-out-words', { toasts: false });
    await assertAccessible(page, 'opt-out words modal');
    // Every word removed: at least one is asked for.
    while ((await dialog.locator('.mantine-Pill-root').count()) > 0)
      await dialog.locator('.mantine-Pill-root button').first().click();
    await dialog.getByTestId('opt-out-words-save').click();
    await fieldError(dialog, 'Words', 'Add at least one word');
    await screenshot(page, 'mailings-opt-out-words-empty', { toasts: false });
    await assertAccessible(page, 'opt-out words modal with an error');
    const unchanged = await apiCall(server.url, 'GET', '/api/mailing-settings', undefined, adminToken);
    assert.equal(unchanged.body.entity.custom, true);

    await dialog.getByTestId('opt-out-words-reset').click();
    await page.getByText('The default opt-out words are back').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const reset = await apiCall(server.url, 'GET', '/api/mailing-settings', undefined, adminToken);
    assert.deepEqual(reset.body.entity, {
      optOutWords: ['STOP', 'UNSUBSCRIBE', 'СТОП', 'Отписаться', 'Отписка'],
      custom: false,
    });
    await page.getByTestId('opt-out-words').click();
    await pill('UNSUBSCRIBE').waitFor();
    await dialog.getByText('Default words').waitFor();
    assertNoErrors(errors);
  });

  test('at 390 px in Russian: the list, a mailing and the form', async () => {
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, '/admin/mailings');
    await page.getByTestId('mailing-row').getByText('Autumn sale').waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(await overflow(), false, 'no sideways scrolling at 390 px');
    await screenshot(page, 'mailings-list-390-ru', { toasts: false });
    await assertAccessible(page, 'mailings list, 390 px, Russian');

    await page.getByTestId('mailing-row').getByRole('link', { name: 'Autumn sale' }).click();
    await page.getByText('Статистика').waitFor();
    await page.getByText('Завершена', { exact: true }).first().waitFor();
    assert.equal(await overflow(), false, 'no sideways scrolling at 390 px');
    await screenshot(page, 'mailings-detail-390-ru', { toasts: false });
    await assertAccessible(page, 'mailing page, 390 px, Russian');

    await page.goto('/admin/mailings/new');
    await page.getByText('Выберите канал, чтобы посчитать получателей.').waitFor();
    await page.getByTestId('mailing-channel').click();
    await page.getByRole('option', { name: 'Shop API (API)' }).click();
    await eligible(page, 2);
    assert.equal(await overflow(), false, 'no sideways scrolling at 390 px');
    await screenshot(page, 'mailings-form-390-ru', { toasts: false });
    await assertAccessible(page, 'mailing form, 390 px, Russian');
    // A WhatsApp channel's template part fits too.
    await page.getByTestId('mailing-channel').click();
    await page.getByRole('option', { name: 'Shop WhatsApp (WhatsApp)' }).click();
    await page.getByTestId('mailing-template').click();
    await page.getByRole('option', { name: /^delivery_update/ }).click();
    await field(page, 'Переменная 2').waitFor();
    assert.equal(await overflow(), false, 'no sideways scrolling at 390 px');
    await assertAccessible(page, 'mailing form with a template, 390 px, Russian');
    assertNoErrors(errors);
    await context.close();
  });
});
