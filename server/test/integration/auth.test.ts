import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { currentTotp } from '../../src/modules/auth/totp.ts';
import {
  createOrganisation,
  loginToken,
  solveCaptcha,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
} from '../helpers.ts';

describe('identity', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('health names the database', async () => {
    const res = await s.api.get('/api/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'pglite' });
  });

  test('login returns a token that loads the current user with rights and options', async () => {
    const org = await createOrganisation(s, { options: ['OPTION_STATISTIC'] });
    const res = await org.admin.api.get('/api/auth/user?pwa=false');
    assert.equal(res.status, 200);
    assert.equal(res.body.code, 'ok');
    assert.equal(res.body.error, null);
    assert.equal(res.body.entity.email, org.admin.email);
    assert.equal(res.body.entity.role.builtIn, 'ADMINISTRATOR');
    assert.ok(res.body.entity.rights.includes('RIGHT_ACCOUNT_CONTROL'));
    assert.ok(!res.body.entity.rights.includes('RIGHT_OBSERVER'));
    assert.deepEqual(res.body.entity.options, ['OPTION_STATISTIC']);
    assert.ok(res.body.entity.lastActivityAt, 'logging in counts as activity');
  });

  test('wrong credentials are 401 invalidCredentialsException', async () => {
    const org = await createOrganisation(s);
    for (const body of [
      { email: org.admin.email, password: 'Wrong-pass1' },
      { email: 'nobody@nowhere.test', password: TEST_PASSWORD },
    ]) {
      const res = await s.api.post('/api/auth/login', body);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'invalidCredentialsException');
      assert.equal(res.body.error.code, 'invalidCredentialsException');
    }
  });

  test('malformed login is a validation error with the spec messages', async () => {
    const res = await s.api.post('/api/auth/login', { email: 'not-an-email', password: '' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validationException');
    assert.deepEqual(res.body.error.fields, {
      email: 'Invalid email format',
      password: 'Invalid password format',
    });
  });

  test('requests without a token or with a revoked one are 401', async () => {
    assert.equal((await s.api.get('/api/auth/user')).status, 401);
    assert.equal((await s.api.as('nonsense').get('/api/auth/user')).body.code, 'unauthorizedException');
  });

  test('logout revokes the token', async () => {
    const org = await createOrganisation(s);
    const res = await org.admin.api.post('/api/auth/acc/logout', { token: org.admin.token });
    assert.equal(res.status, 200);
    assert.equal((await org.admin.api.get('/api/auth/user')).status, 401);
  });

  test('password change revokes every token and returns a new one', async () => {
    const org = await createOrganisation(s);
    const other = await loginToken(s.api, org.admin.email, TEST_PASSWORD);
    const weak = await org.admin.api.post('/api/auth/acc/passwordChange', {
      oldPassword: TEST_PASSWORD,
      password: 'short',
      repeatPassword: 'short',
    });
    assert.equal(weak.status, 400);
    assert.equal(weak.body.error.fields.password, 'Password specified incorrectly');
    const mismatch = await org.admin.api.post('/api/auth/acc/passwordChange', {
      oldPassword: TEST_PASSWORD,
      password: 'N3w-Passw0rd!',
      repeatPassword: 'N3w-Passw0rd?',
    });
    assert.equal(mismatch.body.error.fields.repeatPassword, 'Passwords do not match');
    const res = await org.admin.api.post('/api/auth/acc/passwordChange', {
      oldPassword: TEST_PASSWORD,
      password: 'N3w-Passw0rd!',
      repeatPassword: 'N3w-Passw0rd!',
    });
    assert.equal(res.status, 200);
    assert.equal((await org.admin.api.get('/api/auth/user')).status, 401);
    assert.equal((await s.api.as(other).get('/api/auth/user')).status, 401);
    assert.equal((await s.api.as(res.body.entity.token).get('/api/auth/user')).status, 200);
    await loginToken(s.api, org.admin.email, 'N3w-Passw0rd!');
  });

  test('deactivation revokes tokens and blocks login', async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    const res = await org.admin.api.post(`/api/users/${op.id}/deactivate`);
    assert.equal(res.status, 200);
    assert.equal(res.body.entity.active, false);
    assert.equal((await op.api.get('/api/auth/user')).status, 401);
    const login = await s.api.post('/api/auth/login', { email: op.email, password: op.password });
    assert.equal(login.status, 401);
    assert.equal(login.body.code, 'invalidCredentialsException');
  });

  test('two-factor: enrol with a real TOTP code, log in in two steps, wrong code, disable', async () => {
    const org = await createOrganisation(s);
    const api = org.admin.api;
    const gen = await api.post('/api/auth/generate');
    assert.equal(gen.status, 200);
    const { secret, otpauthUri, qr } = gen.body.entity;
    assert.match(otpauthUri, /^otpauth:\/\/totp\//);
    assert.match(qr, /^data:image\/png;base64,/);

    assert.equal(
      (await api.patch('/api/auth/toggle', { enabled: true, totpCode: '' })).body.code,
      'totpMandatoryException',
    );
    assert.equal(
      (await api.patch('/api/auth/toggle', { enabled: true, totpCode: '12ab' })).body.code,
      'totpBadFormatException',
    );
    const wrongCode = currentTotp(secret) === '000000' ? '111111' : '000000';
    assert.equal(
      (await api.patch('/api/auth/toggle', { enabled: true, totpCode: wrongCode })).body.code,
      'totpInvalidException',
    );
    const on = await api.patch('/api/auth/toggle', { enabled: true, totpCode: currentTotp(secret) });
    assert.equal(on.status, 200);
    assert.equal((await api.post('/api/auth/generate')).body.code, 'totpAlreadyEnabledException');

    const step1 = await s.api.post('/api/auth/login', { email: org.admin.email, password: TEST_PASSWORD });
    assert.equal(step1.status, 200);
    assert.equal(step1.body.entity.twoFactorRequired, true);
    assert.equal(step1.body.entity.token, undefined);
    const ticket = step1.body.entity.ticket;
    const bad = await s.api.post('/api/auth/login/two-factor', { ticket, code: wrongCode });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.code, 'totpInvalidException');
    const good = await s.api.post('/api/auth/login/two-factor', { ticket, code: currentTotp(secret) });
    assert.equal(good.status, 200);
    const token = good.body.entity.token;
    assert.equal((await s.api.as(token).get('/api/auth/user')).body.entity.twoFactorEnabled, true);
    // A ticket is spent once it has been used.
    const again = await s.api.post('/api/auth/login/two-factor', { ticket, code: currentTotp(secret) });
    assert.equal(again.body.code, 'loginTicketExpiredException');

    const off = await s.api
      .as(token)
      .patch('/api/auth/toggle', { enabled: false, totpCode: currentTotp(secret) });
    assert.equal(off.status, 200);
    const plain = await s.api.post('/api/auth/login', { email: org.admin.email, password: TEST_PASSWORD });
    assert.ok(plain.body.entity.token);
  });

  test('a two-factor ticket expires', async () => {
    const org = await createOrganisation(s);
    const { secret } = (await org.admin.api.post('/api/auth/generate')).body.entity;
    await org.admin.api.patch('/api/auth/toggle', { enabled: true, totpCode: currentTotp(secret) });
    const { ticket } = (
      await s.api.post('/api/auth/login', { email: org.admin.email, password: TEST_PASSWORD })
    ).body.entity;
    s.clock.advance(6 * 60_000);
    const res = await s.api.post('/api/auth/login/two-factor', { ticket, code: currentTotp(secret) });
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'loginTicketExpiredException');
  });

  test('failed logins are rate-limited per e-mail', async () => {
    const org = await createOrganisation(s);
    const codes: string[] = [];
    for (let i = 0; i < 11; i++) {
      codes.push(
        (await s.api.post('/api/auth/login', { email: org.admin.email, password: 'Wrong-pass1!' })).body.code,
      );
    }
    assert.equal(codes.filter((c) => c === 'invalidCredentialsException').length, 10);
    assert.equal(codes[10], 'tooManyRequestsException');
    const res = await s.api.post('/api/auth/login', { email: org.admin.email, password: TEST_PASSWORD });
    assert.equal(res.status, 429);
    s.clock.advance(16 * 60_000);
    // The address may try again; the account has had ten failures, so a browser it does not know shows the proof.
    const body = { email: org.admin.email, password: TEST_PASSWORD };
    assert.equal((await s.api.post('/api/auth/login', body)).body.code, 'invalidCaptchaException');
    assert.equal(
      (await s.api.post('/api/auth/login', { ...body, captcha: await solveCaptcha(s.api) })).status,
      200,
    );
  });

  test('short user search stays inside the organisation', async () => {
    const a = await createOrganisation(s);
    const b = await createOrganisation(s);
    await a.user({ name: 'Zoe Searchable' });
    await b.user({ name: 'Zoe Elsewhere' });
    const res = await a.admin.api.get('/api/acc/user/short?name=zoe');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.entity.map((u: { name: string }) => u.name),
      ['Zoe Searchable'],
    );
  });

  test('own account update validates and saves', async () => {
    const org = await createOrganisation(s);
    const bad = await org.admin.api.patch('/api/auth/acc/update', {
      name: '',
      phone: '12',
      breakTimeoutMinutes: 1000,
    });
    assert.deepEqual(bad.body.error.fields, {
      name: 'Name specified incorrectly',
      phone: 'Phone number specified incorrectly',
      breakTimeoutMinutes: 'Time specified incorrectly',
    });
    const ok = await org.admin.api.patch('/api/auth/acc/update', {
      name: 'New Name',
      phone: '79009009090',
      language: 'rus',
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.entity.name, 'New Name');
    assert.equal(ok.body.entity.language, 'rus');
  });
});
