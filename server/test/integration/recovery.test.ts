import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RECOVERY_IP_LIMIT } from '../../src/modules/auth/service.ts';
import {
  createOrganisation,
  loginToken,
  solveCaptcha,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
} from '../helpers.ts';
import { startSmtpSink } from '../smtp-sink.ts';

/** The recovery token out of a received mail (quoted-printable soft breaks undone). */
function tokenFrom(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = text.match(/\/restore\?token=([A-Za-z0-9_-]+)/);
  assert.ok(m, `no link in mail:\n${raw}`);
  return m[1];
}

describe('password recovery over real SMTP', () => {
  let s: TestServer;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  before(async () => {
    sink = await startSmtpSink();
    s = await startTestServer({ realMailer: true, env: { SMTP_URL: sink.url } });
  });
  after(async () => {
    await s.close();
    await sink.close();
  });
  /** A recovery request as the restore page sends it: the e-mail and a solved captcha. */
  const ask = async (email: string) =>
    s.api.post('/api/auth/recovery', { email, captcha: await solveCaptcha(s.api) });

  test('unknown e-mail: Specified email not found', async () => {
    const res = await ask('nobody@nowhere.test');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'emailNotFoundException');
    assert.equal(res.body.error.message, 'Specified email not found');
    const bad = await s.api.post('/api/auth/recovery', { email: 'nope', captcha: await solveCaptcha(s.api) });
    assert.equal(bad.body.error.fields.email, 'Invalid email format');
  });

  test('link by mail sets a new password once, and revokes old tokens', async () => {
    const org = await createOrganisation(s);
    const res = await ask(org.admin.email);
    assert.equal(res.status, 200);
    assert.equal(res.body.entity.email, org.admin.email);
    const mail = sink.mails.find((m) => m.to.includes(org.admin.email));
    assert.ok(mail, 'the mail arrived at the SMTP server');
    const token = tokenFrom(mail.raw);
    assert.equal((await s.api.get(`/api/auth/recovery/${token}`)).status, 200);

    const weak = await s.api.post('/api/auth/recovery/reset', {
      token,
      password: 'weak',
      repeatPassword: 'weak',
    });
    assert.equal(weak.body.error.fields.password, 'Invalid password format');
    const mismatch = await s.api.post('/api/auth/recovery/reset', {
      token,
      password: 'N3w-pass!!',
      repeatPassword: 'x',
    });
    assert.equal(mismatch.body.error.fields.repeatPassword, 'Passwords do not match');

    const ok = await s.api.post('/api/auth/recovery/reset', {
      token,
      password: 'N3w-pass!!',
      repeatPassword: 'N3w-pass!!',
    });
    assert.equal(ok.status, 200);
    assert.equal((await org.admin.api.get('/api/auth/user')).status, 401);
    await loginToken(s.api, org.admin.email, 'N3w-pass!!');
    assert.equal(
      (await s.api.post('/api/auth/login', { email: org.admin.email, password: TEST_PASSWORD })).status,
      401,
    );

    const again = await s.api.post('/api/auth/recovery/reset', {
      token,
      password: 'An0ther-pass!',
      repeatPassword: 'An0ther-pass!',
    });
    assert.equal(again.body.code, 'recoveryLinkExpiredException');
  });

  test('an expired link gives the outdated message', async () => {
    const org = await createOrganisation(s);
    await ask(org.admin.email);
    const token = tokenFrom(sink.mails.filter((m) => m.to.includes(org.admin.email)).at(-1)!.raw);
    s.clock.advance(61 * 60_000);
    const check = await s.api.get(`/api/auth/recovery/${token}`);
    assert.equal(check.status, 400);
    assert.equal(check.body.code, 'recoveryLinkExpiredException');
    assert.equal(
      check.body.error.message,
      'The recovery link is outdated and does not work. Try again recovery attempt.',
    );
    const reset = await s.api.post('/api/auth/recovery/reset', {
      token,
      password: 'N3w-pass!!',
      repeatPassword: 'N3w-pass!!',
    });
    assert.equal(reset.body.code, 'recoveryLinkExpiredException');
    await loginToken(s.api, org.admin.email, TEST_PASSWORD);
  });

  test('recovery requests are rate-limited', async () => {
    const org = await createOrganisation(s);
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await ask(org.admin.email)).status);
    assert.deepEqual(codes, [200, 200, 200, 200, 200, 429]);
  });
});

