import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  field,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
  titleOf,
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

describe('users', () => {
  test('every invalid field shows its message; a valid user is created, deactivated and cannot log in', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/users/all');
    await page.getByTestId('users-table').getByText('operator1@demo.local').waitFor();
    assert.equal(await titleOf(page, 'Users · SmartConnect'), 'Users · SmartConnect');
    await screenshot(page, 'users');

    await page.getByRole('link', { name: 'Add user' }).click();
    await page.waitForURL('**/admin/users/edit');
    await screenshot(page, 'user-new');
    await field(page, 'Email').fill('not-an-email');
    await field(page, 'Phone').fill('12ab');
    await field(page, 'Automatic break timeout, minutes').fill('1000');
    await field(page, 'Password').fill('weak');
    await field(page, 'Repeat password').fill('other');
    await page.getByRole('button', { name: 'Create' }).click();
    for (const message of [
      'Name specified incorrectly',
      'Email specified incorrectly',
      'Phone number specified incorrectly',
      'Time specified incorrectly',
      'Role specified incorrectly',
      'Password specified incorrectly',
      'Passwords do not match',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await screenshot(page, 'user-new-invalid');

    // A server-side refusal (an e-mail that exists) is shown from its code.
    await field(page, 'Name').fill('Olga Tester');
    await field(page, 'Email').fill('operator1@demo.local');
    await field(page, 'Phone').fill('79001234567');
    await field(page, 'Automatic break timeout, minutes').fill('10');
    await field(page, 'Role').click();
    await page.getByRole('option', { name: 'Operator' }).click();
    await field(page, 'Teams').click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await page.keyboard.press('Escape');
    await field(page, 'Password').fill('Olga#Pass1');
    await field(page, 'Repeat password').fill('Olga#Pass1');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('A user with this email already exists').waitFor();

    await field(page, 'Email').fill('olga@demo.local');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/admin/users/all');
    const row = page.getByTestId('user-olga@demo.local');
    await row.getByText('Active').waitFor();
    await row.getByText('Sales').waitFor();
    assert.ok(await apiLogin(server.url, 'olga@demo.local', 'Olga#Pass1'));

    // Search by name, the 'not found' message and the team filter (default 'All teams').
    await page.getByPlaceholder('Search by name').fill('zzz-nobody');
    await page.getByText('No users found').waitFor();
    await screenshot(page, 'users-not-found');
    await page.getByPlaceholder('Search by name').fill('Olga');
    await row.waitFor();
    await page.getByPlaceholder('Search by name').fill('');
    await page.getByTestId('team-filter').click();
    await page.getByRole('option', { name: 'Support' }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByTestId('users-table').getByText('operator2@demo.local').waitFor();
    assert.equal(await page.getByTestId('users-table').getByText('operator1@demo.local').count(), 0);
    await page.getByTestId('team-filter').click();
    await page.getByRole('option', { name: 'All teams' }).click();
    await row.waitFor();

    await row.click();
    await page.waitForURL('**/admin/users/edit/**');
    await field(page, 'Name').waitFor();
    await screenshot(page, 'user-edit');
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('User deactivated').waitFor();
    await page.getByRole('button', { name: 'Activate', exact: true }).waitFor();

    const refused = await apiCall(server.url, 'POST', '/api/auth/login', {
      email: 'olga@demo.local',
      password: 'Olga#Pass1',
    });
    assert.equal(refused.status, 401);
    const other = await openPage(browser, server.url);
    await other.page.goto('/');
    await field(other.page, 'Email').fill('olga@demo.local');
    await field(other.page, 'Password').fill('Olga#Pass1');
    await other.page.getByRole('button', { name: 'Log In' }).click();
    await other.page.getByText('Incorrect login or password').waitFor();
    await other.context.close();
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('teams', () => {
  test('create, edit and delete a team in the side page', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/teams/all');
    await page.getByTestId('team-Sales').waitFor();
    await screenshot(page, 'teams');

    await page.getByRole('button', { name: 'Add team' }).click();
    await field(page, 'Concurrent dialogs per operator').fill('0');
    await field(page, 'Inactivity time, hours').fill('5');
    await page.getByRole('button', { name: 'Create' }).click();
    for (const message of [
      'Name specified incorrectly',
      'Description specified incorrectly',
      'Quantity specified incorrectly',
      'Time set incorrectly',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await screenshot(page, 'team-new-invalid');
    await field(page, 'Team name').fill('Billing');
    await field(page, 'Description (duties)').fill('Invoices and payments');
    await field(page, 'Concurrent dialogs per operator').fill('3');
    await field(page, 'Inactivity time, hours').fill('48');
    await field(page, 'Auto close of unattended chats').click();
    await page.getByRole('option', { name: '48 hours' }).click();
    await field(page, 'Members').click();
    await page
      .getByRole('option', { name: 'Oleg Operator' })
      .click()
      .catch(async () => {
        await page.getByRole('option').first().click();
      });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Team created').waitFor();
    const row = page.getByTestId('team-Billing');
    await row.getByText('48 hours').waitFor();

    await row.click();
    await field(page, 'Team name').fill('Billing and payments');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Team changed').waitFor();
    await page.getByTestId('team-Billing and payments').waitFor();

    await page.getByPlaceholder('Search teams').fill('nothing-like-this');
    await page.getByText('No team with that name found').waitFor();
    await page.getByPlaceholder('Search teams').fill('');

    await page.getByTestId('team-Billing and payments').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Delete team?').waitFor();
    await screenshot(page, 'team-delete-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Team deleted').waitFor();
    await page.getByTestId('team-Billing and payments').waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('roles and rights', () => {
  test('a custom role without AUTHORITY_ROLE_MODIFY or AUTHORITY_TEAMS_UPDATE gets no-rights and a read-only teams screen', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/preferences/roles');
    await page.getByTestId('roles-table').waitFor();
    await screenshot(page, 'roles');
    await page.getByTestId('role-Administrator').click();
    await page.getByText('Built-in roles cannot be changed').first().waitFor();
    await page.getByRole('button', { name: 'Close' }).last().click();

    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Name specified incorrectly').waitFor();
    await page.getByText('Description specified incorrectly').waitFor();
    await field(page, 'Name').fill('Viewer');
    await field(page, 'Description').fill('Answers chats, sees teams');
    await page.getByLabel('Receive incoming dialogs').check();
    await screenshot(page, 'role-new');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Role created').waitFor();
    await page.getByTestId('role-Viewer').waitFor();

    const roles = await apiCall(server.url, 'GET', '/api/roles', undefined, adminToken);
    const list = Array.isArray(roles.body.entity) ? roles.body.entity : roles.body.entity.items;
    const viewer = list.find((r: { name: string }) => r.name === 'Viewer');
    const created = await apiCall(
      server.url,
      'POST',
      '/api/users',
      {
        name: 'Victor Viewer',
        email: 'viewer@demo.local',
        roleId: viewer.id,
        password: 'Viewer#Pass1',
        repeatPassword: 'Viewer#Pass1',
      },
      adminToken,
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const viewerToken = await apiLogin(server.url, 'viewer@demo.local', 'Viewer#Pass1');

    const v = await openPage(browser, server.url);
    await signIn(v.page, viewerToken, '/admin/preferences/roles');
    await v.page.waitForURL('**/no-rights');
    await v.page.getByText('No rights', { exact: true }).waitFor();
    assert.equal(await titleOf(v.page, 'No rights · SmartConnect'), 'No rights · SmartConnect');
    await screenshot(v.page, 'no-rights');

    await v.page.goto('/admin/teams/all');
    await v.page.getByTestId('team-Sales').waitFor();
    await v.page.getByTestId('teams-read-only').first().waitFor();
    assert.equal(await v.page.getByRole('button', { name: 'Add team' }).count(), 0);
    assert.equal(await v.page.getByRole('button', { name: 'Delete' }).count(), 0);
    await screenshot(v.page, 'teams-read-only');
    await v.page.getByTestId('team-Sales').click();
    assert.ok(await field(v.page, 'Team name').isDisabled());
    assert.equal(await v.page.getByRole('button', { name: 'Save changes' }).count(), 0);

    const refused = await apiCall(
      server.url,
      'POST',
      '/api/teams',
      { name: 'Sneaky', description: 'Should not exist' },
      viewerToken,
    );
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error?.code, 'accessDeniedException');
    assert.deepEqual(v.errors, []);
    await v.context.close();

    // Deleting a custom role is irreversible and asks for confirmation first; a role in use is refused.
    await page.getByTestId('role-Viewer').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('This action cannot be undone', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('The role is assigned to users').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('supervisor', () => {
  test("with AUTHORITY_TEAMS_UPDATE but no account control, only a user's teams can be changed", async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    const token = await apiLogin(
      server.url,
      'supervisor@demo.local',
      server.passwords['supervisor@demo.local'],
    );
    await signIn(page, token, '/admin/users/all');
    const row = page.getByTestId('user-operator1@demo.local');
    await row.waitFor();
    assert.equal(await page.getByRole('link', { name: 'Add user' }).count(), 0);
    await row.click();
    await page.getByRole('dialog').getByLabel('Teams').click();
    await page.getByRole('option', { name: 'Support' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('User changed').waitFor();
    await row.getByText('Support').waitFor();
    await page.goto('/admin/users/edit');
    await page.waitForURL('**/no-rights');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('plan options', () => {
  test('a feature outside the plan leads to "Functionality unavailable" with a change-plan action', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    // The demo organisation has every option: drop two from the identity answer to see the UI's check.
    await page.route('**/api/auth/user?*', async (route) => {
      const res = await route.fetch();
      const json = await res.json();
      json.entity.options = json.entity.options.filter(
        (o: string) => o !== 'OPTION_ONLINE_MONITORING' && o !== 'OPTION_STATISTIC',
      );
      await route.fulfill({ response: res, json });
    });
    await signIn(page, adminToken, '/admin/monitoring/operators');
    await page.waitForURL('**/admin/options?option=OPTION_ONLINE_MONITORING');
    await page.getByText('Functionality unavailable').first().waitFor();
    await page.getByRole('link', { name: 'Change plan' }).waitFor();
    await screenshot(page, 'options-unavailable');
    await page.goto('/admin/reports/employees');
    await page.waitForURL('**/admin/options?option=OPTION_STATISTIC');
    // The consolidated report has no option check.
    await page.goto('/admin/reports/report');
    await page.getByTestId('coming-soon').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('every screen', () => {
  test('each route renders without console errors; unknown paths lead to not-found', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin');
    await page.waitForURL('**/admin/chats?filter=assigned');
    const screens: [string, string][] = [
      ['/admin/chats?filter=waiting', 'chats-waiting'],
      ['/admin/chats?filter=closed', 'chats-closed'],
      ['/admin/reports', 'reports'],
      ['/admin/reports/dialogs', 'reports-dialogs'],
      ['/admin/monitoring', 'monitoring'],
      ['/admin/finance', 'finance'],
      ['/admin/preferences', 'preferences'],
      ['/admin/preferences/channels', 'preferences-channels'],
      ['/admin/preferences/black-list', 'preferences-black-list'],
      ['/admin/options', 'options'],
      ['/admin/support', 'support'],
      ['/admin/expanded-search', 'expanded-search'],
      ['/admin/profile', 'profile-general'],
      ['/admin/profile/authentication', 'profile-authentication-admin'],
      ['/admin/users/edit', 'user-new-empty'],
    ];
    for (const [path, name] of screens) {
      await page.goto(path);
      await page.locator('main').waitFor();
      await screenshot(page, name);
    }
    await page.goto('/admin/preferences/plans');
    await page.waitForURL('**/no-rights');

    for (const [path, name] of [
      ['/not-found', 'not-found'],
      ['/service-unavailable', 'service-unavailable'],
      ['/success', 'success'],
      ['/already-used', 'already-used'],
      ['/unknown-error', 'unknown-error'],
      ['/signup', 'signup'],
    ]) {
      await page.goto(path);
      await page.locator('h2').first().waitFor();
      await screenshot(page, name);
    }
    await page.goto('/no/such/page');
    await page.waitForURL('**/not-found');
    assert.equal(await titleOf(page, 'Page not found · SmartConnect'), 'Page not found · SmartConnect');
    await page.goto('/admin/no-such-screen');
    await page.waitForURL('**/not-found');
    await page.goto('/registration/phone-confirmation/abc123');
    await page.waitForURL('**/signup?token=abc123');
    // A screen whose entity does not exist goes to /not-found (§8 404 while loading a screen).
    await page.goto('/admin/users/edit/00000000-0000-7000-8000-000000000000');
    await page.waitForURL('**/not-found');
    // So does an id that cannot exist, without a toast.
    await page.goto('/admin/users/edit/not-a-uuid');
    await page.waitForURL('**/not-found');
    assert.equal(await page.getByText('Unknown error').count(), 0);

    // Avatar: a JPEG by the file chooser is saved; a picture over 200 KB is refused with the §5 limit.
    await page.goto('/admin/profile/general');
    const jpeg = await page.evaluate(() => {
      const c = document.createElement('canvas');
      c.width = c.height = 96;
      const g = c.getContext('2d')!;
      g.fillStyle = '#4263eb';
      g.fillRect(0, 0, 96, 96);
      g.fillStyle = '#fff';
      g.fillRect(30, 30, 36, 36);
      return c.toDataURL('image/jpeg', 0.9).split(',')[1];
    });
    const input = page.getByTestId('avatar-drop').locator('input[type=file]');
    await input.setInputFiles({
      name: 'me.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from(jpeg, 'base64'),
    });
    await page.getByText('Photo changed').waitFor();
    await page.getByTestId('user-menu').locator('img').waitFor();
    const big = Buffer.concat([Buffer.from(jpeg, 'base64'), Buffer.alloc(210 * 1024)]);
    await input.setInputFiles({ name: 'big.jpg', mimeType: 'image/jpeg', buffer: big });
    await page.getByText('The picture is bigger than 200 KB').waitFor();
    await screenshot(page, 'profile-general-avatar');

    // Connection loss: 'No connection to the server.' with a refresh button.
    await page.goto('/admin/teams/all');
    await page.getByTestId('team-Sales').waitFor();
    const beforeOffline = errors.length;
    await context.setOffline(true);
    await page.getByPlaceholder('Search teams').fill('Sal');
    await page.getByRole('alert').getByText('No connection to the server.').waitFor();
    await page.getByRole('alert').getByRole('button', { name: 'Refresh' }).waitFor();
    await screenshot(page, 'connection-lost');
    await context.setOffline(false);
    // The browser's own notes about the requests that failed while offline are expected here.
    const offlineNotes = errors.splice(beforeOffline);
    assert.ok(
      offlineNotes.every((e) => e.includes('ERR_INTERNET_DISCONNECTED')),
      offlineNotes.join('\n'),
    );

    const sw = await fetch(`${server.url}/service-worker.js`);
    assert.equal(sw.status, 200);
    assert.match(sw.headers.get('content-type') ?? '', /javascript/);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
