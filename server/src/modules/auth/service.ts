import type { CurrentUserDto, LoginResult } from '@smartconnect/contracts';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { decryptSecret, encryptSecret, hashToken, randomToken } from '../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { type Limit, release, reserve } from '../../lib/rate-limit.ts';
import { withEvents } from '../../realtime/emit.ts';
import { eventCursor } from '../../realtime/routes.ts';
import { billingState } from '../billing/suspension.ts';
import { setPassword, setTotp } from '../users/account.ts';
import { presentUser } from '../users/presenter.ts';
import { announceAccess, getUser } from '../users/service.ts';
import { authCaptcha } from './captcha.ts';
import { isKnownDevice, knownDeviceCookie } from './known-device.ts';
import * as Q from './queries.ts';
import { assertTotp, newTotpSecret, totpEnrolment } from './totp.ts';

const MINUTE = 60_000;
/**
 * Failed sign-ins (successes give their hit back) are refused outright per address only: per account from one
 * address (the guesser is stopped, the owner elsewhere is not) and per address across accounts.
 */
export const LOGIN_LIMIT: Limit = { max: 10, windowMs: 15 * MINUTE };
const LOGIN_IP_LIMIT: Limit = { max: 100, windowMs: 15 * MINUTE };
/**
 * Per account across addresses nothing is refused outright, so a stranger cannot lock the owner out (issue 29):
 * past `after` failures (wrong passwords and wrong second-factor codes) in the window, a sign-in from an unknown
 * device needs the captcha proof and takes the account's next slot, which rises from `firstDelayMs`, doubling per
 * further failure, to `maxDelayMs`. A known device (the signed cookie of an earlier sign-in) keeps its normal path.
 */
export const LOGIN_THROTTLE = {
  after: 10,
  windowMs: 60 * MINUTE,
  firstDelayMs: 1000,
  maxDelayMs: 5 * MINUTE,
};
/** Wrong codes a second-step ticket takes before it dies and the password step must be done again. */
export const TWO_FACTOR_ATTEMPTS = 5;
/** Wrong codes of the 2FA toggle (a signed-in user) per user. */
export const TWO_FACTOR_LIMIT: Limit = { max: 10, windowMs: 15 * MINUTE };
const TWO_FACTOR_TTL = 5 * MINUTE;
export const RECOVERY_TTL = 60 * MINUTE;
const RECOVERY_LIMIT: Limit = { max: 5, windowMs: 15 * MINUTE };
/** Recovery requests per client address across every e-mail: what bounds probing which e-mails exist. */
export const RECOVERY_IP_LIMIT: Limit = { max: 20, windowMs: 60 * MINUTE };

// A real hash to compare against when the e-mail is unknown, so timing does not reveal which e-mails exist.
const dummyHash = hashPassword('not-a-real-password-Aa1!');

/** Who is signing in: the address and the request's Cookie header (the known-device cookie). */
export type LoginClient = { ip: string; cookie: string | undefined };
/** A completed sign-in's answer and the known-device cookie to set with it. */
export type Signed<T> = { result: T; deviceCookie?: string };

