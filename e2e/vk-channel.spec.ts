import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeVk } from '../server/test/fakes/vk.ts';
import {
  answer,
  channelWorld,
  deliveryShown,
  nameAndTeam,
  openWaiting,
  takeChat,
} from './channel-fixture.ts';
import {
  assertAccessible,
  assertNoErrors,
  field,
  fieldError,
  openPage,
  screenshot,
  signIn,
  waitFor,
} from './harness.ts';

const world = channelWorld(
  async () => ({ vk: await startFakeVk() }),
  ({ vk }) => ({ VK_API_BASE_URL: vk.baseUrl }),
);

describe('VKontakte (Long Poll) channel pages', () => {
  test('the admin connects a community behind a firewall through its guide (both languages); a message comes by Long Poll and is answered', async () => {
    const { vk, browser, server, adminToken } = world;
    vk.perSecond = 1_000;
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/channels');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await page.reload();
    await page.getByRole('button', { name: 'Подключить ВКонтакте', exact: true }).click();
    const ru = page.getByRole('dialog');
    await ru.getByText(/работает и за файрволом/).waitFor();
    await assertAccessible(page, 'VK Long Poll guide (Russian)');
    await screenshot(page, 'channel-guide-vk-ru');
    await page.keyboard.press('Escape');
    await ru.waitFor({ state: 'detached' });
    await page.evaluate(() => localStorage.setItem('sc-lang', 'eng'));
    await page.reload();

    await page.getByRole('button', { name: 'Connect VKontakte', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/works behind a firewall/).waitFor();
    await dialog.getByText(/turn on the Long Poll API with the message events for you/).waitFor();
    await assertAccessible(page, 'VK Long Poll guide');
    await screenshot(page, 'channel-guide-vk');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await nameAndTeam(page, dialog, 'Shop VK (Long Poll)');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await fieldError(dialog, 'Community access token', 'Please fill in all required fields');
    await field(dialog, 'Community access token').fill(vk.token);
    await field(dialog, 'Community ID').fill(String(vk.groupId));
    // The token may not manage the community and Long Poll is off there: the toast says what to turn on.
    vk.mask = 4096 | 4 | 131072;
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Channel creation error' })
      .getByText(/turn on Long Poll API in the community’s settings/)
      .waitFor();
    vk.mask = 4096 | 4 | 131072 | 262144;
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('channel-Shop VK (Long Poll)').getByText('vk.com/shopvk').waitFor();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(vk.longPoll.enabled, true, 'Long Poll turned on for us');

    await openWaiting(page);
    vk.users.set(556, { first_name: 'Anna', last_name: 'Volkova' });
    await waitFor(() => (vk.longPoll.waiting ? true : undefined));
    vk.longPoll.push(vk.messageNew(556, { text: 'Do you deliver to Minsk?' }));
    await takeChat(page, 'Anna Volkova', 'Do you deliver to Minsk?');
    await answer(page, 'Yes, in three days.');
    const sent = await waitFor(() => vk.sent.find((s) => s.params.message === 'Yes, in three days.'));
    assert.equal(sent.params.peer_id, '556');
    await deliveryShown(page, 'Yes, in three days.', 'sent');
    vk.longPoll.push({
      type: 'message_reply',
      object: { id: sent.id, from_id: -vk.groupId, peer_id: 556, out: 1, text: 'Yes, in three days.' },
    });
    await deliveryShown(page, 'Yes, in three days.', 'delivered');
    await screenshot(page, 'channel-vk-chat');
    assertNoErrors(errors, /status of 502/);
    await context.close();
  });
});
