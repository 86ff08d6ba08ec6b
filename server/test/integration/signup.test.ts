import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { solveChallenge } from 'altcha-lib/v1';
import { SIGNUP_CONTACT_LIMIT, SIGNUP_IP_LIMIT } from '../../src/modules/signup/service.ts';
import { type FakeSmsRu, startFakeSmsRu } from '../fakes/smsru.ts';
import { startTestServer, type TestServer } from '../helpers.ts';

/** Self-service sign-up (§2.5, §8 Registration, §9 trial 7 days; issue 19) through HTTP, SMS through a fake SMS.ru. */
describe('sign-up', () => {
  let s: TestServer;
  let sms: FakeSmsRu;
  let n = 0;
  before(async () => {
    sms = await startFakeSmsRu();
    s = await startTestServer({
      env: {
        TRUST_PROXY: 'true',
        CAPTCHA_MAX_NUMBER: '2000',
        SMS_PROVIDER: 'smsru',
        SMS_API_URL: sms.baseUrl,
        SMS_API_KEY: sms.apiKey,
      },
    });
  });
  after(async () => {
    await s.close();
    await sms.close();
  });

  const ip = () => `203.0.113.${++n}`;
  const call = (method: string, path: string, body: unknown, address: string) =>
    s.api.call(method, path, body, { 'x-forwarded-for': address });

  async function solved(): Promise<string> {
    const c = (await s.api.get('/api/signup/challenge')).body.entity;
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    assert.ok(solution);
    const payload = {
      algorithm: c.algorithm,
      challenge: c.challenge,
      number: solution.number,
      salt: c.salt,
      signature: c.signature,
    };
    return Buffer.from(JSON.stringify(payload)).toString('base64');
  }
  const person = () => {
    const k = `${Date.now().toString(36)}${++n}`;
    return { email: `Owner-${k}@Signup.test`, phone: `+7 (900) ${String(1000000 + n).slice(-7)}` };
  };
  async function start(over: Record<string, unknown> = {}, address = ip()) {
    const body = { company: 'Horns & Hooves', ...person(), consent: true, captcha: await solved(), ...over };
    return call('POST', '/api/signup', body, address);
  }
  const mailCode = (to: string) => {
    const mail = [...s.mails].reverse().find((m) => m.to === to.toLowerCase());
    return /(\d{6})/.exec(mail?.text ?? '')?.[1] ?? '';
  };
  const smsCode = (phone: string) => {
    const to = phone.replace(/\D/g, '');
    const m = [...sms.sent].reverse().find((x) => x.to === to);
    return /(\d{6})/.exec(m?.msg ?? '')?.[1] ?? '';
  };
  const code = (token: string, stage: 'email' | 'phone', c: string, address = ip()) =>
    call('POST', `/api/signup/${token}/${stage}-code`, { code: c }, address);

  test('company, e-mail, phone, captcha, both codes: a trial organisation whose administrator is signed in', async () => {
    const who = person();
    const res = await start({ company: 'ООО «Ромашка»', ...who, language: 'rus' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const st = res.body.entity;
    assert.equal(st.stage, 'email');
    assert.equal(st.email, who.email.toLowerCase());
    assert.match(st.phone, /^\+7\*+\d{4}$/);
    assert.equal(st.session, null);
    const mail = s.mails.at(-1);
    assert.equal(mail?.subject, 'SmartConnect: код подтверждения');
    const afterEmail = await code(st.token, 'email', mailCode(who.email));
    assert.equal(afterEmail.status, 200, JSON.stringify(afterEmail.body));
    assert.equal(afterEmail.body.entity.stage, 'phone');
    assert.match(sms.sent.at(-1)?.msg ?? '', /код подтверждения \d{6}/);
    // Resumed from the link: the same state.
    const resumed = await s.api.get(`/api/signup/${st.token}`);
    assert.equal(resumed.body.entity.stage, 'phone');
    const done = await code(st.token, 'phone', smsCode(who.phone));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const d = done.body.entity;
    assert.equal(d.stage, 'done');
    assert.equal(d.organisationLogin, 'ooo-romashka');
    assert.ok(d.session);
    // Signed in as the organisation's administrator: an authenticated API works; the trial is 7 days counting today
    // (paid_until is the last paid day, as the daily charge and the staff path read it: today + 6).
    const admin = s.api.as(d.session);
    const me = await admin.get('/api/auth/user');
    assert.equal(me.status, 200);
    assert.equal(me.body.entity.email, who.email.toLowerCase());
    assert.equal(me.body.entity.role.builtIn, 'ADMINISTRATOR');
    const [org] = await s.db.query<{ name: string; paid_until: string; language: string }>(
      `select name, to_char(paid_until, 'YYYY-MM-DD') as paid_until, language from organisations where login = $1`,
      ['ooo-romashka'],
    );
    const trialEnd = new Date(s.clock.now().getTime() + 6 * 86_400_000).toISOString().slice(0, 10);
    assert.deepEqual(org, { name: 'ООО «Ромашка»', paid_until: trialEnd, language: 'rus' });
    // The administrator creates a user at once.
    const roles = (await admin.get('/api/roles')).body.entity.items as {
      id: string;
      builtIn: string | null;
    }[];
    const operator = roles.find((r) => r.builtIn === 'OPERATOR');
    const created = await admin.post('/api/users', {
      name: 'First Operator',
      email: `op-${Date.now()}@signup.test`,
      roleId: operator?.id,
      password: 'Passw0rd!',
      repeatPassword: 'Passw0rd!',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.match(s.mails.at(-1)?.text ?? '', /\/restore/);
    // Done is done: no code and no resend take it anywhere.
    assert.equal((await code(st.token, 'phone', '123456')).body.code, 'wrongStageException');
    assert.equal(
      (await call('POST', `/api/signup/${st.token}/resend`, {}, ip())).body.code,
      'wrongStageException',
    );
    // The same company name again gets the next free login; the same e-mail cannot sign up twice.
    const again = await start({ email: who.email });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'emailAlreadyExistsException');
  });

  test('the same company name twice: the second organisation gets the next free login', async () => {
    const logins: string[] = [];
    for (let i = 0; i < 2; i++) {
      const who = person();
      const st = (await start({ company: 'Twin Shop', ...who })).body.entity;
      await code(st.token, 'email', mailCode(who.email));
      logins.push((await code(st.token, 'phone', smsCode(who.phone))).body.entity.organisationLogin);
    }
    assert.deepEqual(logins, ['twin-shop', 'twin-shop-2']);
  });

  test('§8 invalid captcha: missing, garbage, wrong number, expired, replayed', async () => {
    const missing = await start({ captcha: '' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'invalidCaptchaException');
    assert.equal(missing.body.error.message, 'invalid captcha');
    for (const captcha of ['garbage', Buffer.from('{"number":1}').toString('base64')]) {
      assert.equal((await start({ captcha })).body.code, 'invalidCaptchaException');
    }
    const good = JSON.parse(Buffer.from(await solved(), 'base64').toString());
    const wrong = Buffer.from(JSON.stringify({ ...good, number: good.number + 1 })).toString('base64');
    assert.equal((await start({ captcha: wrong })).body.code, 'invalidCaptchaException');
    const forged = Buffer.from(JSON.stringify({ ...good, signature: 'f'.repeat(64) })).toString('base64');
    assert.equal((await start({ captcha: forged })).body.code, 'invalidCaptchaException');
    const stale = await solved();
    s.clock.advance(11 * 60_000);
    assert.equal((await start({ captcha: stale })).body.code, 'invalidCaptchaException');
    const once = await solved();
    assert.equal((await start({ captcha: once })).status, 200);
    const replay = await start({ captcha: once });
    assert.equal(replay.status, 400);
    assert.equal(replay.body.code, 'invalidCaptchaException');
  });

  test('§8 invalid phone: a malformed number, and one the SMS gateway refuses', async () => {
    const bad = await start({ phone: 'call me' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'invalidPhoneException');
    assert.equal(bad.body.error.message, 'invalid phone');
    assert.equal(bad.body.error.fields.phone, M.phoneIncorrect);
    const who = { ...person(), phone: '+1 555 010 9999' };
    const st = (await start(who)).body.entity;
    const refused = await code(st.token, 'email', mailCode(who.email));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'invalidPhoneException');
    // The e-mail step stays as it was.
    assert.equal((await s.api.get(`/api/signup/${st.token}`)).body.entity.stage, 'email');
  });

  test('§5: consent is required, the company and e-mail are checked', async () => {
    const res = await start({ consent: false, company: ' ', email: 'nope' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validationException');
    assert.deepEqual(res.body.error.fields, {
      consent: M.consentRequired,
      company: M.organisationNameIncorrect,
      email: M.emailIncorrect,
    });
  });

  test('§8 wrong stage: the phone code before the e-mail code', async () => {
    const st = (await start()).body.entity;
    const res = await code(st.token, 'phone', '123456');
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'wrongStageException');
    assert.equal(res.body.error.message, 'wrong stage');
  });

  test('codes: wrong ones are counted (5 tries), a new code works, codes expire after 10 minutes', async () => {
    const who = person();
    const st = (await start(who)).body.entity;
    const right = mailCode(who.email);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await code(st.token, 'email', wrong);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'invalidEmailCodeException');
    }
    // Spent: even the right code no longer works.
    const spent = await code(st.token, 'email', right);
    assert.equal(spent.body.code, 'invalidEmailCodeException');
    assert.equal(spent.body.error.details.reason, 'attempts');
    // A resend at once is refused with the wait; after a minute a new code comes and works.
    const early = await call('POST', `/api/signup/${st.token}/resend`, {}, ip());
    assert.equal(early.status, 429);
    assert.equal(early.body.code, 'tooManyRegistrationRequestsException');
    assert.ok(Number(early.body.error.details.retryAfterSeconds) <= 60);
    s.clock.advance(61_000);
    assert.equal((await call('POST', `/api/signup/${st.token}/resend`, {}, ip())).status, 200);
    assert.equal((await code(st.token, 'email', mailCode(who.email))).body.entity.stage, 'phone');
    // The SMS code: a wrong one is §8 'invalid phone code'; after 10 minutes the right one has expired.
    const wrongSms = await code(st.token, 'phone', smsCode(who.phone) === '000000' ? '111111' : '000000');
    assert.equal(wrongSms.body.code, 'invalidPhoneCodeException');
    assert.equal(wrongSms.body.error.message, 'invalid phone code');
    s.clock.advance(10 * 60_000 + 1000);
    const expired = await code(st.token, 'phone', smsCode(who.phone));
    assert.equal(expired.body.code, 'invalidPhoneCodeException');
    assert.equal(expired.body.error.details.reason, 'expired');
    const resent = await call('POST', `/api/signup/${st.token}/resend`, {}, ip());
    assert.equal(resent.status, 200);
    assert.equal((await code(st.token, 'phone', smsCode(who.phone))).body.entity.stage, 'done');
  });

  test('one number written three ways is one number: 9 sign-ups send no more SMS than the per-phone limit', async () => {
    const digits = `7916${String(1000000 + ++n).slice(-7)}`;
    const ways = [
      `+${digits}`,
      digits,
      `8 (${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7, 9)}-${digits.slice(9)}`,
    ];
    const sentBefore = sms.sent.filter((m) => m.to === digits).length;
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const who = { ...person(), phone: ways[i % 3] };
      const res = await start(who);
      statuses.push(res.status);
      if (res.status !== 200) {
        assert.equal(res.body.code, 'tooManyRegistrationRequestsException');
        continue;
      }
      assert.match(res.body.entity.phone, /^\+7\*+\d{4}$/, 'masked from the E.164 form');
      // Each accepted registration gets to the SMS step (its e-mail code confirmed).
      const next = await code(res.body.entity.token, 'email', mailCode(who.email));
      assert.ok([200, 429].includes(next.status), JSON.stringify(next.body));
    }
    assert.equal(statuses.filter((x) => x === 200).length, SIGNUP_CONTACT_LIMIT.max);
    const texts = sms.sent.filter((m) => m.to === digits).length - sentBefore;
    assert.ok(texts <= SIGNUP_CONTACT_LIMIT.max, `${texts} SMS to one number`);
    assert.equal(sms.sent.filter((m) => /^8|^\+/.test(m.to) && m.to.endsWith(digits.slice(1))).length, 0);
    // Stored in one form, once per accepted registration.
    const stored = await s.app.db.query<{ id: string }>('select id from signups where phone = $1', [
      `+${digits}`,
    ]);
    assert.equal(stored.length, SIGNUP_CONTACT_LIMIT.max);
  });

  test('a registration expires after a day; an unknown token is §8 registration error', async () => {
    const st = (await start()).body.entity;
    s.clock.advance(24 * 60 * 60_000 + 1000);
    const res = await s.api.get(`/api/signup/${st.token}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'registrationException');
    assert.equal(res.body.error.message, 'registration error');
    assert.equal((await s.api.get(`/api/signup/${'x'.repeat(43)}`)).body.code, 'registrationException');
  });

  test('§8 too many registration requests from one address', async () => {
    const address = ip();
    for (let i = 0; i < SIGNUP_IP_LIMIT.max; i++) {
      const res = await start({ captcha: 'garbage' }, address);
      assert.equal(res.body.code, 'invalidCaptchaException');
    }
    const res = await start({}, address);
    assert.equal(res.status, 429);
    assert.equal(res.body.code, 'tooManyRegistrationRequestsException');
    assert.equal(res.body.error.message, 'too many registration requests');
  });
});
