import { after, before } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  field,
  launchBrowser,
  startServer,
  type TestServer,
} from './harness.ts';

/**
 * What the messenger channel specs share (one spec per provider: connect through the guide against the provider's
 * fake, receive, answer): the set-up of their world and the steps of the workspace every one of them takes.
 */

/** A fake provider server (server/test/fakes). */
type Fake = { close(): Promise<void> };

/** A channel spec's world, ready once its `before` has run: the fakes by name, our server, a browser, the admin. */
export type ChannelWorld<F extends Record<string, Fake>> = F & {
  server: TestServer;
  browser: Browser;
  /** The Demo organisation's Administrator, logged in through the API. */
  adminToken: string;
};

/**
 * Registers the spec's before/after: starts the provider fakes, our server with `env` pointing at them (its
 * provider base URLs, app ids...), a browser, and logs the Demo admin in; stops all of it after. The answer is
 * filled in by `before`: destructure it inside the tests.
 */
export function channelWorld<F extends Record<string, Fake>>(
  startFakes: () => Promise<F>,
  env: (fakes: F) => Record<string, string>,
): ChannelWorld<F> {
  const world = {} as ChannelWorld<F>;
  before(async () => {
    const fakes = await startFakes();
    Object.assign(world, fakes);
    world.server = await startServer({ env: env(fakes) });
    world.browser = await launchBrowser();
    world.adminToken = await apiLogin(world.server.url, 'admin@demo.local', ADMIN_PASSWORD);
  });
  after(async () => {
    await world.browser?.close();
    await world.server?.stop();
    for (const [key, value] of Object.entries(world))
      if (!['server', 'browser', 'adminToken'].includes(key)) await (value as Fake | undefined)?.close();
  });
  return world;
}

/** The guide's common fields: the channel's name and the team Sales. */
export async function nameAndTeam(page: Page, dialog: Locator, name: string): Promise<void> {
  await field(dialog, 'Name').fill(name);
  await field(dialog, 'Team').click();
  await page.getByRole('option', { name: 'Sales' }).click();
}

/** The id of the Demo organisation's channel named `name`, and its webhook URL (`/api/webhooks/{type}/{id}`). */
export async function channelHook(
  world: { server: TestServer; adminToken: string },
  type: string,
  name: string,
): Promise<{ id: string; hook: string }> {
  const list = await apiCall(world.server.url, 'GET', '/api/channels', undefined, world.adminToken);
  const id: string = list.body.entity.items.find((c: { name: string }) => c.name === name).id;
  return { id, hook: `${world.server.url}/api/webhooks/${type}/${id}` };
}

/**
 * The Waiting list, settled (its realtime connection up) before the provider posts; `empty`: nobody is waiting
 * yet, as the page says.
 */
export async function openWaiting(page: Page, { empty = true } = {}): Promise<void> {
  await page.goto('/admin/chats?filter=waiting');
  if (empty) await page.getByText('Nobody is waiting').waitFor();
  await page.waitForLoadState('networkidle');
}

/** The client's new chat appears in the list: it is opened with their message and taken (In progress). */
export async function takeChat(page: Page, client: string, text: string): Promise<void> {
  const row = page.getByTestId('chat-row').filter({ hasText: client });
  await row.waitFor({ timeout: 10_000 });
  await row.click();
  await page.getByTestId('message').getByText(text).waitFor();
  await page.getByRole('button', { name: 'Take' }).click();
  await page.getByTestId('chat-status').getByText('In progress').waitFor();
}

/** Types an answer in the open chat's message box and sends it with Enter. */
export async function answer(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Write a message' });
  await box.fill(text);
  await box.press('Enter');
}

/** Waits until our message `text` shows the delivery status (sent, delivered, read...). */
export async function deliveryShown(page: Page, text: string, status: string): Promise<void> {
  await page
    .getByTestId('message')
    .filter({ hasText: text })
    .locator(`[data-testid="delivery"][data-status="${status}"]`)
    .waitFor();
}
