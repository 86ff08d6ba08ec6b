// Automatic replies (issue 13): an administrator switches on the offline reply of Demo's website chat on the
// channel page's 'automatic replies' tab; a visitor writing in the widget's sample page gets it (nobody is in work
// after the first start). The tab is checked with axe-core and looked at on a desktop and at 390 px in Russian.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
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
let admin: string;
let siteId: string;
const OFFLINE = 'We are offline now, we will answer in the morning.';

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  admin = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  const all = await apiCall(server.url, 'GET', '/api/channels', undefined, admin);
  siteId = all.body.entity.items.find((c: { type: string }) => c.type === 'site_chat')?.id;
  assert.ok(siteId, 'Demo has a website chat');
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('automatic replies', () => {
  test('the administrator switches on the offline reply; a visitor of the widget gets it', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, admin, `/admin/preferences/channels/${siteId}`);
    await page.getByRole('tab', { name: 'Automatic replies' }).click();
    const offline = page.getByTestId('auto-reply-offline');
    await offline.waitFor();
    // From the keyboard: the switch is named by its card's title.
    const toggle = offline.getByRole('switch', { name: 'When operators are offline' });
    await toggle.press('Space');
    assert.equal(await toggle.isChecked(), true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    // On without a text: the spec's field message under the text, nothing saved.
    await fieldError(offline, 'Reply text', 'Please fill in all required fields');
    await offline.getByLabel(/^Reply text/).fill(OFFLINE);
    const holding = page.getByTestId('auto-reply-holding');
    await holding.getByText('5 min').click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The channel has been changed').waitFor();
    const saved = await apiCall(server.url, 'GET', `/api/channels/${siteId}/auto-replies`, undefined, admin);
    assert.deepEqual(saved.body.entity.offline, { enabled: true, text: OFFLINE });
    assert.equal(saved.body.entity.holding.waitMinutes, 5);
    await screenshot(page, 'auto-replies-desktop', { toasts: false });
    // The toast's own close button is the notifications library's (unnamed): checked once it has gone.
    await page.getByText('The channel has been changed').waitFor({ state: 'hidden' });
    await assertAccessible(page, 'automatic replies tab');
    assertNoErrors(errors);
    await context.close();

    // A visitor writes on the sample page: nobody of Sales is in work, so the offline reply comes back.
    const visitor = await openPage(browser, server.url);
    const v = visitor.page;
    await v.goto(`/widget-preview/${siteId}`);
    await v.getByRole('button', { name: /^Open chat/ }).click();
    const input = v.getByRole('textbox', { name: 'Message' });
    await input.fill('Is anyone there?');
    await input.press('Enter');
    await v.getByText(OFFLINE).waitFor({ timeout: 15_000 });
    await screenshot(v, 'auto-replies-widget');
    assertNoErrors(visitor.errors);
    await visitor.context.close();
  });

  test('the tab at 390 px in Russian', async () => {
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await context.addInitScript(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, admin, `/admin/preferences/channels/${siteId}`);
    await page.getByRole('tab', { name: 'Автоответы' }).click();
    await page.getByTestId('auto-reply-holding').getByText('5 мин').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scroll at 390 px (${overflow})`);
    await screenshot(page, 'auto-replies-390-ru');
    await assertAccessible(page, 'automatic replies tab, 390 px, Russian');
    assertNoErrors(errors);
    await context.close();
  });
});
