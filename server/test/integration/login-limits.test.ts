import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LOGIN_LIMIT, LOGIN_THROTTLE, TWO_FACTOR_ATTEMPTS } from '../../src/modules/auth/service.ts';
import { currentTotp } from '../../src/modules/auth/totp.ts';
import {
  type Call,
  createOrganisation,
  solveCaptcha,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
} from '../helpers.ts';

/**
 * Issue 29: wrong passwords are refused outright per (account, address) and per address; per account across
 * addresses they only slow an unknown device down (the captcha proof, then a rising delay between attempts), so a
 * stranger cannot lock the owner out: the owner's browser that signed in before (its known-device cookie) keeps the
 * normal path, and the owner elsewhere gets in with the proof.
 */
describe('login limits cannot lock the owner out', () => {
  let s: TestServer;
  before(async () => {
    // Behind a proxy: X-Forwarded-For names the client, so the test can speak from several addresses.
    s = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  });
  after(() => s.close());

  const login = (
    email: string,
    password: string,
    from: string,
    extra: { captcha?: string; cookie?: string } = {},
  ) =>
    s.api.call(
      'POST',
      '/api/auth/login',
      { email, password, ...(extra.captcha ? { captcha: extra.captcha } : {}) },
      { 'x-forwarded-for': from, ...(extra.cookie ? { cookie: extra.cookie } : {}) },
    );
  /** The known-device cookie a completed sign-in sets, as the browser sends it back. */
  const deviceOf = (res: Call) => {
    const set = res.headers.get('set-cookie') ?? '';
    assert.match(set, /^sc_device=[^;]+; Path=\/api\/auth; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    return set.split(';')[0];
  };
  const retryAfter = (res: Call) => Number(res.headers.get('retry-after'));

  test("a stranger's wrong passwords stop the stranger's address, not the owner elsewhere", async () => {
    const org = await createOrganisation(s);
    const email = org.admin.email;
    const codes: string[] = [];
    for (let i = 0; i <= LOGIN_LIMIT.max; i++)
      codes.push((await login(email, 'Wrong-pass1!', '203.0.113.9')).body.code);
    assert.deepEqual(
      codes.slice(0, LOGIN_LIMIT.max),
      new Array(LOGIN_LIMIT.max).fill('invalidCredentialsException'),
    );
    assert.equal(codes[LOGIN_LIMIT.max], 'tooManyRequestsException');
    // The stranger is refused even with the right password from that address...
    const blocked = await login(email, TEST_PASSWORD, '203.0.113.9', { captcha: await solveCaptcha(s.api) });
    assert.equal(blocked.status, 429);
    // ...while the owner, elsewhere, signs in (the account is throttled now: with the proof).
    const owner = await login(email, TEST_PASSWORD, '198.51.100.20', { captcha: await solveCaptcha(s.api) });
    assert.equal(owner.status, 200, JSON.stringify(owner.body));
    assert.ok(owner.body.entity.token);
  });

  test('110 wrong passwords from 110 addresses: the owner gets in from a known device, and elsewhere with the proof', async () => {
    const org = await createOrganisation(s);
    const email = org.admin.email;
    // The owner signed in on this browser before the attack: it holds the known-device cookie.
    const device = deviceOf(await login(email, TEST_PASSWORD, '198.51.100.1'));

    const codes: string[] = [];
    for (let a = 0; a < 110; a++) {
      // A determined stranger solves a proof for every attempt past the threshold.
      const captcha = a >= LOGIN_THROTTLE.after ? await solveCaptcha(s.api) : undefined;
      codes.push((await login(email, 'Wrong-pass1!', `192.0.2.${a + 1}`, { captcha })).body.code);
    }
    // The first attempts are free, one more takes the account's slot, the rest of the burst waits for it.
    assert.deepEqual(
      codes.slice(0, LOGIN_THROTTLE.after + 1),
      new Array(LOGIN_THROTTLE.after + 1).fill('invalidCredentialsException'),
    );
    assert.ok(codes.slice(LOGIN_THROTTLE.after + 1).every((c) => c === 'tooManyRequestsException'));
    // Without a proof a stranger gets no password checked at all.
    const proofless = await login(email, TEST_PASSWORD, '192.0.2.200');
    assert.equal(proofless.status, 400);
    assert.equal(proofless.body.code, 'invalidCaptchaException');
    assert.equal(proofless.body.error.fields.captcha, 'Confirm that you are not a robot');

    // The owner's known device: the normal path, at once, from yet another address.
    const known = await login(email, TEST_PASSWORD, '198.51.100.2', { cookie: device });
    assert.equal(known.status, 200, JSON.stringify(known.body));
    assert.ok(known.body.entity.token);
    // A known device is the owner's only with the owner's password: a wrong one is still a failure.
    assert.equal(
      (await login(email, 'Wrong-pass1!', '198.51.100.2', { cookie: device })).body.code,
      'invalidCredentialsException',
    );
    // Another user's cookie does not make this browser known for this account.
    const other = await org.user({ role: 'OPERATOR' });
    const otherDevice = deviceOf(await login(other.email, TEST_PASSWORD, '198.51.100.3'));
    assert.equal(
      (await login(email, TEST_PASSWORD, '198.51.100.3', { cookie: otherDevice })).body.code,
      'invalidCaptchaException',
    );

    // The owner on an unknown address: the proof, then the account's slot (rising delay), then in.
    const unknown = '198.51.100.4';
    assert.equal((await login(email, TEST_PASSWORD, unknown)).body.code, 'invalidCaptchaException');
    const waiting = await login(email, TEST_PASSWORD, unknown, { captcha: await solveCaptcha(s.api) });
    assert.equal(waiting.status, 429);
    assert.ok(retryAfter(waiting) > 0 && retryAfter(waiting) <= LOGIN_THROTTLE.maxDelayMs / 1000);
    s.clock.advance(retryAfter(waiting) * 1000);
    const owner = await login(email, TEST_PASSWORD, unknown, { captcha: await solveCaptcha(s.api) });
    assert.equal(owner.status, 200, JSON.stringify(owner.body));
    assert.ok(owner.body.entity.token);
    // The sign-in made that browser known: its next sign-in takes the normal path.
    const again = await login(email, TEST_PASSWORD, unknown, { cookie: deviceOf(owner) });
    assert.equal(again.status, 200);
  });

  test('past the threshold every failure doubles the wait between attempts of unknown devices', async () => {
    const org = await createOrganisation(s);
    const email = org.admin.email;
    for (let a = 0; a < LOGIN_THROTTLE.after; a++) await login(email, 'Wrong-pass1!', `192.0.2.${a + 1}`);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const failed = await login(email, 'Wrong-pass1!', `192.0.2.${50 + i}`, {
        captcha: await solveCaptcha(s.api),
      });
      assert.equal(failed.body.code, 'invalidCredentialsException');
      const held = await login(email, 'Wrong-pass1!', `192.0.2.${60 + i}`, {
        captcha: await solveCaptcha(s.api),
      });
      assert.equal(held.status, 429);
      waits.push(retryAfter(held));
      s.clock.advance(retryAfter(held) * 1000);
    }
    assert.deepEqual(waits, [1, 2, 4, 8]);
    // The failures age out with the window: the account is free again.
    s.clock.advance(LOGIN_THROTTLE.windowMs);
    assert.equal((await login(email, TEST_PASSWORD, '192.0.2.99')).status, 200);
  });

  test("a stranger's wrong second-factor codes do not stop the owner's right code", async () => {
    const org = await createOrganisation(s);
    const email = org.admin.email;
    const { secret } = (await org.admin.api.post('/api/auth/generate')).body.entity;
    await org.admin.api.patch('/api/auth/toggle', { enabled: true, totpCode: currentTotp(secret) });
    const wrong = currentTotp(secret) === '000000' ? '111111' : '000000';
    const second = (ticket: string, code: string, from: string, cookie?: string) =>
      s.api.call(
        'POST',
        '/api/auth/login/two-factor',
        { ticket, code },
        { 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
      );
    // The owner signed in on this browser before: the cookie comes with the completed second step.
    const first = await login(email, TEST_PASSWORD, '198.51.100.30');
    const done = await second(first.body.entity.ticket, currentTotp(secret), '198.51.100.30');
    assert.equal(done.status, 200);
    const device = deviceOf(done);

    // Someone who knows the password: tickets from several addresses, wrong codes; a ticket dies after 5.
    const codes: string[] = [];
    for (let round = 0; round < 2; round++) {
      const from = `192.0.2.${round + 1}`;
      const { ticket } = (await login(email, TEST_PASSWORD, from)).body.entity;
      for (let i = 0; i <= TWO_FACTOR_ATTEMPTS; i++)
        codes.push((await second(ticket, wrong, from)).body.code);
    }
    assert.deepEqual(
      codes,
      [...new Array(TWO_FACTOR_ATTEMPTS).fill('totpInvalidException'), 'loginTicketExpiredException'].concat(
        ...new Array(TWO_FACTOR_ATTEMPTS).fill('totpInvalidException'),
        'loginTicketExpiredException',
      ),
    );
    // Ten wrong codes: a new ticket for an unknown device now needs the proof (and waits its turn).
    assert.equal((await login(email, TEST_PASSWORD, '192.0.2.9')).body.code, 'invalidCaptchaException');

    // The owner's known device: the password step and the right code, as always.
    const step1 = await login(email, TEST_PASSWORD, '198.51.100.31', { cookie: device });
    assert.equal(step1.status, 200, JSON.stringify(step1.body));
    const ok = await second(step1.body.entity.ticket, currentTotp(secret), '198.51.100.31', device);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.ok(ok.body.entity.token);
    // And on an unknown address with the proof: a ticket, and the right code works on it.
    const elsewhere = await login(email, TEST_PASSWORD, '198.51.100.32', {
      captcha: await solveCaptcha(s.api),
    });
    assert.equal(elsewhere.status, 200, JSON.stringify(elsewhere.body));
    const fine = await second(elsewhere.body.entity.ticket, currentTotp(secret), '198.51.100.32');
    assert.equal(fine.status, 200, JSON.stringify(fine.body));
  });

  test('a pending second step dies when the password changes', async () => {
    const org = await createOrganisation(s);
    const { secret } = (await org.admin.api.post('/api/auth/generate')).body.entity;
    await org.admin.api.patch('/api/auth/toggle', { enabled: true, totpCode: currentTotp(secret) });
    const { ticket } = (await login(org.admin.email, TEST_PASSWORD, '198.51.100.40')).body.entity;
    const change = await org.admin.api.post('/api/auth/acc/passwordChange', {
      oldPassword: TEST_PASSWORD,
      password: 'N3w-Passw0rd!',
      repeatPassword: 'N3w-Passw0rd!',
    });
    assert.equal(change.status, 200);
    const res = await s.api.post('/api/auth/login/two-factor', { ticket, code: currentTotp(secret) });
    assert.equal(res.body.code, 'loginTicketExpiredException');
  });
});
