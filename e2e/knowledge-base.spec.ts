import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
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
let webhook: Server;
let adminToken: string;
let olegToken: string;
let chatId: string;
/** The texts the channel's webhook received: what the client gets. */
const delivered: string[] = [];
const BODY = 'Refunds reach the card in 14 days.\n\n- Keep the receipt\n- Ask the courier for a form';

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

const composerValue = (page: Page) => page.getByTestId('composer-input').inputValue();
async function waitValue(page: Page, expected: (v: string) => boolean, what: string) {
  for (let i = 0; i < 50; i++) {
    if (expected(await composerValue(page))) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`${what}: the message box holds ${JSON.stringify(await composerValue(page))}`);
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  olegToken = await apiLogin(server.url, 'operator1@demo.local', server.passwords['operator1@demo.local']);
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
  const sales = teams.body.entity.items.find((t: { name: string }) => t.name === 'Sales');
  const ch = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'KB API', teamId: sales.id, webhookUrl: await startWebhook() },
    adminToken,
  );
  assert.equal(ch.status, 200, JSON.stringify(ch.body));
  const res = await fetch(`${server.url}/api/channels/${ch.body.entity.id}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ch.body.entity.inboundKey}` },
    body: JSON.stringify({
      externalMessageId: 'kb-1',
      client: { externalId: 'kb-client', name: 'Rita Client' },
      text: 'How do I get my money back?',
    }),
  });
  chatId = ((await res.json()) as { entity: { chatId: string } }).entity.chatId;
  const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, adminToken);
  if (chat.body.entity.operator?.id === undefined) {
    const taken = await apiCall(server.url, 'POST', `/api/chats/${chatId}/take`, undefined, olegToken);
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
  }
});
after(async () => {
  await browser?.close();
  await server?.stop();
  webhook?.close();
});

describe('knowledge base', () => {
  test('an administrator writes a public article for Sales in Preferences', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/knowledge-base');
    // Demo starts with its articles (delivery and payment in both languages, returns for Support).
    await page.getByTestId('kb-row').filter({ hasText: 'Delivery times' }).waitFor();
    await page.getByTestId('kb-add-category').click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await fieldError(drawer, 'Name', 'Name specified incorrectly');
    await drawer.getByTestId('kb-category-name').fill('Payments');
    await drawer.getByTestId('kb-category-teams').click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await drawer.getByTestId('kb-category-name').click();
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Category created').waitFor();
    await page.getByTestId('kb-category-Payments').getByText('Sales').waitFor();

    await page.getByTestId('kb-add-article').click();
    const editor = page.getByRole('dialog');
    await editor.getByRole('button', { name: 'Create' }).click();
    await fieldError(editor, 'Category', 'A category must be chosen');
    await fieldError(editor, 'Title', 'Please fill in all required fields');
    await editor.getByTestId('kb-article-category').click();
    await page.getByRole('option', { name: 'Payments' }).click();
    await editor.getByTestId('kb-article-title').fill('Refund policy');
    await editor.getByTestId('kb-article-body').fill(BODY);
    await editor.getByRole('switch', { name: 'Public page' }).check();
    await screenshot(page, 'kb-editor');
    await assertAccessible(page, 'knowledge-base article editor');
    await editor.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Article created').waitFor();
    await editor.waitFor({ state: 'hidden' });
    const row = page.getByTestId('kb-row').filter({ hasText: 'Refund policy' });
    await row.waitFor();
    await row.getByText('Public', { exact: true }).waitFor();
    await screenshot(page, 'kb-page', { toasts: false });
    await assertAccessible(page, 'knowledge-base page');
    assertNoErrors(errors);
  });

  test('an operator finds it in the side panel, inserts its text, sends its link; the public page opens', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, olegToken, `/admin/chats?filter=assigned&chat=${chatId}`);
    await page.getByTestId('composer-input').waitFor();
    const panel = page.getByTestId('kb-panel-search');
    await panel.getByTestId('kb-panel-search-input').fill('refunds');
    const result = panel.getByTestId('kb-result');
    await result.getByText('Refund policy').waitFor();
    await screenshot(page, 'kb-side-panel');
    await assertAccessible(page, 'knowledge base in the side panel');
    await result.getByTestId('kb-insert-text').click();
    await waitValue(page, (v) => v === BODY, 'the inserted text');
    await page.getByTestId('composer-input').fill('');
    await result.getByTestId('kb-insert-link').click();
    await waitValue(
      page,
      (v) => /^Refund policy: http:\/\/.+\/kb\/[0-9a-f-]{36}\/refund-policy-[0-9a-f]+$/.test(v),
      'the link',
    );
    const link = (await composerValue(page)).replace('Refund policy: ', '');
    await page.getByTestId('composer-input').press('Enter');
    await page.getByTestId('message-list').getByText(link).waitFor();
    for (let i = 0; i < 50 && !delivered.length; i++) await page.waitForTimeout(100);
    assert.deepEqual(delivered, [`Refund policy: ${link}`]);

    // Anyone with the link reads the article, without signing in.
    const visitor = await context.browser()!.newContext({ viewport: { width: 390, height: 800 } });
    const pub = await visitor.newPage();
    const pubErrors: string[] = [];
    pub.on('console', (m) => m.type() === 'error' && pubErrors.push(m.text()));
    const answer = await pub.goto(link);
    assert.equal(answer?.status(), 200);
    await pub.getByRole('heading', { name: 'Refund policy' }).waitFor();
    await pub.getByRole('listitem').filter({ hasText: 'Keep the receipt' }).waitFor();
    await screenshot(pub, 'kb-public-390');
    await assertAccessible(pub, 'public article page');
    assert.deepEqual(pubErrors, []);
    await visitor.close();
    assertNoErrors(errors);
  });

  test('Russian at 390 px: the settings page, and the search beside the message box', async () => {
    const admin = await openPage(browser, server.url, { width: 390 });
    await admin.page.goto('/not-found');
    await admin.page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(admin.page, adminToken, '/admin/preferences/knowledge-base');
    const row = admin.page.getByTestId('kb-row').filter({ hasText: 'Refund policy' });
    await row.getByText('Публичная', { exact: true }).waitFor();
    const width = await admin.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width} px wide`);
    await screenshot(admin.page, 'kb-page-390-ru', { toasts: false });
    await assertAccessible(admin.page, 'knowledge-base page, 390 px, Russian');
    assertNoErrors(admin.errors);

    const { page, errors } = await openPage(browser, server.url, { width: 390 });
    await page.goto('/not-found');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, olegToken, `/admin/chats?filter=assigned&chat=${chatId}`);
    await page.getByTestId('composer-input').waitFor();
    await page.getByRole('button', { name: 'База знаний' }).click();
    const search = page.getByTestId('kb-composer-search');
    await search.getByTestId('kb-composer-search-input').fill('возврат refund');
    await search.getByTestId('kb-composer-search-empty').waitFor();
    await search.getByTestId('kb-composer-search-input').fill('refund');
    await search.getByTestId('kb-result').getByText('Refund policy').waitFor();
    await screenshot(page, 'kb-composer-390-ru');
    await assertAccessible(page, 'knowledge-base search beside the message box, 390 px, Russian');
    await search.getByRole('button', { name: 'Вставить текст: Refund policy' }).click();
    await waitValue(page, (v) => v === BODY, 'the inserted text');
    await page.getByTestId('composer-input').fill('');
    assertNoErrors(errors);
  });
});
