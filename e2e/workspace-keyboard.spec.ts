import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, WebSocketRoute } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  assertNoErrors,
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
let olegToken: string;
let channelId: string;
let inboundKey: string;
let n = 0;

/** One client message on the test channel; answers the chat's id. */
async function inbound(client: string, name: string, text: string): Promise<string> {
  const res = await fetch(`${server.url}/api/channels/${channelId}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${inboundKey}` },
    body: JSON.stringify({ externalMessageId: `k-${n++}`, client: { externalId: client, name }, text }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { entity: { chatId: string } }).entity.chatId;
}

/** A chat of Oleg's (In progress): the client writes, Oleg takes it unless routing gave it to him already. */
async function olegsChat(client: string, name: string, text: string): Promise<string> {
  const chatId = await inbound(client, name, text);
  const chat = await apiCall(server.url, 'GET', `/api/chats/${chatId}`, undefined, adminToken);
  if (!chat.body.entity.operator) {
    const taken = await apiCall(server.url, 'POST', `/api/chats/${chatId}/take`, undefined, olegToken);
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
  }
  return chatId;
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  olegToken = await apiLogin(server.url, 'operator1@demo.local', server.passwords['operator1@demo.local']);
  const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
  const list = Array.isArray(teams.body.entity) ? teams.body.entity : teams.body.entity.items;
  const sales = list.find((t: { name: string }) => t.name === 'Sales');
  const ch = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', name: 'Keys API', teamId: sales.id, webhookUrl: 'http://127.0.0.1:9/none' },
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

describe('operator workspace: connection loss, keyboard, phone', () => {
  test('a lost connection shows only the notice, never "Chat not found"; on reconnect the chat and lists catch up, the draft is kept', async () => {
    const first = await olegsChat('net-a', 'Nadia Network', 'Is anyone there?');
    const second = await olegsChat('net-b', 'Boris Network', 'Second question');
    const { page, errors, context } = await openPage(browser, server.url);
    // The realtime socket passes through a proxy the test can cut, as a network failure would.
    let down = false;
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/api\/realtime/, (ws) => {
      if (down) return ws.close({ code: 4000, reason: 'offline' });
      sockets.push(ws);
      ws.connectToServer();
    });
    await signIn(page, olegToken, `/admin/chats?filter=assigned&chat=${first}`);
    const list = page.getByTestId('message-list');
    await list.getByText('Is anyone there?').waitFor();
    await page.waitForLoadState('networkidle');
    const input = page.getByTestId('composer-input');
    await input.fill('Draft written offline');

    // The server becomes unreachable: HTTP fails and the socket drops.
    down = true;
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    for (const ws of sockets.splice(0)) await ws.close({ code: 4000, reason: 'offline' });
    const notice = page.getByRole('alert').filter({ hasText: 'No connection to the server.' });
    await notice.waitFor();
    // Opening another chat while offline cannot load it: still no 'Chat not found', no error screen.
    await page.locator(`[data-testid="chat-row"][data-chat-id="${second}"]`).click();
    await page.waitForResponse(() => true, { timeout: 1000 }).catch(() => undefined);
    await page.waitForTimeout(800);
    assert.equal(await page.getByText('Chat not found').count(), 0);
    await notice.waitFor();
    // Back to the first chat: what was loaded is still shown, with the draft.
    await page.locator(`[data-testid="chat-row"][data-chat-id="${first}"]`).click();
    await list.getByText('Is anyone there?').waitFor();
    assert.equal(await input.inputValue(), 'Draft written offline');
    assert.equal(await page.getByText('Chat not found').count(), 0);
    await screenshot(page, 'workspace-offline', { toasts: false });
    // Meanwhile the client writes again and a new client arrives.
    await inbound('net-a', 'Nadia Network', 'Written while you were offline');
    const third = await olegsChat('net-c', 'Carla Newcomer', 'New while offline');

    // The network is back: the socket reconnects, the notice goes, the open chat and the list catch up.
    down = false;
    await page.unroute('**/api/**');
    await list.getByText('Written while you were offline').waitFor({ timeout: 40_000 });
    await notice.waitFor({ state: 'detached', timeout: 15_000 });
    await page.locator(`[data-testid="chat-row"][data-chat-id="${third}"]`).waitFor({ timeout: 15_000 });
    assert.equal(await input.inputValue(), 'Draft written offline');
    assert.equal(await page.getByText('Chat not found').count(), 0);
    // The chat that failed to load offline opens now.
    await page.locator(`[data-testid="chat-row"][data-chat-id="${second}"]`).click();
    await list.getByText('Second question').waitFor();
    assert.equal(await page.getByText('Chat not found').count(), 0);
    assertNoErrors(errors, /Failed to load resource|ERR_INTERNET_DISCONNECTED|WebSocket/);
    await context.close();
  });
});
