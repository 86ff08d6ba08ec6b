import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
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
let olegToken: string;
let olgaToken: string;
let supervisorToken: string;
let n = 0;

type Channel = { id: string; inboundKey: string };

async function makeChannel(body: Record<string, unknown>): Promise<Channel> {
  const ch = await apiCall(
    server.url,
    'POST',
    '/api/channels',
    { type: 'api', webhookUrl: 'http://127.0.0.1:9/none', ...body },
    adminToken,
  );
  assert.equal(ch.status, 200, JSON.stringify(ch.body));
  return { id: ch.body.entity.id, inboundKey: ch.body.entity.inboundKey };
}

async function inbound(ch: Channel, client: string, name: string, text: string): Promise<string> {
  const res = await fetch(`${server.url}/api/channels/${ch.id}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ch.inboundKey}` },
    body: JSON.stringify({ externalMessageId: `t-${n++}`, client: { externalId: client, name }, text }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { entity: { chatId: string } }).entity.chatId;
}

const login = (email: string) => apiLogin(server.url, email, server.passwords[email]);

/** A context in the given language, signed in on the path. */
async function person(token: string, path: string, lang: 'eng' | 'rus', width?: number) {
  const p = await openPage(browser, server.url, { width });
  await p.page.goto('/not-found');
  await p.page.evaluate((l) => localStorage.setItem('sc-lang', l), lang);
  await signIn(p.page, token, path);
  return p;
}

