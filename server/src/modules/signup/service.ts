import { randomInt } from 'node:crypto';
import { PLAN_OPTIONS, type SignupStartBody, type SignupState, toE164 } from '@smartconnect/contracts';
import { type AppContext, stateSlot } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import { hashPassword } from '../../lib/password.ts';
import { hit, type Limit } from '../../lib/rate-limit.ts';
import { openSession } from '../auth/service.ts';
import { createOrganisationWithAdmin } from '../organisations/create.ts';
import { altchaProvider, type CaptchaProvider } from './captcha.ts';
import { firstFree, loginFromCompany } from './login.ts';
import * as Q from './queries.ts';
import { type SmsGateway, smsGatewayFromEnv } from './sms.ts';
import { codeMail, codeSms, welcomeMail } from './texts.ts';

const MINUTE = 60_000;
/** A code works for 10 minutes and 5 wrong tries; a new one may be asked for after a minute, 5 per stage. */
export const SIGNUP_RULES = {
  codeTtlMs: 10 * MINUTE,
  codeAttempts: 5,
  resendAfterMs: MINUTE,
  codesPerStage: 5,
  /** A registration left unfinished this long is gone. */
  registrationTtlMs: 24 * 60 * MINUTE,
} as const;
/** New registrations per address, and per e-mail or phone across addresses. */
export const SIGNUP_IP_LIMIT: Limit = { max: 10, windowMs: 60 * MINUTE };
export const SIGNUP_CONTACT_LIMIT: Limit = { max: 3, windowMs: 60 * MINUTE };
/** SMS to one number (E.164) across all its registrations and resends: one registration's codes per stage. */
export const SIGNUP_SMS_LIMIT: Limit = { max: 5, windowMs: 60 * MINUTE };

type Start = Omit<SignupStartBody, 'consent' | 'language'> & { language: 'eng' | 'rus' };

const SERVICES = stateSlot<{ captcha: CaptchaProvider; sms: SmsGateway }>('signup.services', (app) => ({
  captcha: altchaProvider(
    `${app.config.secretKey}:captcha`,
    Number(app.config.env.CAPTCHA_MAX_NUMBER) || 50_000,
  ),
  sms: smsGatewayFromEnv(app.config.env, app.log),
}));
/** The captcha provider and SMS gateway the environment chose (CAPTCHA_*, SMS_*), one per server. */
export const signupServices = (app: AppContext) => app.state.of(app, SERVICES);

const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
const hashCode = (app: AppContext, id: string, code: string) =>
  hashToken(`${app.config.secretKey}:${id}:${code}`);
const maskPhone = (phone: string) =>
  phone.slice(0, 2) + '*'.repeat(Math.max(0, phone.length - 6)) + phone.slice(-4);

/** Counts one request against each key; past any limit, §8 'too many registration requests' with the wait. */
async function limit(app: AppContext, keys: [string, Limit][], now: Date) {
  for (const [key, l] of keys) {
    if ((await hit(app.db, key, l, now)) > l.max) {
      throw new AppError('tooManyRegistrationRequestsException', undefined, {
        retryAfterSeconds: Math.ceil(l.windowMs / 1000),
      });
    }
  }
}

function present(row: Q.SignupRow, token: string, session: string | null = null): SignupState {
  const resendAt = row.code_sent_at
    ? new Date(row.code_sent_at.getTime() + SIGNUP_RULES.resendAfterMs)
    : null;
  return {
    token,
    stage: row.stage,
    email: row.email,
    phone: maskPhone(row.phone),
    codeExpiresAt: row.stage === 'done' ? null : (row.code_expires_at?.toISOString() ?? null),
    resendAt: row.stage === 'done' ? null : (resendAt?.toISOString() ?? null),
    session,
    organisationLogin: row.organisation_login,
  };
}

/** The registration of a token, if it is still alive; else §8 'registration error'. */
async function live(app: AppContext, token: string, now: Date) {
  const row = await Q.findSignup(app.db, hashToken(token));
  if (!row || row.expires_at <= now)
    throw new AppError('registrationException', undefined, { reason: 'expired' });
  return row;
}

async function sendCode(app: AppContext, row: Q.SignupRow, stage: 'email' | 'phone', code: string) {
  if (stage === 'email') return app.mailer.send(codeMail(row.language, row.email, code));
  // Counted per number, however it was written, before anything is sent (SMS pumping: issue 29).
  const phone = toE164(row.phone);
  await limit(app, [[`signup:sms:${phone}`, SIGNUP_SMS_LIMIT]], app.clock.now());
  await signupServices(app).sms.send(phone, codeSms(row.language, code));
}

export async function challenge(app: AppContext) {
  return signupServices(app).captcha.challenge(app.clock.now());
}

/** Step one: a solved captcha, then the e-mail code is sent; the token resumes the registration. */
export async function startSignup(app: AppContext, input: Start, ip: string): Promise<SignupState> {
  const now = app.clock.now();
  // The schema gives E.164 already; the limit and the row must not depend on it.
  const body = { ...input, phone: toE164(input.phone) };
  await limit(
    app,
    [
      [`signup:ip:${ip}`, SIGNUP_IP_LIMIT],
      [`signup:email:${body.email}`, SIGNUP_CONTACT_LIMIT],
      [`signup:phone:${body.phone}`, SIGNUP_CONTACT_LIMIT],
    ],
    now,
  );
  if (!(await signupServices(app).captcha.verify(app.db, body.captcha, now)))
    throw new AppError('invalidCaptchaException');
  if (await Q.emailTaken(app.db, body.email)) throw new AppError('emailAlreadyExistsException');
  const token = randomToken();
  const code = newCode();
  // The id goes into the code's hash, so it is known first.
  const id = crypto.randomUUID();
  const row = await Q.insertSignup(app.db, {
    ...body,
    id,
    tokenHash: hashToken(token),
    codeHash: hashCode(app, id, code),
    codeExpiresAt: new Date(now.getTime() + SIGNUP_RULES.codeTtlMs),
    now,
    expiresAt: new Date(now.getTime() + SIGNUP_RULES.registrationTtlMs),
  });
  await sendCode(app, row, 'email', code);
  return present(row, token);
}

