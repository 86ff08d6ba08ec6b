import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  apiCall,
  apiLogin,
  dropFile,
  field,
  fieldError,
  launchBrowser,
  makeJpeg,
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
    // §3 affiliation: the organisation is shown, read-only.
    assert.equal(await field(page, 'Organisation').inputValue(), 'Demo');
    assert.equal(await field(page, 'Organisation').isEditable(), false);
    await screenshot(page, 'user-new');
    await field(page, 'Email').fill('not-an-email');
    await field(page, 'Phone').fill('12ab');
    await field(page, 'Automatic break timeout, minutes').fill('1000');
    await field(page, 'Password').fill('weak');
    await field(page, 'Repeat password').fill('other');
    await page.getByRole('button', { name: 'Create' }).click();
    // Each message belongs to its own field (aria-describedby), not merely somewhere on the page.
    for (const [label, message] of [
      ['Name', 'Name specified incorrectly'],
      ['Email', 'Email specified incorrectly'],
      ['Phone', 'Phone number specified incorrectly'],
      ['Automatic break timeout, minutes', 'Time specified incorrectly'],
      ['Role', 'Role specified incorrectly'],
      ['Password', 'Password specified incorrectly'],
      ['Repeat password', 'Passwords do not match'],
    ]) {
      await fieldError(page, label, message);
    }
    await screenshot(page, 'user-new-invalid');

    // Avatar (§5): a PNG and a picture over 200 KB are refused; a JPEG dropped on the zone is taken.
    const jpeg = await makeJpeg(page);
    const zone = page.getByTestId('avatar-drop');
    const png = await page.evaluate(() => {
      const c = document.createElement('canvas');
      c.width = c.height = 8;
      return c.toDataURL('image/png').split(',')[1];
    });
    await zone.locator('input[type=file]').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: Buffer.from(png, 'base64'),
    });
    await page.getByText('Only JPEG pictures are accepted').waitFor();
    const big = Buffer.concat([Buffer.from(jpeg, 'base64'), Buffer.alloc(210 * 1024)]);
    await zone
      .locator('input[type=file]')
      .setInputFiles({ name: 'big.jpg', mimeType: 'image/jpeg', buffer: big });
    await page.getByText('The picture is bigger than 200 KB').waitFor();
    await screenshot(page, 'user-new-avatar-too-big');
    await dropFile(page, zone, { name: 'olga.jpg', mimeType: 'image/jpeg', base64: jpeg });
    await page.locator('img[src^="blob:"]').waitFor();
    assert.equal(await page.getByText('The picture is bigger than 200 KB').count(), 0);

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
    await fieldError(page, 'Email', 'Email already exists');

    await field(page, 'Email').fill('olga@demo.local');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/admin/users/all');
    const row = page.getByTestId('user-olga@demo.local');
    await row.getByText('Active').waitFor();
    await row.getByText('Sales').waitFor();
    // The dropped photo was uploaded with the new user.
    await row.locator('img').waitFor();
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
    // One control for the account's activity: the Deactivate button; the badge shows the saved state.
    assert.equal(await field(page, 'Account active').count(), 0);
    assert.equal(await field(page, 'Organisation').inputValue(), 'Demo');
    assert.notEqual(await field(page, 'Last activity').inputValue(), '');
    await page.getByText('Active', { exact: true }).waitFor();
    await screenshot(page, 'user-edit', { toasts: false });
    const deactivate = page.getByRole('main').getByRole('button', { name: 'Deactivate' });
    await deactivate.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal(await page.getByText('Inactive', { exact: true }).count(), 0);
    await deactivate.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('User deactivated').waitFor();
    await page.getByRole('button', { name: 'Activate', exact: true }).waitFor();
    await page.getByText('Inactive', { exact: true }).waitFor();
    // Saving other changes afterwards does not switch the account back on.
    await field(page, 'Phone').fill('79001234568');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL('**/admin/users/all');
    await row.getByText('Inactive').waitFor();

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

  test('a user created whose photo fails to upload is opened for editing with the upload error', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/users/edit');
    await field(page, 'Name').waitFor();
    await page.route('**/api/users/*/photo', (route) =>
      route.fulfill({
        status: 500,
        json: {
          code: 'fileUploadException',
          entity: null,
          error: { code: 'fileUploadException', message: 'x' },
        },
      }),
    );
    const jpeg = await makeJpeg(page);
    await page
      .getByTestId('avatar-drop')
      .locator('input[type=file]')
      .setInputFiles({ name: 'p.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(jpeg, 'base64') });
    await field(page, 'Name').fill('Petr Photo');
    await field(page, 'Email').fill('petr@demo.local');
    await field(page, 'Role').click();
    await page.getByRole('option', { name: 'Operator' }).click();
    await field(page, 'Password').fill('Petr#Pass1');
    await field(page, 'Repeat password').fill('Petr#Pass1');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/admin\/users\/edit\/[0-9a-f-]{36}$/);
    const notice = page.getByTestId('photo-failed');
    await notice.getByText('The user has been created, but the photo was not saved').waitFor();
    await notice.getByText('File create or upload failure').waitFor();
    await screenshot(page, 'user-created-photo-failed');
    // Submitting again saves the created user (no 'email already exists').
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL('**/admin/users/all');
    await page.getByTestId('user-petr@demo.local').waitFor();
    assert.equal(await page.getByText('Email already exists').count(), 0);
    // The browser notes the refused upload (HTTP 500) in the console.
    assert.deepEqual(
      errors.filter((e) => !/status of 500/.test(e)),
      [],
    );
    await context.close();
  });
});