/** A new session (bearer token) of a user: what login hands out, also for a sign-up that has just finished. */
export async function openSession(app: AppContext, user: { id: string; organisation_id: string }) {
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

const throttleWindowStart = (now: Date) => new Date(now.getTime() - LOGIN_THROTTLE.windowMs);
const slotDelay = (failures: number) =>
  Math.min(
    LOGIN_THROTTLE.firstDelayMs * 2 ** Math.min(failures - LOGIN_THROTTLE.after, 30),
    LOGIN_THROTTLE.maxDelayMs,
  );

/**
 * An unknown device's way past a throttled account: a valid captcha proof (400 invalidCaptchaException without
 * one), then the account's next slot (429 with the seconds until it is free). Nothing for an account that is not
 * throttled. The proof comes first, so that only an attempt that paid for one moves the slot.
 */
async function passThrottle(app: AppContext, account: string, captcha: string | undefined, now: Date) {
  const state = await Q.loginThrottle(app.db, account, throttleWindowStart(now));
  if (!state || state.failures < LOGIN_THROTTLE.after) return;
  if (!captcha || !(await authCaptcha(app).verify(app.db, captcha, now)))
    throw new AppError('invalidCaptchaException', { captcha: M.captchaRequired });
  const until = new Date(now.getTime() + slotDelay(state.failures));
  if (await Q.claimLoginSlot(app.db, account, now, until)) return;
  const held = (await Q.loginThrottle(app.db, account, throttleWindowStart(now)))?.next_at ?? now;
  throw new AppError('tooManyRequestsException', undefined, {
    retryAfterSeconds: Math.max(1, Math.ceil((new Date(held).getTime() - now.getTime()) / 1000)),
  });
}

const recordFailure = (app: AppContext, account: string, now: Date) =>
  Q.recordLoginFailure(app.db, account, now, throttleWindowStart(now));

/** A session for a user who has signed in, and the refreshed known-device cookie of this browser. */
async function signedIn(
  app: AppContext,
  user: Q.Credentials,
  client: LoginClient,
): Promise<Signed<{ token: string }>> {
  const token = await openSession(app, user);
  return { result: { token }, deviceCookie: knownDeviceCookie(app, client.cookie, user, app.clock.now()) };
}

/** Step one of login: a token, or a short-lived ticket when the user has a second factor. */
export async function login(
  app: AppContext,
  input: { email: string; password: string; captcha?: string },
  client: LoginClient,
): Promise<Signed<LoginResult>> {
  const now = app.clock.now();
  const account = input.email.toLowerCase();
  const keys = [`login:account-ip:${account}:${client.ip}`, `login:ip:${client.ip}`];
  // Each attempt takes its hits first, so parallel attempts cannot slip under the limit; a success gives them back.
  await reserve(app.db, [keys[0]], LOGIN_LIMIT, now);
  await reserve(app.db, [keys[1]], LOGIN_IP_LIMIT, now);
  const user = await Q.credentialsByEmail(app.db, account);
  if (!user || !isKnownDevice(app, client.cookie, user, now))
    await passThrottle(app, account, input.captcha, now);
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash), input.password);
  if (!user || !ok || !user.active || !user.org_active) {
    await recordFailure(app, account, now);
    throw new AppError('invalidCredentialsException');
  }
  await release(app.db, keys);
  if (user.totp_enabled) {
    const ticket = randomToken();
    await Q.insertTicket(app.db, {
      organisationId: user.organisation_id,
      userId: user.id,
      kind: 'two_factor',
      tokenHash: hashToken(ticket),
      expiresAt: new Date(now.getTime() + TWO_FACTOR_TTL),
    });
    return { result: { twoFactorRequired: true, ticket } };
  }
  return signedIn(app, user, client);
}

/**
 * Step two: the ticket of step one and a current TOTP code. A wrong code counts as a failed sign-in of the account
 * (so new tickets from unknown devices come slower, behind the captcha), and a ticket dies after
 * TWO_FACTOR_ATTEMPTS wrong codes; the right code on a live ticket is never refused.
 */
export async function loginTwoFactor(
  app: AppContext,
  ticket: string,
  code: string | undefined,
  client: LoginClient,
): Promise<Signed<{ token: string }>> {
  const now = app.clock.now();
  const outcome = await app.db.tx(async (q) => {
    const t = await Q.findTicket(q, 'two_factor', hashToken(ticket));
    if (
      !t ||
      t.used_at ||
      !t.current_password ||
      new Date(t.expires_at) <= now ||
      t.attempts >= TWO_FACTOR_ATTEMPTS
    ) {
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
      return { error: err as AppError, wrong: user.email };
    }
    // Spent once: a second request racing with the same ticket finds it used.
    if (!(await Q.useTicket(q, t.id, now))) return { error: new AppError('loginTicketExpiredException') };
    return { user };
  });
  if ('error' in outcome) {
    if (outcome.wrong) await recordFailure(app, outcome.wrong.toLowerCase(), now);
    throw outcome.error;
  }
  return signedIn(app, outcome.user, client);
}

