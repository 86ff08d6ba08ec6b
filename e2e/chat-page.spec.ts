// The chat page (issue 34): the admin creates one through its guide (both languages), gets its link and QR code; a
// visitor opens /c/{slug} on a 320 px phone, writes, and the operator's answer arrives live on the page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { nameAndTeam } from './channel-fixture.ts';
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

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('chat page', () => {
  test('created through its guide with a link and a QR code; a visitor at 320 px is answered live', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await page.reload();
    await page.getByRole('button', { name: 'Подключить Страница чата', exact: true }).click();
    await page
      .getByRole('dialog')
      .getByText(/Отдельная страница чата по ссылке/)
      .waitFor();
    await assertAccessible(page, 'chat page guide (Russian)');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.evaluate(() => localStorage.setItem('sc-lang', 'eng'));
    await page.reload();

    await page.getByRole('button', { name: 'Connect Chat page', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/A chat page of its own at a link you share/).waitFor();
    await assertAccessible(page, 'chat page guide');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Help page');
    await dialog.getByTestId('chat-page-slug').fill('Not a slug!');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Value specified incorrectly').waitFor();
    await dialog.getByTestId('chat-page-slug').fill('acme-help');
    await field(dialog, 'Title').fill('Acme help');
    await field(dialog, 'Welcome message').fill('Hi! Ask us anything.');
    await dialog.getByRole('button', { name: 'Create' }).click();

    const created = page.getByRole('dialog', { name: 'Chat page created' });
    const url = (await created.getByTestId('chat-page-url').textContent())?.trim();
    assert.equal(url, `${server.url}/c/acme-help`);
    await created.getByTestId('chat-page-qr').waitFor();
    await assertAccessible(page, 'chat page created');
    await screenshot(page, 'chat-page-created');
    await created.getByRole('button', { name: 'Done' }).click();
    assertNoErrors(errors);

    // The visitor, on a small phone.
    const visitor = await openPage(browser, server.url, { width: 320, height: 640 });
    const v = visitor.page;
    await v.goto('/c/acme-help');
    assert.equal(await v.title(), 'Acme help');
    const input = v.getByRole('textbox', { name: 'Message' });
    await input.waitFor();
    await v.getByText('Hi! Ask us anything.').waitFor();
    const overflow = await v.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(overflow, false, 'nothing wider than the phone');
    await assertAccessible(v, 'chat page at 320 px');
    await input.fill('Do you deliver on Sundays?');
    await input.press('Enter');
    // Shown once: the pending copy gives way to the stored message (the live echo may come first).
    const mine = v.getByText('Do you deliver on Sundays?');
    for (let i = 0; i < 50 && (await mine.count()) !== 1; i++) await v.waitForTimeout(200);
    assert.equal(await mine.count(), 1, 'the message is shown once');
    await screenshot(v, 'chat-page-320');

    let chatId: string | undefined;
    for (let i = 0; i < 75 && !chatId; i++) {
      const list = await apiCall(server.url, 'GET', '/api/chats?filter=waiting', undefined, adminToken);
      chatId = list.body.entity.items.find((c: { lastMessage: { text: string } | null }) =>
        c.lastMessage?.text.includes('Sundays'),
      )?.id;
      if (!chatId) await v.waitForTimeout(200);
    }
    assert.ok(chatId, 'the visitor opened a chat');
    await apiCall(server.url, 'POST', `/api/chats/${chatId}/take`, undefined, adminToken);
    const sent = await apiCall(
      server.url,
      'POST',
      `/api/chats/${chatId}/messages`,
      { text: 'Yes, every day.' },
      adminToken,
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await v.getByText('Yes, every day.').waitFor();
    assertNoErrors(visitor.errors);

    const missing = await openPage(browser, server.url, { width: 320, height: 640 });
    const res = await missing.page.goto('/c/no-such-page');
    assert.equal(res?.status(), 404);
    await missing.page.getByRole('heading', { name: 'This chat page does not exist' }).waitFor();
  });
});
