import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import type { Browser, Locator, Page } from 'playwright-core';
import { type Dovecot, dovecotMissing, startDovecot } from '../server/test/dovecot.ts';
import { startSmtpSink } from '../server/test/smtp-sink.ts';
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
  ROOT,
  screenshot,
  signIn,
  startServer,
  type TestServer,
  waitFor,
} from './harness.ts';

const ADDRESS = 'support@shop.test';
const FIXTURES = join(ROOT, 'server/test/fixtures/email');
const fixture = (name: string, fill: Record<string, string> = {}) =>
  Buffer.from(
    Object.entries(fill).reduce(
      (text, [k, v]) => text.replaceAll(`{{${k}}}`, v),
      readFileSync(join(FIXTURES, name)).toString('latin1'),
    ),
    'latin1',
  );

/** The e-mail channel in the browser, against a real Dovecot and a real SMTP server. */
describe('e-mail channel', { skip: dovecotMissing() }, () => {
  let server: TestServer;
  let browser: Browser;
  let adminToken: string;
  let dovecot: Dovecot;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;

  before(async () => {
    dovecot = await startDovecot();
    dovecot.addUsers([ADDRESS], 'imap-secret');
    sink = await startSmtpSink({ users: { [ADDRESS]: 'smtp-secret' } });
    server = await startServer();
    browser = await launchBrowser();
    adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.close();
    await dovecot?.close();
  });

  async function deliver(...mails: Buffer[]) {
    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user: ADDRESS, pass: 'imap-secret' },
      logger: false,
    });
    await client.connect();
    for (const raw of mails) await client.append('INBOX', raw);
    await client.logout();
  }

  async function fillServer(
    box: Locator,
    s: { host: string; port: string; login: string; password: string },
  ) {
    await field(box, 'Server host').fill(s.host);
    await field(box, 'Port').fill(s.port);
    await field(box, 'Login').fill(s.login);
    await field(box, 'Password').fill(s.password);
    // A local test server speaks plain text (no TLS).
    const secure = box.getByRole('switch', { name: /SSL\/TLS/ });
    if (await secure.isChecked()) await secure.click({ force: true });
  }

  async function channelIdOf(name: string): Promise<string> {
    const list = await apiCall(server.url, 'GET', '/api/channels', undefined, adminToken);
    return list.body.entity.items.find((c: { name: string }) => c.name === name).id;
  }

  async function chooseTeam(page: Page, team: string) {
    await field(page.getByRole('dialog'), 'Team').click();
    await page.getByRole('option', { name: team }).click();
  }

  test('the admin connects a mailbox through the guide, a customer mail arrives, the answer goes out threaded', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect E-mail' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('guide-steps').waitFor();
    await dialog.getByText(/customers’ mail becomes dialogs/).waitFor();
    await assertAccessible(page, 'e-mail guide');
    await screenshot(page, 'channel-guide-email');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Mailbox address', 'Please fill in all required fields');

    await field(dialog, 'Name').fill('Support mail');
    await chooseTeam(page, 'Sales');
    await field(dialog, 'Mailbox address').fill(ADDRESS);
    const receive = dialog.getByTestId('email-receive');
    const send = dialog.getByTestId('email-send');
    await fillServer(receive, { host: dovecot.host, port: 'abc', login: ADDRESS, password: 'wrong' });
    await fillServer(send, {
      host: '127.0.0.1',
      port: String(sink.port),
      login: ADDRESS,
      password: 'smtp-secret',
    });
    await dialog.getByRole('button', { name: 'Create' }).click();
    // §5 'E-mail port numeric'.
    await fieldError(receive, 'Port', 'The port must be a number from 1 to 65535');
    await field(receive, 'Port').fill(String(dovecot.port));
    await dialog.getByRole('button', { name: 'Create' }).click();
    // Which server failed and why, in our words.
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Channel creation error' });
    await toast
      .getByText('Receiving (IMAP): the login or password was not accepted.', { exact: false })
      .waitFor();
    await screenshot(page, 'channel-guide-email-error');
    await assertAccessible(page, 'e-mail settings');
    await field(receive, 'Password').fill('imap-secret');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const row = page.getByTestId('channel-Support mail');
    await row.waitFor();
    await row.getByText(ADDRESS).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // Its settings page shows the servers, never the passwords; saving a new SMTP port tests the servers again.
    await page.goto(`/admin/preferences/channels/${await channelIdOf('Support mail')}`);
    const smtp = page.getByTestId('email-send');
    assert.equal(await field(smtp, 'Port').inputValue(), String(sink.port));
    assert.equal(await field(smtp, 'Password').inputValue(), '');
    await smtp.getByText('Leave empty to keep the current password.').waitFor();
    await field(smtp, 'Port').fill('9');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .locator('.mantine-Notification-root')
      .getByText(/Sending \(SMTP\): the server could not be reached/)
      .waitFor();
    await screenshot(page, 'channel-email-settings');
    await assertAccessible(page, 'e-mail channel settings');

    // A customer's mail in windows-1251 arrives (IDLE) and becomes a dialog.
    await page.goto('/admin/chats?filter=waiting');
    await page.waitForLoadState('networkidle');
    await deliver(fixture('win1251.eml'));
    const chat = page.getByTestId('chat-row').filter({ hasText: 'Иван Петров' });
    await chat.waitFor({ timeout: 20_000 });
    await chat.click();
    await page
      .getByTestId('message')
      .getByText(/Мой заказ №1045 так и не пришёл/)
      .waitFor();
    await page.getByRole('button', { name: 'Take' }).click();
    await page.getByTestId('chat-status').getByText('In progress').waitFor();
    const box = page.getByRole('textbox', { name: 'Write a message' });
    await box.fill('Ваш заказ уже в пути. Трек: 123');
    await box.press('Enter');
    const mail = await waitFor(() => sink.mails.find((m) => m.to.includes('ivan@customer.test')));
    const parsed = await simpleParser(mail.raw);
    assert.equal(parsed.subject, 'Re: Заказ №1045 не пришёл');
    assert.equal(parsed.inReplyTo, '<win1251-1045@customer.test>');
    assert.equal(parsed.text?.trim(), 'Ваш заказ уже в пути. Трек: 123');
    await page.getByTestId('message').filter({ hasText: 'Ваш заказ уже в пути' }).getByText('Sent').waitFor();

    // The customer answers with our mail quoted: it joins the dialog, the quote folded.
    const ourId = String(parsed.messageId).replace(/^<|>$/g, '');
    await deliver(fixture('threaded-reply.eml', { IN_REPLY_TO: ourId }));
    const reply = page.getByTestId('message').filter({ hasText: 'Спасибо, получил!' });
    await reply.waitFor({ timeout: 20_000 });
    const quoted = reply.getByTestId('quoted-text');
    assert.equal(await quoted.isVisible(), false);
    await reply.getByRole('button', { name: /Show quoted text/ }).click();
    await quoted.getByText(/Трек: 123/).waitFor();
    await assertAccessible(page, 'e-mail conversation');
    await screenshot(page, 'channel-email-chat');
    // The refused connection above answered 502 on purpose.
    assertNoErrors(errors, /status of 502/);
    await context.close();
  });

  test('the e-mail settings are usable at 390 px', async () => {
    const { page, errors, context } = await openPage(browser, server.url, { width: 390 });
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect E-mail' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByTestId('email-send').waitFor();
    await screenshot(page, 'channel-guide-email-390');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no horizontal scroll (${width})`);
    assertNoErrors(errors);
    await context.close();
  });
});
