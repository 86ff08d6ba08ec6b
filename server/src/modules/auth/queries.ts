import { maybe, one, type Queryable } from '../../db/index.ts';
import { markActive } from '../users/account.ts';

export type Credentials = {
  id: string;
  organisation_id: string;
  email: string;
  password_hash: string;
  active: boolean;
  org_active: boolean;
  totp_enabled: boolean;
  totp_secret: string | null;
  totp_pending_secret: string | null;
};

const credentials = `select u.id, u.organisation_id, u.email, u.password_hash, u.active, u.totp_enabled, u.totp_secret,
         u.totp_pending_secret, o.status = 'active' as org_active
    from users u join organisations o on o.id = u.organisation_id`;

export const credentialsByEmail = (q: Queryable, email: string) =>
  maybe<Credentials>(q, `${credentials} where u.email = $1`, [email]);

export const credentialsById = (q: Queryable, id: string) =>
  maybe<Credentials>(q, `${credentials} where u.id = $1`, [id]);

/** A new session; logging in counts as activity. */
export async function insertSession(
  q: Queryable,
  s: { organisationId: string; userId: string; tokenHash: string; now: Date },
) {
  await markActive(q, s.userId, s.now);
  return one<{ id: string }>(
    q,
    'insert into sessions (organisation_id, user_id, token_hash, created_at, last_used_at) values ($1, $2, $3, $4, $4) returning id',
    [s.organisationId, s.userId, s.tokenHash, s.now],
  );
}

/** Revokes one token of the user; answers the ended session's id (none if it was not live). */
export const revokeSessionByHash = (q: Queryable, userId: string, tokenHash: string) =>
  q.query<{ id: string }>(
    'update sessions set revoked_at = now() where user_id = $1 and token_hash = $2 and revoked_at is null returning id',
    [userId, tokenHash],
  );

export const markPwa = (q: Queryable, sessionId: string, pwa: boolean) =>
  q.query('update sessions set pwa = $2 where id = $1 and pwa <> $2', [sessionId, pwa]);

export type TicketKind = 'two_factor' | 'recovery';
export type TicketRow = {
  id: string;
  user_id: string;
  organisation_id: string;
  attempts: number;
  expires_at: Date;
  used_at: Date | null;
  /** Whether the user's password is still the one the ticket was issued under (090_auth_hardening.sql). */
  current_password: boolean;
};

/** A digest of the password hash: what a ticket remembers of the password it was issued under. */
const stamp = (hash: string) => `encode(sha256(convert_to(${hash}, 'UTF8')), 'hex')`;

/** A ticket bound to the user's current password: any later change of the password hash kills it. */
export async function insertTicket(
  q: Queryable,
  t: { organisationId: string; userId: string; kind: TicketKind; tokenHash: string; expiresAt: Date },
) {
  await q.query(
    `insert into auth_tickets (organisation_id, user_id, kind, token_hash, expires_at, password_stamp)
     select $1, u.id, $3, $4, $5, ${stamp('u.password_hash')} from users u where u.id = $2`,
    [t.organisationId, t.userId, t.kind, t.tokenHash, t.expiresAt],
  );
}

export const findTicket = (q: Queryable, kind: TicketKind, tokenHash: string) =>
  maybe<TicketRow>(
    q,
    `select t.*, t.password_stamp = ${stamp('u.password_hash')} as current_password
       from auth_tickets t join users u on u.id = t.user_id
      where t.kind = $1 and t.token_hash = $2 for update of t`,
    [kind, tokenHash],
  );

/** Spends every outstanding ticket of one kind of a user: a new recovery link supersedes the older ones. */
export const spendTickets = (q: Queryable, userId: string, kind: TicketKind, now: Date) =>
  q.query('update auth_tickets set used_at = $3 where user_id = $1 and kind = $2 and used_at is null', [
    userId,
    kind,
    now,
  ]);

export const countTicketAttempt = (q: Queryable, id: string) =>
  q.query('update auth_tickets set attempts = attempts + 1 where id = $1', [id]);

/** Spends a ticket; false when it was already spent (a racing request got there first). */
export async function useTicket(q: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await q.query(
    'update auth_tickets set used_at = $2 where id = $1 and used_at is null returning id',
    [id, now],
  );
  return rows.length > 0;
}

export const organisationOf = (q: Queryable, id: string) =>
  one<{ id: string; name: string; login: string; language: 'eng' | 'rus' }>(
    q,
    'select id, name, login, language from organisations where id = $1',
    [id],
  );

export type LoginThrottle = { failures: number; next_at: Date };

/** The account's failed sign-ins in the current window (none once the window has passed). */
export const loginThrottle = (q: Queryable, account: string, windowStart: Date) =>
  maybe<LoginThrottle>(
    q,
    'select failures, next_at from login_throttle where account = $1 and window_start > $2',
    [account, windowStart],
  );

/** Counts a failed sign-in (a wrong password or second-factor code); a window that has passed starts over. */
export const recordLoginFailure = (q: Queryable, account: string, now: Date, windowStart: Date) =>
  q.query(
    `insert into login_throttle (account, failures, window_start, next_at) values ($1, 1, $2, $2)
     on conflict (account) do update set
       failures = case when login_throttle.window_start <= $3 then 1 else login_throttle.failures + 1 end,
       next_at = case when login_throttle.window_start <= $3 then $2 else login_throttle.next_at end,
       window_start = case when login_throttle.window_start <= $3 then $2 else login_throttle.window_start end`,
    [account, now, windowStart],
  );

/**
 * Takes the throttled account's next slot: true when it was free (and is now taken until `until`), false when an
 * earlier attempt holds it. One statement, so parallel attempts cannot share a slot.
 */
export async function claimLoginSlot(q: Queryable, account: string, now: Date, until: Date) {
  const rows = await q.query(
    'update login_throttle set next_at = $3 where account = $1 and next_at <= $2 returning account',
    [account, now, until],
  );
  return rows.length > 0;
}

/** Ends every open session of a user (but one: the caller's own, when given). */
export async function revokeUserSessions(q: Queryable, userId: string, exceptSessionId?: string) {
  await q.query(
    'update sessions set revoked_at = now() where user_id = $1 and revoked_at is null and id is distinct from $2',
    [userId, exceptSessionId ?? null],
  );
}

/** A session's last use (SESSION_IDLE_DAYS counts from it). */
export const touchSession = (q: Queryable, sessionId: string, now: Date) =>
  q.query('update sessions set last_used_at = $2 where id = $1', [sessionId, now]);
