import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { currentTotp } from '../../src/modules/auth/totp.ts';
import {
  createOrganisation,
  solveCaptcha,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
} from '../helpers.ts';

/** The identity contract at its edges: lenient flags, second-factor errors and limits, races, odd inputs. */
describe('identity edges', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  async function withTwoFactor() {
    const org = await createOrganisation(s);
    const { secret } = (await org.admin.api.post('/api/auth/generate')).body.entity;
    const on = await org.admin.api.patch('/api/auth/toggle', {
      enabled: true,
      totpCode: currentTotp(secret),
    });
    assert.equal(on.status, 200);
    const ticket = async () =>
      (await s.api.post('/api/auth/login', { email: org.admin.email, password: TEST_PASSWORD })).body.entity
        .ticket as string;
    return { org, secret, ticket, wrong: currentTotp(secret) === '000000' ? '111111' : '000000' };
  }

  test('auth/user takes pwa as browsers write it, and its role carries the rights list', async () => {
    const org = await createOrganisation(s);
    for (const q of ['', '?pwa=', '?pwa=true', '?pwa=false', '?pwa=1', '?pwa=0']) {
      const res = await org.admin.api.get(`/api/auth/user${q}`);
      assert.equal(res.status, 200, q);
      assert.equal(res.body.code, 'ok');
    }
    const bad = await org.admin.api.get('/api/auth/user?pwa=maybe');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.fields.pwa, 'Incorrect value entered');
    const me = (await org.admin.api.get('/api/auth/user')).body.entity;
    assert.deepEqual(me.role.rights, me.rights);
    assert.ok(me.role.rights.includes('RIGHT_ACCOUNT_CONTROL'));
  });

  test('the second login step names a missing and a malformed code (§8)', async () => {
    const { ticket } = await withTwoFactor();
    const t = await ticket();
    const missing = await s.api.post('/api/auth/login/two-factor', { ticket: t });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'totpMandatoryException');
    const malformed = await s.api.post('/api/auth/login/two-factor', { ticket: t, code: '12ab56' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'totpBadFormatException');
    const empty = await s.api.post('/api/auth/login/two-factor', { ticket: t, code: '' });
    assert.equal(empty.body.code, 'totpMandatoryException');
  });

  test('wrong second-factor codes: a ticket dies after five, a new one needs the proof, the right code works', async () => {
    const { org, secret, ticket, wrong } = await withTwoFactor();
    const codes: string[] = [];
    // Five tries per ticket, then log in again: the wrong codes count against the account across tickets.
    for (let round = 0; round < 2; round++) {
      const t = await ticket();
      for (let i = 0; i < 6; i++) {
        codes.push((await s.api.post('/api/auth/login/two-factor', { ticket: t, code: wrong })).body.code);
      }
    }
    assert.equal(codes.filter((c) => c === 'totpInvalidException').length, 10);
    assert.equal(codes.filter((c) => c === 'loginTicketExpiredException').length, 2);
    // Ten failures: this browser is not known to the account, so the password step needs the captcha proof.
    const body = { email: org.admin.email, password: TEST_PASSWORD };
    assert.equal((await s.api.post('/api/auth/login', body)).body.code, 'invalidCaptchaException');
    const step1 = await s.api.post('/api/auth/login', { ...body, captcha: await solveCaptcha(s.api) });
    assert.equal(step1.status, 200, JSON.stringify(step1.body));
    const ok = await s.api.post('/api/auth/login/two-factor', {
      ticket: step1.body.entity.ticket,
      code: currentTotp(secret),
    });
    assert.equal(ok.status, 200);
    assert.ok(ok.body.entity.token);
  });

  test('a burst of parallel wrong passwords cannot slip under the login limit', async () => {
    const org = await createOrganisation(s);
    const codes = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const res = await s.api.post('/api/auth/login', { email: org.admin.email, password: 'Wrong-pass1!' });
        return res.body.code as string;
      }),
    );
    assert.equal(codes.filter((c) => c === 'invalidCredentialsException').length, 10);
    assert.equal(codes.filter((c) => c === 'tooManyRequestsException').length, 6);
  });

  test('successful logins do not use up the limit', async () => {
    const org = await createOrganisation(s);
    for (let i = 0; i < 12; i++) {
      const res = await s.api.post('/api/auth/login', { email: org.admin.email, password: TEST_PASSWORD });
      assert.equal(res.status, 200, `login ${i + 1}`);
    }
  });

  test('a recovery link can be spent once even by two racing requests', async () => {
    const org = await createOrganisation(s);
    await s.api.post('/api/auth/recovery', { email: org.admin.email, captcha: await solveCaptcha(s.api) });
    const link = s.mails.at(-1)?.text.match(/token=([^\s]+)/)?.[1];
    assert.ok(link, 'the mail carries the link');
    const token = decodeURIComponent(link);
    const body = (password: string) => ({ token, password, repeatPassword: password });
    const results = await Promise.all([
      s.api.post('/api/auth/recovery/reset', body('First-pass1!')),
      s.api.post('/api/auth/recovery/reset', body('Second-pass1!')),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400]);
    assert.equal(results.find((r) => r.status === 400)?.body.code, 'recoveryLinkExpiredException');
  });

  test('an empty form gets the spec’s message under every field, never the validation library’s', async () => {
    const org = await createOrganisation(s);
    const api = org.admin.api;
    const fields = async (path: string) => (await api.post(path, {})).body.error.fields;
    assert.deepEqual(await fields('/api/users'), {
      name: 'Name specified incorrectly',
      email: 'Email specified incorrectly',
      roleId: 'Role specified incorrectly',
      password: 'Password specified incorrectly',
      repeatPassword: 'Passwords do not match',
    });
    assert.deepEqual(await fields('/api/teams'), {
      name: 'Name specified incorrectly',
      description: 'Description specified incorrectly',
    });
    assert.deepEqual(await fields('/api/roles'), {
      name: 'Name specified incorrectly',
      description: 'Description specified incorrectly',
      rights: 'Rights specified incorrectly',
    });
    assert.deepEqual((await s.api.post('/api/auth/login', {})).body.error.fields, {
      email: 'Invalid email format',
      password: 'Invalid password format',
    });
    // Every message at once: a weak password and a repeat that differs are both named, beside the other fields.
    const weak = await api.post('/api/users', {
      name: '',
      email: 'a@b.co',
      password: 'weak',
      repeatPassword: 'other',
    });
    assert.deepEqual(weak.body.error.fields, {
      name: 'Name specified incorrectly',
      roleId: 'Role specified incorrectly',
      password: 'Password specified incorrectly',
      repeatPassword: 'Passwords do not match',
    });
    const wrongTypes = await api.post('/api/teams', { name: 5, description: true, dialogLimit: 'ten' });
    assert.deepEqual(wrongTypes.body.error.fields, {
      name: 'Name specified incorrectly',
      description: 'Description specified incorrectly',
      dialogLimit: 'Quantity specified incorrectly',
    });
  });

  test('a malformed id in a path is not found, like an id of another organisation', async () => {
    const org = await createOrganisation(s);
    for (const path of ['/api/users/not-a-uuid', '/api/teams/123', '/api/roles/x']) {
      const res = await org.admin.api.get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 'notFoundException');
    }
  });

  test('search by name takes % and _ literally and does not match e-mails', async () => {
    const org = await createOrganisation(s);
    await org.user({ name: 'Percy 100% Real' });
    await org.user({ name: 'Percy Plain' });
    const pct = await org.admin.api.get(`/api/users?search=${encodeURIComponent('100%')}`);
    assert.deepEqual(
      pct.body.entity.items.map((u: { name: string }) => u.name),
      ['Percy 100% Real'],
    );
    const underscore = await org.admin.api.get(`/api/users?search=${encodeURIComponent('Percy_')}`);
    assert.equal(underscore.body.entity.total, 0);
    // Every test e-mail ends in ".test"; no name contains it.
    const byMail = await org.admin.api.get('/api/users?search=.test');
    assert.equal(byMail.body.entity.total, 0);
  });

  test('uploads: a PNG is refused as not JPEG, an oversized JSON body is 413 without blaming a picture', async () => {
    const org = await createOrganisation(s);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const raw = await org.admin.api.call('PUT', '/api/auth/acc/photo', new Uint8Array(png), {
      'content-type': 'image/png',
    });
    assert.equal(raw.status, 400);
    assert.equal(raw.body.code, 'fileUploadException');
    assert.equal(raw.body.error.fields.file, 'JPEG only');
    const huge = await org.admin.api.patch('/api/auth/acc/update', { name: 'x'.repeat(2 * 1024 * 1024) });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.code, 'payloadTooLargeException');
  });
});
