import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeMeta } from '../server/test/fakes/meta.ts';
import { answer, channelHook, channelWorld, nameAndTeam, openWaiting, takeChat } from './channel-fixture.ts';
import { assertAccessible, assertNoErrors, field, openPage, screenshot, signIn, waitFor } from './harness.ts';

const world = channelWorld(
  async () => ({ meta: await startFakeMeta() }),
  ({ meta }) => ({
    META_GRAPH_BASE_URL: meta.baseUrl,
    META_OAUTH_BASE_URL: meta.baseUrl,
    META_APP_ID: meta.appId,
    META_APP_SECRET: meta.appSecret,
    META_VERIFY_TOKEN: 'e2e-verify-token',
  }),
);

describe('Instagram channel pages', () => {
  test('a refused login is the toast; the admin logs in with Facebook, chooses the account, gets a message and answers it', async () => {
    const { meta, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    // Facebook's dialog and its redirects back to us are the browser's own navigations (not refetched by the harness).
    await context.route(`${meta.baseUrl}/**`, (route) => route.continue());
    await signIn(page, adminToken, '/admin/preferences/channels');
    const open = async () => {
      await page.getByRole('button', { name: 'Connect Instagram' }).click();
      const dialog = page.getByRole('dialog');
      await dialog
        .getByText('Switch the Instagram account to a business account', { exact: false })
        .waitFor();
      await dialog.getByRole('button', { name: 'Next' }).click();
      return dialog;
    };
    meta.refuseLogin = true;
    let dialog = await open();
    await dialog.getByRole('button', { name: 'Log in with Facebook' }).click();
    await page.getByText('Instagram access denied (retry login later)').waitFor();
    meta.refuseLogin = false;

    dialog = await open();
    await assertAccessible(page, 'Instagram guide');
    await dialog.getByRole('button', { name: 'Log in with Facebook' }).click();
    // Back from Facebook: the guide opens at its settings with the login's accounts.
    dialog = page.getByRole('dialog');
    await dialog.getByText('You are logged in: choose the account to connect').waitFor();
    await nameAndTeam(page, dialog, 'Shop Instagram');
    await field(dialog, 'Instagram account').click();
    await page.getByRole('option', { name: `${meta.pageName} · @${meta.igUsername}` }).click();
    await assertAccessible(page, 'Instagram account choice');
    await screenshot(page, 'channel-guide-instagram');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('channel-Shop Instagram').getByText(`@${meta.igUsername}`).waitFor();
    assert.ok(meta.subscribed.has(meta.pageId));
    const { hook } = await channelHook(world, 'instagram', 'Shop Instagram');

    await openWaiting(page);
    const ask = meta.message('instagram', '9001', { text: 'Is the red dress in stock?' });
    assert.equal(await meta.deliver(hook, meta.payload('instagram', [ask])), 200);
    await takeChat(page, 'Instagram 9001', 'Is the red dress in stock?');
    // The 24-hour messaging window, shown like WhatsApp's; Instagram has no templates to offer.
    await page
      .getByTestId('session-open')
      .getByText(/Instagram messaging window closes/)
      .waitFor();
    assert.equal(await page.getByTestId('provider-templates-button').count(), 0);
    await answer(page, 'Yes, in all sizes.');
    const sent = await waitFor(() =>
      meta.sent.find((s) => (s.body.message as { text?: string }).text === 'Yes, in all sizes.'),
    );
    assert.deepEqual(sent.body.recipient, { id: '9001' });
    await screenshot(page, 'channel-instagram-chat');
    assertNoErrors(errors, /status of 4\d\d/);
    await context.close();
  });
});

describe('Facebook Messenger channel pages', () => {
  test('the admin logs in with Facebook, chooses the page, gets a message and answers it', async () => {
    const { meta, browser, server, adminToken } = world;
    const { page, errors, context } = await openPage(browser, server.url);
    await context.route(`${meta.baseUrl}/**`, (route) => route.continue());
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.getByRole('button', { name: 'Connect Facebook' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByText('Make sure you are an administrator of the Facebook page').waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('button', { name: 'Log in with Facebook' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByText('You are logged in: choose the page to connect').waitFor();
    await nameAndTeam(page, dialog, 'Shop Messenger');
    await field(dialog, 'Facebook page').click();
    await page.getByRole('option', { name: meta.pageName, exact: true }).click();
    await assertAccessible(page, 'Facebook page choice');
    await screenshot(page, 'channel-guide-facebook');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // The page's line names the page (not the Instagram account linked to it).
    await page.getByTestId('channel-Shop Messenger').getByText(meta.pageName, { exact: true }).waitFor();
    const { hook } = await channelHook(world, 'facebook', 'Shop Messenger');

    await openWaiting(page);
    meta.profiles.set('7001', { first_name: 'Ivan', last_name: 'Petrov' });
    const ask = meta.message('page', '7001', { text: 'Do you ship to Minsk?' });
    assert.equal(await meta.deliver(hook, meta.payload('page', [ask])), 200);
    await takeChat(page, 'Ivan Petrov', 'Do you ship to Minsk?');
    await page
      .getByTestId('session-open')
      .getByText(/Messenger messaging window closes/)
      .waitFor();
    assert.equal(await page.getByTestId('provider-templates-button').count(), 0);
    await answer(page, 'Yes, in 3 days.');
    const sent = await waitFor(() =>
      meta.sent.find((s) => (s.body.message as { text?: string }).text === 'Yes, in 3 days.'),
    );
    assert.deepEqual(sent.body.recipient, { id: '7001' });
    await screenshot(page, 'channel-facebook-chat');
    assertNoErrors(errors, /status of 4\d\d/);
    await context.close();
  });
});