/** The §7 identity answer: the user, their role's rights and the organisation's plan options. */
export async function currentUser(
  app: AppContext,
  auth: AuthContext,
  pwa?: boolean,
): Promise<CurrentUserDto> {
  // Read first: whatever the page reads after this answer already reflects every event up to the cursor.
  const cursor = eventCursor(app);
  if (pwa !== undefined) await Q.markPwa(app.db, auth.sessionId, pwa);
  const user = presentUser(await getUser(app, auth.organisationId, auth.userId));
  const organisation = {
    ...(await Q.organisationOf(app.db, auth.organisationId)),
    billing: await billingState(app, auth.organisationId),
  };
  const rights = [...auth.rights];
  return {
    ...user,
    role: { ...user.role, rights },
    rights,
    options: [...auth.options],
    organisation,
    eventCursor: cursor,
  };
}

/** Starts 2FA enrolment: a new secret kept pending until a code confirms it. */
export async function generateTwoFactor(app: AppContext, auth: AuthContext) {
  const user = await Q.credentialsById(app.db, auth.userId);
  if (!user) throw new AppError('accountNotFoundException');
  if (user.totp_enabled) throw new AppError('totpAlreadyEnabledException');
  const secret = newTotpSecret();
  await setTotp(app.db, auth.userId, { pending: encryptSecret(app.config.secretKey, secret) });
  return totpEnrolment(secret, user.email);
}

/** Turns 2FA on (confirming the pending secret) or off (with a code from the active one). */
export async function toggleTwoFactor(
  app: AppContext,
  auth: AuthContext,
  enabled: boolean,
  code: string | undefined,
) {
  const user = await Q.credentialsById(app.db, auth.userId);
  if (!user) throw new AppError('accountNotFoundException');
  const secretKey = app.config.secretKey;
  if (enabled) {
    if (user.totp_enabled) throw new AppError('totpAlreadyEnabledException');
    if (!user.totp_pending_secret) throw new AppError('totpNotGeneratedException');
    await checkCode(app, auth.userId, decryptSecret(secretKey, user.totp_pending_secret), code);
    // A second factor guards the account from now on: every other session (perhaps a thief's) ends.
    await withEvents(app, async (q, emit) => {
      await setTotp(q, auth.userId, { pending: null, secret: user.totp_pending_secret, enabled: true });
      await Q.revokeUserSessions(q, auth.userId, auth.sessionId);
      await announceAccess({ q, emit }, auth.organisationId, { userIds: [auth.userId] }, auth.sessionId);
    });
  } else {
    if (!user.totp_enabled || !user.totp_secret) throw new AppError('totpNotEnabledException');
    await checkCode(app, auth.userId, decryptSecret(secretKey, user.totp_secret), code);
    await setTotp(app.db, auth.userId, { secret: null, enabled: false });
  }
  return { enabled };
}