export async function signupState(app: AppContext, token: string): Promise<SignupState> {
  return present(await live(app, token, app.clock.now()), token);
}

/** Checks the current stage's code: the wrong stage, an expired or exhausted code, a wrong code (counted). */
async function checkCode(
  app: AppContext,
  row: Q.SignupRow,
  stage: 'email' | 'phone',
  code: string,
  now: Date,
) {
  if (row.stage !== stage) throw new AppError('wrongStageException', undefined, { stage: row.stage });
  const error = stage === 'email' ? 'invalidEmailCodeException' : 'invalidPhoneCodeException';
  if (!row.code_hash || !row.code_expires_at || row.code_expires_at <= now)
    throw new AppError(error, undefined, { reason: 'expired' });
  if (row.code_attempts >= SIGNUP_RULES.codeAttempts)
    throw new AppError(error, undefined, { reason: 'attempts' });
  if (hashCode(app, row.id, code) !== row.code_hash) {
    await Q.countAttempt(app.db, row.id);
    const left = SIGNUP_RULES.codeAttempts - row.code_attempts - 1;
    throw new AppError(error, undefined, { reason: left > 0 ? 'wrong' : 'attempts', attemptsLeft: left });
  }
}

/** Step two: the e-mail code; the SMS code is sent and the registration moves to the phone stage. */
export async function confirmEmail(app: AppContext, token: string, code: string): Promise<SignupState> {
  const now = app.clock.now();
  const row = await live(app, token, now);
  await checkCode(app, row, 'email', code, now);
  const sms = newCode();
  // Sent before the stage moves: a number the gateway refuses leaves the e-mail step as it was.
  await sendCode(app, row, 'phone', sms);
  const next = await Q.setCode(app.db, row.id, {
    stage: 'phone',
    fromStage: 'email',
    codeHash: hashCode(app, row.id, sms),
    codeExpiresAt: new Date(now.getTime() + SIGNUP_RULES.codeTtlMs),
    now,
  });
  if (!next) throw new AppError('wrongStageException');
  return present(next, token);
}

/** Step three: the SMS code; the organisation on its trial, its administrator and a signed-in session. */
export async function confirmPhone(app: AppContext, token: string, code: string): Promise<SignupState> {
  const now = app.clock.now();
  const row = await live(app, token, now);
  await checkCode(app, row, 'phone', code, now);
  const passwordHash = await hashPassword(randomToken());
  const done = await app.db.tx(async (q) => {
    if (app.db.kind === 'postgres') await q.query('select pg_advisory_xact_lock(4242019)');
    if (await Q.emailTaken(q, row.email)) throw new AppError('emailAlreadyExistsException');
    const base = loginFromCompany(row.company);
    const login = firstFree(base, await Q.loginsLike(q, base));
    const finished = await Q.finishSignup(q, row.id, login);
    if (!finished) throw new AppError('wrongStageException');
    const org = await createOrganisationWithAdmin(app, q, {
      login,
      name: row.company,
      adminEmail: row.email,
      adminName: row.language === 'rus' ? 'Администратор' : 'Administrator',
      // A user's phone in §3's form (79009009090): the sign-up's E.164 without its '+'.
      adminPhone: row.phone.replace(/^\+/, ''),
      passwordHash,
      language: row.language,
      options: PLAN_OPTIONS,
    });
    return {
      row: finished,
      organisationId: org.organisationId,
      userId: org.adminId,
      paidUntil: org.paidUntil,
    };
  });
  const session = await openSession(app, { id: done.userId, organisation_id: done.organisationId });
  await app.mailer.send(
    welcomeMail(row.language, row, done.row.organisation_login ?? '', done.paidUntil, app.config.publicUrl),
  );
  app.log.info({ event: 'signup.done', organisationId: done.organisationId }, 'sign-up finished');
  return present(done.row, token, session);
}

/** A new code for the current stage, at most once a minute and 5 times per stage. */
export async function resendCode(app: AppContext, token: string): Promise<SignupState> {
  const now = app.clock.now();
  const row = await live(app, token, now);
  if (row.stage === 'done') throw new AppError('wrongStageException', undefined, { stage: row.stage });
  const wait = row.code_sent_at ? row.code_sent_at.getTime() + SIGNUP_RULES.resendAfterMs - now.getTime() : 0;
  if (wait > 0)
    throw new AppError('tooManyRegistrationRequestsException', undefined, {
      retryAfterSeconds: Math.ceil(wait / 1000),
    });
  if (row.codes_sent >= SIGNUP_RULES.codesPerStage)
    throw new AppError('tooManyRegistrationRequestsException', undefined, {
      retryAfterSeconds: Math.ceil((row.expires_at.getTime() - now.getTime()) / 1000),
    });
  const code = newCode();
  await sendCode(app, row, row.stage, code);
  const next = await Q.setCode(app.db, row.id, {
    stage: row.stage,
    fromStage: row.stage,
    codeHash: hashCode(app, row.id, code),
    codeExpiresAt: new Date(now.getTime() + SIGNUP_RULES.codeTtlMs),
    now,
  });
  if (!next) throw new AppError('wrongStageException');
  return present(next, token);
}