describe('teams', () => {
  test('create, edit and delete a team in the side page', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin/teams/all');
    await page.getByTestId('team-Sales').waitFor();
    await screenshot(page, 'teams');

    // The side page of an existing team, every field filled.
    await page.getByTestId('team-Sales').click();
    await page.getByRole('dialog').getByText('Edit team').waitFor();
    assert.equal(await field(page, 'Team name').inputValue(), 'Sales');
    await screenshot(page, 'team-edit-filled');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Add team' }).click();
    await field(page, 'Concurrent dialogs per operator').fill('0');
    await field(page, 'Inactivity time, hours').fill('5');
    await page.getByRole('button', { name: 'Create' }).click();
    for (const [label, message] of [
      ['Team name', 'Name specified incorrectly'],
      ['Description (duties)', 'Description specified incorrectly'],
      ['Concurrent dialogs per operator', 'Quantity specified incorrectly'],
      ['Inactivity time, hours', 'Time set incorrectly'],
    ]) {
      await fieldError(page, label, message);
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
    assert.equal(await field(page, 'Name').isEditable(), false);
    assert.equal(await page.getByRole('dialog').getByRole('button', { name: 'Save changes' }).count(), 0);
    await screenshot(page, 'role-built-in-read-only');
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
    assert.equal(await field(v.page, 'Team name').isEditable(), false);
    assert.equal(await v.page.getByRole('button', { name: 'Save changes' }).count(), 0);

    // The server refuses every change of a team without AUTHORITY_TEAMS_UPDATE, not only the creation.
    const teams = await apiCall(server.url, 'GET', '/api/teams', undefined, viewerToken);
    const teamList = Array.isArray(teams.body.entity) ? teams.body.entity : teams.body.entity.items;
    const sales = teamList.find((t: { name: string }) => t.name === 'Sales');
    for (const [method, path, body] of [
      ['POST', '/api/teams', { name: 'Sneaky', description: 'Should not exist' }],
      ['PATCH', `/api/teams/${sales.id}`, { name: 'Hijacked' }],
      ['DELETE', `/api/teams/${sales.id}`, undefined],
    ] as const) {
      const refused = await apiCall(server.url, method, path, body, viewerToken);
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.equal(refused.body.error?.code, 'accessDeniedException', `${method} ${path}`);
    }
    const still = await apiCall(server.url, 'GET', '/api/teams', undefined, adminToken);
    const kept = Array.isArray(still.body.entity) ? still.body.entity : still.body.entity.items;
    assert.ok(kept.some((t: { id: string; name: string }) => t.id === sales.id && t.name === 'Sales'));

    // Without AUTHORITY_ALL_STAT the reports offer only the consolidated report (no tab into /no-rights).
    await v.page.goto('/admin/reports');
    await v.page.waitForURL('**/admin/reports/report');
    await v.page.getByRole('tab', { name: 'Summary report' }).waitFor();
    assert.equal(await v.page.getByRole('tab').count(), 1);
    await screenshot(v.page, 'reports-without-statistics-right');
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
  /** The demo organisation has every option: drop two from the identity answer to see the UI's check. */
  async function withoutStatistics(page: Page) {
    await page.route('**/api/auth/user?*', async (route) => {
      const res = await route.fetch();
      const json = await res.json();
      json.entity.options = json.entity.options.filter(
        (o: string) => o !== 'OPTION_ONLINE_MONITORING' && o !== 'OPTION_STATISTIC',
      );
      await route.fulfill({ response: res, json });
    });
  }

  test('a feature outside the plan names the option; finance users change the plan, others ask their administrator', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await withoutStatistics(page);
    await signIn(page, adminToken, '/admin/monitoring/operators');
    await page.waitForURL('**/admin/options?option=OPTION_ONLINE_MONITORING');
    await page.getByText('Functionality unavailable').first().waitFor();
    await page
      .getByTestId('options-feature')
      .getByText('“Online monitoring” is not included in your plan.')
      .waitFor();
    assert.equal(
      await titleOf(page, 'Functionality unavailable · SmartConnect'),
      'Functionality unavailable · SmartConnect',
    );
    await page.goto('/admin/reports/employees');
    await page.waitForURL('**/admin/options?option=OPTION_STATISTIC');
    await page
      .getByTestId('options-feature')
      .getByText('“Enhanced statistics” is not included in your plan.')
      .waitFor();
    await screenshot(page, 'options-unavailable');
    // The administrator holds AUTHORITY_FINANCE: the change-plan action leads to Finance.
    await page.getByRole('link', { name: 'Change plan' }).click();
    await page.waitForURL('**/admin/finance/balance');
    // The consolidated report has no option check: it shows the user's own statistics.
    await page.goto('/admin/reports/report');
    await page.getByRole('heading', { name: 'My statistics' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();

    // The supervisor has no AUTHORITY_FINANCE: a hint to ask the administrator, no link into /no-rights.
    const sv = await openPage(browser, server.url);
    await withoutStatistics(sv.page);
    const token = await apiLogin(
      server.url,
      'supervisor@demo.local',
      server.passwords['supervisor@demo.local'],
    );
    await signIn(sv.page, token, '/admin/reports/dialogs');
    await sv.page.waitForURL('**/admin/options?option=OPTION_STATISTIC');
    await sv.page.getByText('To use it, ask your administrator to change the plan.').waitFor();
    assert.equal(await sv.page.getByRole('link', { name: 'Change plan' }).count(), 0);
    await screenshot(sv.page, 'options-ask-administrator');
    assert.deepEqual(sv.errors, []);
    await sv.context.close();
  });
});

describe('every screen', () => {
  test('each route renders without console errors; unknown paths lead to not-found', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signIn(page, adminToken, '/admin');
    await page.waitForURL('**/admin/chats?filter=assigned');
    // Each route with the title it sets (§2.1: per route, default the platform name).
    const screens: [string, string, string][] = [
      ['/admin/chats?filter=waiting', 'chats-waiting', 'Chat center'],
      ['/admin/chats?filter=closed', 'chats-closed', 'Chat center'],
      ['/admin/reports', 'reports', 'Summary report'],
      ['/admin/reports/dialogs', 'reports-dialogs', 'Dialogs'],
      ['/admin/monitoring', 'monitoring', 'Channels'],
      ['/admin/finance', 'finance', 'Balance'],
      // The preferences open their first built page, Roles.
      ['/admin/preferences', 'preferences', 'Roles'],
      ['/admin/preferences/channels', 'preferences-channels', 'Communication channels'],
      ['/admin/preferences/roles', 'preferences-roles', 'Roles'],
      ['/admin/preferences/black-list', 'preferences-black-list', 'Blacklist'],
      ['/admin/options', 'options', 'Functionality unavailable'],
      ['/admin/support', 'support', 'Support'],
      ['/admin/expanded-search', 'expanded-search', 'Extended search'],
      ['/admin/profile', 'profile-general', 'Profile'],
      ['/admin/profile/authentication', 'profile-authentication-admin', 'Profile'],
      ['/admin/users/edit', 'user-new-empty', 'Users'],
      ['/admin/teams/all', 'teams-all', 'Teams'],
    ];
    for (const [path, name, title] of screens) {
      await page.goto(path);
      await page.locator('main').waitFor();
      assert.equal(await titleOf(page, `${title} · SmartConnect`), `${title} · SmartConnect`, path);
      await screenshot(page, name);
    }
    const favicon = () => page.locator('link#favicon').getAttribute('href');
    assert.equal(await favicon(), '/favicon.svg');
    await page.goto('/admin/preferences/plans');
    await page.waitForURL('**/no-rights');

    // Error and status screens carry their own title and the error favicon; the others keep the default.
    for (const [path, name, title, icon] of [
      ['/not-found', 'not-found', 'Page not found', '/favicon-error.svg'],
      ['/service-unavailable', 'service-unavailable', 'Service unavailable', '/favicon-error.svg'],
      ['/no-rights', 'no-rights-direct', 'No rights', '/favicon-error.svg'],
      ['/unknown-error', 'unknown-error', 'Unknown error', '/favicon-error.svg'],
      ['/success', 'success', 'Thank you', '/favicon.svg'],
      ['/already-used', 'already-used', 'Link already used', '/favicon.svg'],
      ['/signup', 'signup', 'Sign up', '/favicon.svg'],
    ]) {
      await page.goto(path);
      // The page's own heading (the sign-up page's is an h1; the login carousel's hidden h2s do not count).
      await page.locator('h1:visible, h2:visible').first().waitFor();
      assert.equal(await titleOf(page, `${title} · SmartConnect`), `${title} · SmartConnect`, path);
      assert.equal(await favicon(), icon, path);
      await screenshot(page, name);
    }
    const icon = await fetch(`${server.url}/favicon-error.svg`);
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type') ?? '', /svg/);
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
    const jpeg = await makeJpeg(page);
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
    // Back online: the notice clears by itself once /api/health answers, without any other call.
    await context.setOffline(false);
    await page
      .getByRole('alert')
      .filter({ hasText: 'No connection to the server.' })
      .waitFor({ state: 'detached', timeout: 10_000 });
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

describe('failed loads', () => {
  test('a list or form that cannot load shows an error state with retry, never "not found"', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    const failing = (url: string) =>
      page.route(url, (route) =>
        route.fulfill({
          status: 500,
          json: { code: 'unknownException', entity: null, error: { code: 'unknownException', message: 'x' } },
        }),
      );
    await failing('**/api/users?*');
    await signIn(page, adminToken, '/admin/users/all');
    const failed = page.getByTestId('load-error');
    await failed.getByText('Could not load the data').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByText('No users found').count(), 0);
    await screenshot(page, 'users-load-error');
    await page.unroute('**/api/users?*');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('users-table').getByText('operator1@demo.local').waitFor();

    await failing('**/api/teams');
    await page.goto('/admin/teams/all');
    await failed.getByText('Could not load the data').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByText('No teams available').count(), 0);
    await page.unroute('**/api/teams');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('team-Sales').waitFor();

    await failing('**/api/roles');
    await page.goto('/admin/preferences/roles');
    await failed.getByText('Could not load the data').waitFor({ timeout: 10_000 });
    await page.unroute('**/api/roles');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('roles-table').waitFor();

    await failing('**/api/channels');
    await page.goto('/admin/preferences/channels');
    // §8: a channel list that failed to load says so in the spec's words.
    await failed.getByText('Channels or clients cannot be displayed').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByText('No channels connected yet').count(), 0);
    await page.unroute('**/api/channels');

    // The user form does not spin forever on a server error.
    const users = await apiCall(server.url, 'GET', '/api/users?limit=500', undefined, adminToken);
    const operator = users.body.entity.items.find(
      (u: { email: string }) => u.email === 'operator1@demo.local',
    );
    await failing(`**/api/users/${operator.id}`);
    await page.goto(`/admin/users/edit/${operator.id}`);
    await failed.getByText('Could not load the data').waitFor({ timeout: 10_000 });
    await screenshot(page, 'user-edit-load-error');
    await page.unroute(`**/api/users/${operator.id}`);
    await failed.getByRole('button', { name: 'Try again' }).click();
    assert.equal(await field(page, 'Email').inputValue(), 'operator1@demo.local');
    // Only the browser's notes about the refused requests (HTTP 500) reach the console.
    assert.deepEqual(
      errors.filter((e) => !/status of 500/.test(e)),
      [],
    );
    await context.close();
  });
});

describe('Russian', () => {
  test('the reworked screens read well in Russian', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await page.goto('/not-found');
    await page.evaluate(() => localStorage.setItem('sc-lang', 'rus'));
    await signIn(page, adminToken, '/admin/users/all');
    await page.getByTestId('users-table').waitFor();
    await screenshot(page, 'users-ru');
    await page.getByRole('link', { name: 'Добавить пользователя' }).click();
    await field(page, 'Организация').waitFor();
    await page.getByRole('button', { name: 'Создать' }).click();
    await fieldError(page, 'Имя', 'Имя указано некорректно');
    await screenshot(page, 'user-new-invalid-ru');
    await page.goto('/admin/teams/all');
    await page.getByTestId('team-Sales').click();
    await field(page, 'Автозакрытие необработанных чатов').click();
    // Plural forms: 24 часа, 48 часов, 72 часа.
    for (const option of ['Нет', '24 часа', '48 часов', '72 часа'])
      await page.getByRole('option', { name: option, exact: true }).waitFor();
    await screenshot(page, 'team-edit-ru');
    await page.keyboard.press('Escape');
    await page.goto('/admin/options?option=OPTION_PROFILE_STATUS');
    await page.getByText('«Управление статусами клиентов» не входит в ваш тариф.').waitFor();
    await screenshot(page, 'options-ru');
    await page.goto('/admin/preferences/roles');
    await page.getByTestId('role-Administrator').click();
    await page.getByText('Встроенные роли нельзя изменить').first().waitFor();
    await screenshot(page, 'role-built-in-ru');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
