import { maybe, one, type Queryable } from '../../db/index.ts';

export type SignupRow = {
  id: string;
  company: string;
  email: string;
  phone: string;
  language: 'eng' | 'rus';
  stage: 'email' | 'phone' | 'done';
  code_hash: string | null;
  code_expires_at: Date | null;
  code_attempts: number;
  codes_sent: number;
  code_sent_at: Date | null;
  organisation_login: string | null;
  expires_at: Date;
};

const COLUMNS = `id, company, email, phone, language, stage, code_hash, code_expires_at, code_attempts, codes_sent,
  code_sent_at, organisation_login, expires_at`;

export const insertSignup = (
  q: Queryable,
  s: Pick<SignupRow, 'id' | 'company' | 'email' | 'phone' | 'language'> & {
    tokenHash: string;
    codeHash: string;
    codeExpiresAt: Date;
    now: Date;
    expiresAt: Date;
  },
) =>
  one<SignupRow>(
    q,
    `insert into signups (id, token_hash, company, email, phone, language, stage, code_hash, code_expires_at,
       codes_sent, code_sent_at, created_at, expires_at)
     values ($10, $1, $2, $3, $4, $5, 'email', $6, $7, 1, $8, $8, $9) returning ${COLUMNS}`,
    [
      s.tokenHash,
      s.company,
      s.email,
      s.phone,
      s.language,
      s.codeHash,
      s.codeExpiresAt,
      s.now,
      s.expiresAt,
      s.id,
    ],
  );

export const findSignup = (q: Queryable, tokenHash: string, forUpdate = false) =>
  maybe<SignupRow>(
    q,
    `select ${COLUMNS} from signups where token_hash = $1${forUpdate ? ' for update' : ''}`,
    [tokenHash],
  );

/** Counts one wrong code; committed on its own, so the failing request still spends the attempt. */
export const countAttempt = (q: Queryable, id: string) =>
  q.query('update signups set code_attempts = code_attempts + 1 where id = $1', [id]);

/** A new code for the stage (the next one, or the same on a resend): fresh attempts, one more sent. */
export const setCode = (
  q: Queryable,
  id: string,
  c: {
    stage: SignupRow['stage'];
    codeHash: string;
    codeExpiresAt: Date;
    now: Date;
    fromStage: SignupRow['stage'];
  },
) =>
  maybe<SignupRow>(
    q,
    `update signups set stage = $2, code_hash = $3, code_expires_at = $4, code_attempts = 0, code_sent_at = $5,
       codes_sent = case when stage = $2 then codes_sent + 1 else 1 end
      where id = $1 and stage = $6 returning ${COLUMNS}`,
    [id, c.stage, c.codeHash, c.codeExpiresAt, c.now, c.fromStage],
  );

/** Moves a registration from the phone stage to done, once: a racing second request finds it done. */
export const finishSignup = (q: Queryable, id: string, login: string) =>
  maybe<SignupRow>(
    q,
    `update signups set stage = 'done', code_hash = null, code_expires_at = null, organisation_login = $2
      where id = $1 and stage = 'phone' returning ${COLUMNS}`,
    [id, login],
  );

export async function emailTaken(q: Queryable, email: string): Promise<boolean> {
  const row = await maybe<{ id: string }>(q, 'select id from users where lower(email) = $1 limit 1', [email]);
  return row !== undefined;
}

/** Logins equal to `base` or `base-N`, to choose the first free one. */
export async function loginsLike(q: Queryable, base: string): Promise<Set<string>> {
  const rows = await q.query<{ login: string }>(
    `select login from organisations where login = $1 or login like $2`,
    [base, `${base}-%`],
  );
  return new Set(rows.map((r) => r.login));
}
