import { maybe, one, type Queryable } from '../../db/index.ts';

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
  await q.query('update users set last_activity_at = $2 where id = $1', [s.userId, s.now]);
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
};

export async function insertTicket(
  q: Queryable,
  t: { organisationId: string; userId: string; kind: TicketKind; tokenHash: string; expiresAt: Date },
) {
  await q.query(
    'insert into auth_tickets (organisation_id, user_id, kind, token_hash, expires_at) values ($1, $2, $3, $4, $5)',
    [t.organisationId, t.userId, t.kind, t.tokenHash, t.expiresAt],
  );
}

export const findTicket = (q: Queryable, kind: TicketKind, tokenHash: string) =>
  maybe<TicketRow>(q, 'select * from auth_tickets where kind = $1 and token_hash = $2 for update', [
    kind,
    tokenHash,
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

export const setTotp = (
  q: Queryable,
  userId: string,
  t: { pending?: string | null; secret?: string | null; enabled?: boolean },
) =>
  q.query(
    `update users set
       totp_pending_secret = case when $2 then $3 else totp_pending_secret end,
       totp_secret = case when $4 then $5 else totp_secret end,
       totp_enabled = coalesce($6, totp_enabled),
       updated_at = now()
     where id = $1`,
    [
      userId,
      t.pending !== undefined,
      t.pending ?? null,
      t.secret !== undefined,
      t.secret ?? null,
      t.enabled ?? null,
    ],
  );

export const setPassword = (q: Queryable, userId: string, hash: string) =>
  q.query('update users set password_hash = $2, updated_at = now() where id = $1', [userId, hash]);

export const organisationOf = (q: Queryable, id: string) =>
  one<{ id: string; name: string; login: string; language: 'eng' | 'rus' }>(
    q,
    'select id, name, login, language from organisations where id = $1',
    [id],
  );