const composerEnabled = (page: Page, enabled: boolean) =>
  page.waitForFunction(
    (want) =>
      (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement | null)?.disabled ===
      !want,
    enabled,
    { timeout: 15_000 },
  );

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = await apiLogin(server.url, 'admin@demo.local', ADMIN_PASSWORD);
  olegToken = await login('operator1@demo.local');
  olgaToken = await login('operator2@demo.local');
  supervisorToken = await login('supervisor@demo.local');
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('workspace: overdue colours, two operators and a supervisor', () => {
  test('half-overdue chats turn yellow, overdue red; meanwhile Oleg takes a chat, transfers it to Olga, the supervisor takes it over and closes it', async () => {
    // Overdue: a team nobody works in, a channel with thresholds of 1 and 2 minutes, two clients left waiting.
    const team = await apiCall(
      server.url,
      'POST',
      '/api/teams',
      {
        name: 'Night shift',
        description: 'Nobody here',
        distributionMethod: 'round_robin',
        dialogLimit: 5,
        autoCloseMinutes: null,
        autoRedistributionMinutes: null,
        memberIds: [],
      },
      adminToken,
    );
    assert.equal(team.status, 200, JSON.stringify(team.body));
    const late = await makeChannel({
      name: 'Late API',
      teamId: team.body.entity.id,
      halfExpiredMinutes: 1,
      expiredMinutes: 2,
    });
    const started = Date.now();
    const overdue = await inbound(late, 'late-1', 'Lena Late', 'Still waiting…');

    // The flow: a Sales chat waits; Oleg (English, desktop) takes it from Waiting.
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
    const list = Array.isArray(teams.body.entity) ? teams.body.entity : teams.body.entity.items;
    const sales = list.find((t: { name: string }) => t.name === 'Sales');
    const shop = await makeChannel({ name: 'Team API', teamId: sales.id });
    const chatId = await inbound(shop, 'flow-1', 'Fiona Flow', 'My parcel is lost');
    const oleg = await person(olegToken, `/admin/chats?filter=waiting&chat=${chatId}`, 'eng');
    await oleg.page.getByRole('button', { name: 'Take', exact: true }).click();
    await oleg.page.waitForURL(/filter=assigned/);
    await composerEnabled(oleg.page, true);
    await oleg.page.getByTestId('composer-input').fill('Let me check with a colleague.');
    await oleg.page.getByTestId('composer-input').press('Enter');
    await oleg.page.getByTestId('message').filter({ hasText: 'Let me check' }).waitFor();
    await screenshot(oleg.page, 'team-oleg-took-desktop-en', { toasts: false });

    // Olga (Russian, 390 px) is in work; Oleg transfers the chat to her by name.
    const olga = await person(olgaToken, '/admin/chats?filter=assigned', 'rus', 390);
    await olga.page.getByTestId('presence-toggle').getByText('В работе', { exact: true }).click();
    await olga.page.waitForFunction(
      () =>
        document.querySelector('[data-testid="presence-toggle"]')?.getAttribute('data-presence') === 'online',
    );
    await olga.page.waitForLoadState('networkidle');
    await oleg.page.getByRole('button', { name: 'Transfer' }).click();
    await oleg.page.getByRole('radio', { name: 'Operator', exact: true }).check();
    await field(oleg.page, 'Choose an operator').click();
    await oleg.page.getByRole('option', { name: /Olga Operator/ }).click();
    await oleg.page.getByRole('dialog').getByRole('button', { name: 'Transfer' }).click();
    await oleg.page.getByText('The chat has been transferred').waitFor();
    await oleg.page
      .locator(`[data-testid="chat-row"][data-chat-id="${chatId}"]`)
      .waitFor({ state: 'detached' });

    // Olga sees it arrive live, opens it and answers.
    const row = olga.page.locator(`[data-testid="chat-row"][data-chat-id="${chatId}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await composerEnabled(olga.page, true);
    await olga.page.getByTestId('composer-input').fill('Здравствуйте, я помогу.');
    await olga.page.getByTestId('composer-input').press('Enter');
    await olga.page.getByTestId('message').filter({ hasText: 'я помогу' }).waitFor();
    const w = await olga.page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
    assert.ok(w <= 390, `Olga's page is ${w} px wide`);
    await screenshot(olga.page, 'team-olga-390-ru', { toasts: false });

    // The supervisor (Russian, desktop) takes it over; Olga can no longer write; the supervisor closes it.
    const sup = await person(supervisorToken, `/admin/chats?filter=assigned&chat=${chatId}`, 'rus');
    await sup.page.getByTestId('take-over').click();
    await sup.page
      .locator('[data-testid="system-event"][data-kind="takeover"]')
      .getByText('Olga Operator')
      .waitFor();
    await composerEnabled(olga.page, false);
    // Olga is told who took it (issue 36.15), in her language: a line in the open conversation and a toast.
    const takenLine = olga.page.getByTestId('taken-away');
    await takenLine.getByText(/забрал\(а\) ваш чат с клиентом/).waitFor();
    assert.match((await takenLine.textContent()) ?? '', /Sofia Supervisor/);
    await olga.page
      .locator('.mantine-Notification-root')
      .getByText(/забрал\(а\) ваш чат/)
      .waitFor();
    await screenshot(olga.page, 'team-olga-taken-away-390-ru', { toasts: true });
    await sup.page.getByTestId('composer-input').fill('Посылка найдена, закрываю обращение.');
    await sup.page.getByTestId('composer-input').press('Enter');
    await sup.page.getByTestId('message').filter({ hasText: 'Посылка найдена' }).waitFor();
    await sup.page.getByRole('button', { name: 'Закрыть чат' }).click();
    await sup.page.getByRole('dialog').getByLabel('Категория обращения').click();
    await sup.page.getByRole('option').first().click();
    await sup.page.getByRole('dialog').getByRole('button', { name: 'Закрыть чат' }).click();
    await sup.page.getByTestId('chat-status').getByText('Закрыт').waitFor();
    await screenshot(sup.page, 'team-supervisor-closed-desktop-ru', { toasts: false });
    // The whole story is in the history, in order.
    const history = await apiCall(server.url, 'GET', `/api/chats/${chatId}/history`, undefined, adminToken);
    const kinds = history.body.entity.items.map((h: { kind: string }) => h.kind);
    for (const kind of ['assign', 'transfer', 'takeover', 'close'])
      assert.ok(kinds.includes(kind), `${kind} in ${kinds}`);
    assert.ok(kinds.indexOf('transfer') < kinds.indexOf('takeover'));
    assert.ok(kinds.indexOf('takeover') < kinds.indexOf('close'));
    // The administrator on a phone, in English: the closed chat with its whole story inline.
    const admin = await person(adminToken, `/admin/chats?filter=closed&chat=${chatId}`, 'eng', 390);
    await admin.page.getByTestId('chat-status').getByText('Closed').waitFor();
    await admin.page.locator('[data-testid="system-event"][data-kind="takeover"]').waitFor();
    await screenshot(admin.page, 'team-closed-390-en', { toasts: false });
    for (const p of [oleg, olga, admin]) assertNoErrors(p.errors, /Failed to load resource/);
    await admin.context.close();
    assertNoErrors(sup.errors, /Failed to load resource/);
    await Promise.all([oleg.context.close(), olga.context.close()]);

    // The supervisor watches Waiting: Lena's chat turns yellow at one minute and red at two, live.
    await sup.page.goto('/admin/chats?filter=waiting');
    const lena = sup.page.locator(`[data-testid="chat-row"][data-chat-id="${overdue}"]`);
    await lena.waitFor();
    const tint = () =>
      lena.evaluate((el) => ({
        level: el.getAttribute('data-overdue'),
        bar: getComputedStyle(el).borderLeftColor,
        bg: getComputedStyle(el).backgroundColor,
      }));
    const left = (ms: number) => Math.max(1000, ms - (Date.now() - started) + 15_000);
    await sup.page.waitForSelector(`[data-chat-id="${overdue}"][data-overdue="half_expired"]`, {
      timeout: left(60_000),
    });
    const yellow = await tint();
    // Mantine's yellow-6 (#fab005) stripe on a yellow-0 (#fff9db) tint, with the label.
    assert.deepEqual(yellow, { level: 'half_expired', bar: 'rgb(250, 176, 5)', bg: 'rgb(255, 249, 219)' });
    await lena.getByText('Скоро просрочен').waitFor();
    await screenshot(sup.page, 'team-overdue-yellow-ru', { toasts: false });
    await sup.page.waitForSelector(`[data-chat-id="${overdue}"][data-overdue="expired"]`, {
      timeout: left(120_000),
    });
    const red = await tint();
    // Our red-7 (#c92a2a, app/theme.ts: the darker red of issue 36) stripe on red-0 (#fff5f5).
    assert.deepEqual(red, { level: 'expired', bar: 'rgb(201, 42, 42)', bg: 'rgb(255, 245, 245)' });
    await lena.getByText('Просрочен', { exact: true }).waitFor();
    await screenshot(sup.page, 'team-overdue-red-ru', { toasts: false });
    assertNoErrors(sup.errors, /Failed to load resource/);
    await sup.context.close();
  });
});