/** Issue 29: a link holds only for the password it was issued under, and only the newest link holds. */
describe('recovery links die with the password', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const link = async (email: string) => {
    const res = await s.api.post('/api/auth/recovery', { email, captcha: await solveCaptcha(s.api) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const m = [...s.mails]
      .reverse()
      .find((x) => x.to === email)
      ?.text.match(/token=([^\s]+)/);
    assert.ok(m, 'the mail carries the link');
    return decodeURIComponent(m[1]);
  };
  const reset = (token: string, password: string) =>
    s.api.post('/api/auth/recovery/reset', { token, password, repeatPassword: password });
  const expired = async (token: string) => {
    assert.equal((await s.api.get(`/api/auth/recovery/${token}`)).body.code, 'recoveryLinkExpiredException');
    const res = await reset(token, 'Att4cker-pass!');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'recoveryLinkExpiredException');
  };

  test('a newer link supersedes the older one, and a reset with it leaves the older one dead', async () => {
    const org = await createOrganisation(s);
    const older = await link(org.admin.email);
    const newer = await link(org.admin.email);
    assert.equal((await s.api.get(`/api/auth/recovery/${newer}`)).status, 200);
    await expired(older);
    assert.equal((await reset(newer, 'N3w-pass!!')).status, 200);
    await expired(older);
    await expired(newer);
    await loginToken(s.api, org.admin.email, 'N3w-pass!!');
  });

  test('a link issued before the owner changes the password in the profile dies', async () => {
    const org = await createOrganisation(s);
    const token = await link(org.admin.email);
    const change = await org.admin.api.post('/api/auth/acc/passwordChange', {
      oldPassword: TEST_PASSWORD,
      password: 'Own-n3w-pass!',
      repeatPassword: 'Own-n3w-pass!',
    });
    assert.equal(change.status, 200);
    await expired(token);
    await loginToken(s.api, org.admin.email, 'Own-n3w-pass!');
  });

  test('a link issued before an administrator sets the password dies', async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    const token = await link(op.email);
    const set = await org.admin.api.patch(`/api/users/${op.id}`, {
      password: 'Adm1n-set-pass!',
      repeatPassword: 'Adm1n-set-pass!',
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await expired(token);
    await loginToken(s.api, op.email, 'Adm1n-set-pass!');
  });
});

/** Issue 29: whether an e-mail exists is told only to a request with the captcha proof, and few per address. */
describe('recovery requests need the captcha proof and are limited per address', () => {
  let s: TestServer;
  let n = 0;
  before(async () => {
    s = await startTestServer({ env: { TRUST_PROXY: 'true', CAPTCHA_MAX_NUMBER: '2000' } });
  });
  after(() => s.close());
  const ask = (body: Record<string, unknown>, from = `198.51.100.${++n}`) =>
    s.api.call('POST', '/api/auth/recovery', body, { 'x-forwarded-for': from });

  test('without a valid proof: invalid captcha, and neither a 200 nor a 404 tells the e-mail exists', async () => {
    const org = await createOrganisation(s);
    const proof = await solveCaptcha(s.api);
    const forged = JSON.parse(Buffer.from(proof, 'base64').toString());
    forged.number += 1;
    for (const email of [org.admin.email, 'nobody@nowhere.test']) {
      for (const captcha of [
        undefined,
        '',
        'garbage',
        Buffer.from(JSON.stringify(forged)).toString('base64'),
      ]) {
        const res = await ask({ email, captcha });
        assert.equal(res.status, 400, `${email} ${captcha}`);
        assert.equal(res.body.code, 'invalidCaptchaException');
        assert.equal(res.body.error.message, 'invalid captcha');
      }
    }
    assert.equal(s.mails.length, 0, 'no mail without a proof');
    // With one: §8 'Specified email not found', or the link. A proof is good once.
    const unknown = await ask({ email: 'nobody@nowhere.test', captcha: proof });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'emailNotFoundException');
    assert.equal(unknown.body.error.message, 'Specified email not found');
    const replayed = await ask({ email: org.admin.email, captcha: proof });
    assert.equal(replayed.body.code, 'invalidCaptchaException');
    const known = await ask({ email: org.admin.email, captcha: await solveCaptcha(s.api) });
    assert.equal(known.status, 200);
    assert.equal(known.body.entity.email, org.admin.email);
  });

  test('one address is limited across e-mails (429 with Retry-After); another address is not', async () => {
    const from = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 0; i < RECOVERY_IP_LIMIT.max; i++) {
      const res = await ask({ email: `probe-${i}@nowhere.test`, captcha: await solveCaptcha(s.api) }, from);
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, new Array(RECOVERY_IP_LIMIT.max).fill(404));
    const over = await s.api.call(
      'POST',
      '/api/auth/recovery',
      { email: 'probe-x@nowhere.test', captcha: await solveCaptcha(s.api) },
      { 'x-forwarded-for': from },
    );
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'tooManyRequestsException');
    assert.ok(Number(over.headers.get('retry-after')) > 0, 'Retry-After says how long to wait');
    const other = await ask({ email: 'probe-x@nowhere.test', captcha: await solveCaptcha(s.api) });
    assert.equal(other.status, 404);
    s.clock.advance(RECOVERY_IP_LIMIT.windowMs + 1000);
    const later = await ask({ email: 'probe-y@nowhere.test', captcha: await solveCaptcha(s.api) }, from);
    assert.equal(later.status, 404);
  });
});
