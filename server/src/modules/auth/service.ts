import type { CurrentUserDto, LoginResult } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { decryptSecret, encryptSecret, hashToken, randomToken } from '../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { assertUnder, hit, type Limit } from '../../lib/rate-limit.ts';
import { presentUser } from '../users/presenter.ts';
import { getUser, revokeSessions } from '../users/service.ts';
import * as Q from './queries.ts';
import { assertTotp, newTotpSecret, totpEnrolment } from './totp.ts';

const MINUTE = 60_000;
/** Failed logins per e-mail and per client address; successes do not count. */
export const LOGIN_LIMIT: Limit = { max: 10, windowMs: 15 * MINUTE };
const LOGIN_IP_LIMIT: Limit = { max: 100, windowMs: 15 * MINUTE };
const TWO_FACTOR_ATTEMPTS = 5;
const TWO_FACTOR_TTL = 5 * MINUTE;
export const RECOVERY_TTL = 60 * MINUTE;
const RECOVERY_LIMIT: Limit = { max: 5, windowMs: 15 * MINUTE };
const RECOVERY_IP_LIMIT: Limit = { max: 50, windowMs: 15 * MINUTE };

// A real hash to compare against when the e-mail is unknown, so timing does not reveal which e-mails exist.
const dummyHash = hashPassword('not-a-real-password-Aa1!');

async function openSession(app: AppContext, user: { id: string; organisation_id: string }) {
  const token = randomToken();
  await app.db.tx((q) =>
    Q.insertSession(q, {
      organisationId: user.organisation_id,
      userId: user.id,
      tokenHash: hashToken(token),
      now: app.clock.now(),
    }),
  );
  return token;
}

/** Step one of login: a token, or a short-lived ticket when the user has a second factor. */
export async function login(
  app: AppContext,
  email: string,
  password: string,
  ip: string,
): Promise<LoginResult> {
  const now = app.clock.now();
  const keys = [`login:email:${email.toLowerCase()}`];
  await assertUnder(app.db, keys, LOGIN_LIMIT, now);
  await assertUnder(app.db, [`login:ip:${ip}`], LOGIN_IP_LIMIT, now);
  const user = await Q.credentialsByEmail(app.db, email.toLowerCase());
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash), password);
  if (!user || !ok || !user.active || !user.org_active) {
    await hit(app.db, keys[0], LOGIN_LIMIT, now);
    await hit(app.db, `login:ip:${ip}`, LOGIN_IP_LIMIT, now);
    throw new AppError('invalidCredentialsException');
  }
  if (user.totp_enabled) {
    const ticket = randomToken();
    await Q.insertTicket(app.db, {
      organisationId: user.organisation_id,
      userId: user.id,
      kind: 'two_factor',
      tokenHash: hashToken(ticket),
      expiresAt: new Date(now.getTime() + TWO_FACTOR_TTL),
    });
    return { twoFactorRequired: true, ticket };
  }
  return { token: await openSession(app, user) };
}

/** Step two: the ticket of step one and a current TOTP code; a ticket allows a few tries, then login starts over. */
export async function loginTwoFactor(
  app: AppContext,
  ticket: string,
  code: string,
): Promise<{ token: string }> {
  const now = app.clock.now();
  const outcome = await app.db.tx(async (q) => {
    const t = await Q.findTicket(q, 'two_factor', hashToken(ticket));
    if (!t || t.used_at || new Date(t.expires_at) <= now || t.attempts >= TWO_FACTOR_ATTEMPTS) {
      return { error: new AppError('loginTicketExpiredException') };
    }
    const user = await Q.credentialsById(q, t.user_id);
    if (!user?.active || !user.org_active || !user.totp_secret)
      return { error: new AppError('invalidCredentialsException') };
    try {
      assertTotp(decryptSecret(app.config.secretKey, user.totp_secret), code);
    } catch (err) {
      // The failed attempt must be counted even though the request fails, so it is committed, not rolled back.
      await Q.countTicketAttempt(q, t.id);
      return { error: err as AppError };
    }
    await Q.useTicket(q, t.id, now);
    return { user };
  });
  if ('error' in outcome) throw outcome.error;
  return { token: await openSession(app, outcome.user) };
}

/** The §7 identity answer: the user, their role's rights and the organisation's plan options. */
export async function currentUser(
  app: AppContext,
  auth: AuthContext,
  pwa?: boolean,
): Promise<CurrentUserDto> {
  if (pwa !== undefined) await Q.markPwa(app.db, auth.sessionId, pwa);
  const user = presentUser(await getUser(app, auth.organisationId, auth.userId));
  const organisation = await Q.organisationOf(app.db, auth.organisationId);
  return { ...user, rights: [...auth.rights], options: [...auth.options], organisation };
}

