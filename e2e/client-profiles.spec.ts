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
let channelId: string;
let inboundKey: string;
let n = 0;

const inbound = async (externalId: string, name: string, text: string) => {
  const res = await fetch(`${server.url}/api/channels/${channelId}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${inboundKey}` },
    body: JSON.stringify({ externalMessageId: `cp-${n++}`, client: { externalId, name }, text }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { entity: { chatId: string } }).entity.chatId;
};

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').getByText(text, { exact: true }).first().waitFor();

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
  const list = Array.isArray(teams.body.entity) ? teams.body.entity : teams.body.entity.items;
  const sales = list.find((t: { name: string }) => t.name === 'Sales');
  const ch = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'CRM API', teamId: sales.id, webhookUrl: 'http://127.0.0.1:9/unused' },
    adminToken,
  );
  assert.equal(ch.status, 200, JSON.stringify(ch.body));
  channelId = ch.body.entity.id;
  inboundKey = ch.body.entity.inboundKey;
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('client profiles', () => {
  test('a status is created in Preferences; the profile is edited, given the status and a comment from the chat screen', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/statuses');
    await page.getByTestId('add-status').click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Name specified incorrectly').first().waitFor();
    await field(page, 'Name').fill('VIP');
    await field(page, 'Colour').click();
    await page.getByRole('option', { name: 'Violet' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Status created');
    await page.getByTestId('status-VIP').waitFor();
    // The side page has closed and its fade-out ended (a half-transparent layer fails the contrast check).
    await page.getByTestId('status-form').waitFor({ state: 'detached' });
    await page.waitForTimeout(400);
    await assertAccessible(page, 'statuses');
    await screenshot(page, 'client-statuses', { toasts: false });

    const chatId = await inbound('kate-1', 'Kate', 'Hello, I need a quote');
    await page.goto(`/admin/chats?filter=waiting&chat=${chatId}`);
    const card = page.getByTestId('profile-card');
    await card.waitFor();
    await card.getByTestId('edit-profile').click();
    const form = page.getByTestId('profile-form');
    await field(form, 'Profile name').fill('');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Name specified incorrectly').first().waitFor();
    await field(form, 'Profile name').fill('Kate Miller');
    await page.getByTestId('profile-phones').fill('+44 20 7946 0958');
    await page.getByTestId('profile-phones').press('Enter');
    await page.getByTestId('profile-tags').fill('wholesale');
    await page.getByTestId('profile-tags').press('Enter');
    await page.getByTestId('profile-status').click();
    await page.getByRole('option', { name: 'VIP' }).click();
    await page.getByTestId('profile-session-status').click();
    await page.getByRole('option', { name: 'Potential client' }).click();
    await assertAccessible(page, 'profile side page');
    await screenshot(page, 'client-profile-edit');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Profile changed');
    await card.getByTestId('client-status').getByText('VIP').waitFor();
    await card.getByTestId('client-tags').getByText('wholesale').waitFor();
    await card.getByText('+442079460958').waitFor();
    await card.getByTestId('session-status').getByText('Potential client').waitFor();
    await page.getByTestId('client-name').getByText('Kate Miller').waitFor();

    await card.getByTestId('comment-input').fill('Wants a quote by Friday');
    await card.getByRole('button', { name: 'Add comment' }).click();
    await toast(page, 'Comment added');
    await card.getByTestId('client-comments').getByText('Wants a quote by Friday').waitFor();
    await card
      .getByTestId('client-comments')
      .getByText(/^Demo Administrator · /)
      .waitFor();
    await assertAccessible(page, 'chat screen with the client card');
    await screenshot(page, 'client-profile-card', { toasts: false });

    // The clients list finds her by tag and by phone.
    await page.goto('/admin/clients');
    await page.getByTestId('clients-search').fill('wholesale');
    await page.getByTestId('clients-table').getByText('Kate Miller').waitFor();
    await page.getByTestId('clients-search').fill('+442079460958');
    await page.getByTestId('clients-table').getByText('Kate Miller').waitFor();
    await assertAccessible(page, 'clients list');
    await screenshot(page, 'clients-list');
    // A status in use cannot be deleted (§8).
    await page.goto('/admin/preferences/statuses');
    await page.getByTestId('status-VIP').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'An active status cannot be deleted until it is removed from all clients');
    assertNoErrors(errors);
    await context.close();
  });

  test('two profiles of one person are merged from the chat screen after a preview and a warning', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await inbound('kate-2', 'Kate M.', 'It is me again, from another account');
    await inbound('kate-4', 'katie', 'A fourth one, same name');
    const chatId = await inbound('kate-3', 'Katie', 'And a third one');
    await signIn(page, adminToken, `/admin/chats?filter=waiting&chat=${chatId}`);
    const card = page.getByTestId('profile-card');
    await card.getByTestId('merge-client').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Merging cannot be undone. The merged clients are deleted.').waitFor();
    assert.equal(await dialog.getByTestId('merge-confirm').isDisabled(), true);
    // The duplicate by name is suggested; the others are found by search.
    await dialog.getByTestId('merge-suggested').getByRole('button', { name: /katie/ }).click();
    await dialog.getByTestId('merge-pick').fill('Kate');
    await dialog.getByRole('checkbox', { name: /Kate M\./ }).check();
    await dialog.getByRole('checkbox', { name: /Kate Miller/ }).check();
    await dialog
      .getByTestId('merge-preview')
      .getByText(/Moves 3 channel contacts, 1 phones and e-mails, 3 dialogs with 3 messages, 1 comments/)
      .waitFor();
    await assertAccessible(page, 'merge dialog');
    await screenshot(page, 'client-merge-dialog');
    await dialog.getByTestId('merge-confirm').click();
    await toast(page, 'Contacts merged');
    await card.getByText(/Demo Administrator.{0,2} merged .*Kate M\..* into this client/).waitFor();
    // The kept client has the others' tags and comments now.
    await card.getByTestId('client-tags').getByText('wholesale').waitFor();
    await card.getByTestId('client-comments').getByText('Wants a quote by Friday').waitFor();
    assertNoErrors(errors);
    await context.close();
  });

  test('a client blocked from the chat screen opens no dialog; the black-list unblocks them', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    const chatId = await inbound('spam-1', 'Spam Bot', 'Cheap watches');
    await signIn(page, adminToken, `/admin/chats?filter=waiting&chat=${chatId}`);
    const card = page.getByTestId('profile-card');
    await card.getByTestId('block-client').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Block' }).click();
    await toast(page, 'Client added to the blacklist');
    await card.getByTestId('blocked-badge').waitFor();
    await page.getByTestId('chat-status').getByText('Closed').waitFor();
    // What they send now is stored in their closed dialog; nobody is waiting.
    assert.equal(await inbound('spam-1', 'Spam Bot', 'More watches'), chatId);
    const waiting = await apiCall(server.url, 'GET', '/api/chats?filter=waiting', undefined, adminToken);
    assert.equal(
      waiting.body.entity.items.filter((c: { id: string }) => c.id === chatId).length,
      0,
      'no dialog opened',
    );
    await page.goto('/admin/preferences/black-list');
    const table = page.getByTestId('blacklist-table');
    await table.getByText('Spam Bot').waitFor();
    await assertAccessible(page, 'black-list');
    await screenshot(page, 'client-blacklist');
    await table.getByRole('button', { name: 'Unblock' }).click();
    await toast(page, 'Client removed from the blacklist');
    await page.getByText('The blacklist is empty').waitFor();
    const next = await inbound('spam-1', 'Spam Bot', 'Sorry');
    assert.notEqual(next, chatId, 'unblocked: a new dialog opens');
    // The merge-contacts page: suggestions or its empty state, at 390 px too.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/admin/preferences/merge-contacts');
    await page
      .getByText(/Suggested duplicates|No duplicates found/)
      .first()
      .waitFor();
    await assertAccessible(page, 'merge-contacts at 390 px');
    await screenshot(page, 'client-merge-page-390');
    assertNoErrors(errors);
    await context.close();
  });

  test('an operator without AUTHORITY_PROFILE_UPDATE sees the client card read-only, and the server refuses a change', async () => {
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
    const list = Array.isArray(teams.body.entity) ? teams.body.entity : teams.body.entity.items;
    const sales = list.find((t: { name: string }) => t.name === 'Sales');
    const role = await apiCall(
      server.url,
      'POST',
      '/api/roles',
      {
        name: 'Reader',
        description: 'Answers chats, cannot edit profiles',
        rights: ['AUTHORITY_CHAT_DISTRIBUTION'],
      },
      adminToken,
    );
    assert.equal(role.status, 200, JSON.stringify(role.body));
    const password = 'Reader#Pass1';
    const user = await apiCall(
      server.url,
      'POST',
      '/api/users',
      {
        name: 'Rita Reader',
        email: 'rita@demo.local',
        roleId: role.body.entity.id,
        teamIds: [sales.id],
        password,
        repeatPassword: password,
      },
      adminToken,
    );
    assert.equal(user.status, 200, JSON.stringify(user.body));
    const token = await apiLogin(server.url, 'rita@demo.local', password);
    const chatId = await inbound('reader-1', 'Rosa Reader-Client', 'Can you check my order?');
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, token, `/admin/chats?filter=waiting&chat=${chatId}`);
    const card = page.getByTestId('profile-card');
    await card.waitFor();
    await page.getByTestId('client-name').getByText('Rosa Reader-Client').waitFor();
    for (const id of ['edit-profile', 'block-client', 'merge-client']) {
      assert.equal(await card.getByTestId(id).count(), 0, `${id} is not offered`);
    }
    assert.equal(await card.getByRole('button', { name: 'Add comment' }).count(), 0, 'no comment form');
    await assertAccessible(page, 'read-only client card');
    await screenshot(page, 'client-profile-read-only', { toasts: false });
    // The server agrees: a change by hand is refused.
    const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, token);
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    const clientId = chat.body.entity.client.id;
    const patch = await apiCall(server.url, 'PATCH', `/api/clients/${clientId}`, { name: 'Changed' }, token);
    assert.equal(patch.status, 403, JSON.stringify(patch.body));
    const block = await apiCall(server.url, 'POST', '/api/blacklist', { clientId }, token);
    assert.equal(block.status, 403, JSON.stringify(block.body));
    assertNoErrors(errors);
    await context.close();
  });
});