/** A code for the 2FA toggle, counted against the user's wrong-code limit like the login step. */
async function checkCode(app: AppContext, userId: string, secret: string, code: string | undefined) {
  const keys = [`2fa:user:${userId}`];
  await reserve(app.db, keys, TWO_FACTOR_LIMIT, app.clock.now());
  assertTotp(secret, code);
  await release(app.db, keys);
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
    throw new AppError('wrongCurrentPasswordException', { oldPassword: M.passwordIncorrect });
  }
  const hash = await hashPassword(password);
  // Every instance closes the other sessions' sockets at once (issue 29). The caller's own session ends too, but its
  // tab is about to get the new token: its socket moves over (the 15 s revalidation closes it if nobody does).
  await withEvents(app, async (q, emit) => {
    await setPassword(q, auth.userId, hash);
    await Q.revokeUserSessions(q, auth.userId);
    await announceAccess({ q, emit }, auth.organisationId, { userIds: [auth.userId] }, auth.sessionId);
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
  // The session's sockets close at once on every instance (issue 29), not at the next revalidation.
  await withEvents(app, async (q, emit) => {
    const ended = await Q.revokeSessionByHash(q, auth.userId, hashToken(token || usedToken));
    if (ended.length)
      await announceAccess({ q, emit }, auth.organisationId, { userIds: [auth.userId] }, undefined, [
        ...ended.map((s) => s.id),
      ]);
  });
}

/**
 * Sends a single-use recovery link that expires after an hour; only with a solved captcha, and an unknown e-mail
 * answers §8 'Specified email not found' only to a request that carried one.
 */
export async function requestRecovery(app: AppContext, body: { email: string; captcha: string }, ip: string) {
  const now = app.clock.now();
  const email = body.email;
  // Per address across e-mails first, so probing costs the prober's own quota; per e-mail only once a proof is
  // shown, so a stranger without proofs cannot use up the owner's requests.
  await reserve(app.db, [`recovery:ip:${ip}`], RECOVERY_IP_LIMIT, now);
  if (!(await authCaptcha(app).verify(app.db, body.captcha, now)))
    throw new AppError('invalidCaptchaException', { captcha: M.captchaRequired });
  await reserve(app.db, [`recovery:email:${email.toLowerCase()}`], RECOVERY_LIMIT, now);
  const user = await Q.credentialsByEmail(app.db, email.toLowerCase());
  if (!user?.active) throw new AppError('emailNotFoundException', { email: M.emailNotFound });
  const token = await app.db.tx((q) =>
    issueRecoveryTicket(app, q, { userId: user.id, organisationId: user.organisation_id }, RECOVERY_TTL),
  );
  const link = `${app.config.publicUrl}/restore?token=${encodeURIComponent(token)}`;
  await app.mailer.send({
    to: user.email,
    subject: 'SmartConnect password recovery',
    text: `To set a new password, open this link within an hour:\n${link}\n\nIf you did not ask for it, ignore this message.`,
  });
  return { email: user.email };
}

/** How long an invitation (a new account's first-password link) lives. */
export const INVITATION_TTL = 7 * 24 * 60 * MINUTE;

/**
 * A new account's first password (organisations created by platform staff): a single-use link to the recovery
 * form, valid for INVITATION_TTL, written in the caller's transaction. Mail it with `mailInvitation` after commit.
 */
export async function createInvitation(
  app: AppContext,
  q: Parameters<typeof Q.insertTicket>[0],
  user: { id: string; organisationId: string },
): Promise<string> {
  const token = await issueRecoveryTicket(
    app,
    q,
    { userId: user.id, organisationId: user.organisationId },
    INVITATION_TTL,
  );
  return `${app.config.publicUrl}/restore?token=${encodeURIComponent(token)}`;
}

export async function mailInvitation(app: AppContext, to: string, organisation: string, link: string) {
  await app.mailer.send({
    to,
    subject: `SmartConnect: your organisation ${organisation}`,
    text: `An organisation "${organisation}" was created for you on SmartConnect.\nSet your password within 7 days:\n${link}\n`,
  });
}

/**
 * A new recovery link (or invitation) of a user; it supersedes every older one, and like them it holds only while
 * the password stays the one it was issued under (the ticket's stamp).
 */
async function issueRecoveryTicket(
  app: AppContext,
  q: Parameters<typeof Q.insertTicket>[0],
  { userId, organisationId }: { userId: string; organisationId: string },
  ttlMs: number,
): Promise<string> {
  const now = app.clock.now();
  const token = randomToken();
  await Q.spendTickets(q, userId, 'recovery', now);
  await Q.insertTicket(q, {
    organisationId,
    userId,
    kind: 'recovery',
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  return token;
}

/** A link is live while unspent, unexpired and issued under the user's current password. */
async function liveRecoveryTicket(app: AppContext, q: Parameters<typeof Q.findTicket>[0], token: string) {
  const t = await Q.findTicket(q, 'recovery', hashToken(token));
  if (!t || t.used_at || !t.current_password || new Date(t.expires_at) <= app.clock.now())
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
  await withEvents(app, async (q, emit) => {
    const t = await liveRecoveryTicket(app, q, token);
    if (!(await Q.useTicket(q, t.id, app.clock.now()))) throw new AppError('recoveryLinkExpiredException');
    await setPassword(q, t.user_id, hash);
    await Q.revokeUserSessions(q, t.user_id);
    await announceAccess({ q, emit }, t.organisation_id, { userIds: [t.user_id] }, null);
  });
  return { reset: true };
}