/** Starts 2FA enrolment: a new secret kept pending until a code confirms it. */
export async function generateTwoFactor(app: AppContext, auth: AuthContext) {
  const user = await Q.credentialsById(app.db, auth.userId);
  if (!user) throw new AppError('accountNotFoundException');
  if (user.totp_enabled) throw new AppError('totpAlreadyEnabledException');
  const secret = newTotpSecret();
  await Q.setTotp(app.db, auth.userId, { pending: encryptSecret(app.config.secretKey, secret) });
  return totpEnrolment(secret, user.email);
}

/** Turns 2FA on (confirming the pending secret) or off (with a code from the active one). */
export async function toggleTwoFactor(app: AppContext, auth: AuthContext, enabled: boolean, code: string) {
  const user = await Q.credentialsById(app.db, auth.userId);
  if (!user) throw new AppError('accountNotFoundException');
  const secretKey = app.config.secretKey;
  if (enabled) {
    if (user.totp_enabled) throw new AppError('totpAlreadyEnabledException');
    if (!user.totp_pending_secret) throw new AppError('totpNotGeneratedException');
    assertTotp(decryptSecret(secretKey, user.totp_pending_secret), code);
    await Q.setTotp(app.db, auth.userId, { pending: null, secret: user.totp_pending_secret, enabled: true });
  } else {
    if (!user.totp_enabled || !user.totp_secret) throw new AppError('totpNotEnabledException');
    assertTotp(decryptSecret(secretKey, user.totp_secret), code);
    await Q.setTotp(app.db, auth.userId, { secret: null, enabled: false });
  }
  return { enabled };
}

/** Changes the caller's password: every token of the user is revoked and a fresh one returned for this tab. */
export async function changePassword(
  app: AppContext,
  auth: AuthContext,
  oldPassword: string,
  password: string,
) {
  const user = await Q.credentialsById(app.db, auth.userId);
  if (!user || !(await verifyPassword(user.password_hash, oldPassword))) {
    throw new AppError('wrongCurrentPasswordException', { oldPassword: 'Password specified incorrectly' });
  }
  const hash = await hashPassword(password);
  await app.db.tx(async (q) => {
    await Q.setPassword(q, auth.userId, hash);
    await revokeSessions(q, auth.userId);
  });
  return { token: await openSession(app, user) };
}

/** Revokes one token of the caller (the given one, or the one used for this call). */
export async function logout(
  app: AppContext,
  auth: AuthContext,
  token: string | undefined,
  usedToken: string,
) {
  await Q.revokeSessionByHash(app.db, auth.userId, hashToken(token || usedToken));
}

/** Sends a single-use recovery link that expires after an hour. */
export async function requestRecovery(app: AppContext, email: string, ip: string) {
  const now = app.clock.now();
  const key = `recovery:email:${email.toLowerCase()}`;
  await assertUnder(app.db, [key], RECOVERY_LIMIT, now);
  await assertUnder(app.db, [`recovery:ip:${ip}`], RECOVERY_IP_LIMIT, now);
  await hit(app.db, key, RECOVERY_LIMIT, now);
  await hit(app.db, `recovery:ip:${ip}`, RECOVERY_IP_LIMIT, now);
  const user = await Q.credentialsByEmail(app.db, email.toLowerCase());
  if (!user?.active) throw new AppError('emailNotFoundException', { email: 'Specified email not found' });
  const token = randomToken();
  await Q.insertTicket(app.db, {
    organisationId: user.organisation_id,
    userId: user.id,
    kind: 'recovery',
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + RECOVERY_TTL),
  });
  const link = `${app.config.publicUrl}/restore?token=${encodeURIComponent(token)}`;
  await app.mailer.send({
    to: user.email,
    subject: 'SmartConnect password recovery',
    text: `To set a new password, open this link within an hour:\n${link}\n\nIf you did not ask for it, ignore this message.`,
  });
  return { email: user.email };
}

async function liveRecoveryTicket(app: AppContext, q: Parameters<typeof Q.findTicket>[0], token: string) {
  const t = await Q.findTicket(q, 'recovery', hashToken(token));
  if (!t || t.used_at || new Date(t.expires_at) <= app.clock.now())
    throw new AppError('recoveryLinkExpiredException');
  return t;
}

export async function checkRecovery(app: AppContext, token: string) {
  await liveRecoveryTicket(app, app.db, token);
  return { valid: true };
}

/** Sets a new password from a live recovery link, spends the link and revokes every token of the user. */
export async function resetPassword(app: AppContext, token: string, password: string) {
  const hash = await hashPassword(password);
  await app.db.tx(async (q) => {
    const t = await liveRecoveryTicket(app, q, token);
    await Q.useTicket(q, t.id, app.clock.now());
    await Q.setPassword(q, t.user_id, hash);
    await revokeSessions(q, t.user_id);
  });
  return { reset: true };
}
