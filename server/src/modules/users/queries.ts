import type { Language, Presence } from '@smartconnect/contracts';
import { containsPattern, maybe, one, type Queryable, setList } from '../../db/index.ts';

export type UserRow = {
  id: string;
  organisation_id: string;
  name: string;
  email: string;
  phone: string | null;
  photo_key: string | null;
  break_timeout_minutes: number | null;
  language: Language;
  active: boolean;
  presence: Presence;
  totp_enabled: boolean;
  last_activity_at: Date | null;
  created_at: Date;
  role_id: string;
  role_name: string;
  role_built_in: string | null;
  role_rights: string[];
  teams: { id: string; name: string }[];
};

const select = `
  select u.id, u.organisation_id, u.name, u.email, u.phone, u.photo_key, u.break_timeout_minutes, u.language,
         u.active, u.presence, u.totp_enabled, u.last_activity_at, u.created_at,
         r.id as role_id, r.name as role_name, r.built_in as role_built_in, r.rights as role_rights,
         coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name)
                     from team_members m join teams t on t.id = m.team_id where m.user_id = u.id), '[]'::json) as teams
    from users u join roles r on r.id = u.role_id`;

export type UserFilter = {
  scope: string | null;
  search?: string;
  teamId?: string;
  limit: number;
  offset: number;
};

/** Users of one organisation (or all, for a null scope), by name, optionally of one team. */
export async function listUsers(q: Queryable, f: UserFilter): Promise<{ rows: UserRow[]; total: number }> {
  const where = `where ($1::uuid is null or u.organisation_id = $1)
      and ($2::text is null or u.name ilike $2)
      and ($3::uuid is null or exists (select 1 from team_members m where m.user_id = u.id and m.team_id = $3))`;
  const params = [f.scope, f.search ? containsPattern(f.search) : null, f.teamId ?? null];
  const rows = await q.query<UserRow>(`${select} ${where} order by u.name, u.id limit $4 offset $5`, [
    ...params,
    f.limit,
    f.offset,
  ]);
  const { total } = await one<{ total: number }>(
    q,
    `select count(*)::int as total from users u ${where}`,
    params,
  );
  return { rows, total };
}

export const findUser = (q: Queryable, scope: string | null, id: string) =>
  maybe<UserRow>(q, `${select} where u.id = $1 and ($2::uuid is null or u.organisation_id = $2)`, [
    id,
    scope,
  ]);

export type UserInsert = {
  organisationId: string;
  roleId: string;
  name: string;
  email: string;
  phone: string | null;
  passwordHash: string;
  breakTimeoutMinutes: number | null;
  language: Language;
  active: boolean;
};

export async function insertUser(q: Queryable, u: UserInsert): Promise<string> {
  const row = await one<{ id: string }>(
    q,
    `insert into users (organisation_id, role_id, name, email, phone, password_hash, break_timeout_minutes, language, active)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
    [
      u.organisationId,
      u.roleId,
      u.name,
      u.email,
      u.phone,
      u.passwordHash,
      u.breakTimeoutMinutes,
      u.language,
      u.active,
    ],
  );
  return row.id;
}

const columns = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  roleId: 'role_id',
  breakTimeoutMinutes: 'break_timeout_minutes',
  language: 'language',
  active: 'active',
  passwordHash: 'password_hash',
  photoKey: 'photo_key',
  presence: 'presence',
} as const;
export type UserPatch = Partial<Record<keyof typeof columns, unknown>>;

export async function updateUser(
  q: Queryable,
  organisationId: string,
  id: string,
  patch: UserPatch,
): Promise<void> {
  const params: unknown[] = [id, organisationId];
  const sets = setList(columns, patch, params);
  if (!sets) return;
  await q.query(
    `update users set ${sets}, updated_at = now() where id = $1 and organisation_id = $2`,
    params,
  );
}

export const findRoleInOrg = (q: Queryable, organisationId: string, roleId: string) =>
  maybe<{ id: string; rights: string[] }>(
    q,
    'select id, rights from roles where id = $1 and organisation_id = $2',
    [roleId, organisationId],
  );

export const emailTaken = async (q: Queryable, email: string, exceptId?: string) =>
  !!(await maybe(q, 'select 1 from users where email = $1 and id is distinct from $2', [
    email,
    exceptId ?? null,
  ]));

export const phoneTaken = async (q: Queryable, organisationId: string, phone: string, exceptId?: string) =>
  !!(await maybe(
    q,
    'select 1 from users where organisation_id = $1 and phone = $2 and id is distinct from $3',
    [organisationId, phone, exceptId ?? null],
  ));

export const searchShort = (q: Queryable, organisationId: string, name: string) =>
  q.query<{ id: string; name: string; email: string; photo_key: string | null }>(
    `select id, name, email, photo_key from users
      where organisation_id = $1 and active and name ilike $2
      order by name limit 20`,
    [organisationId, containsPattern(name)],
  );

export type AccessRow = { id: string; active: boolean; rights: string[]; team_ids: string[] };

/** Teams, rights and activity of the listed users and of every holder of the role, as the realtime gateway scopes them. */
/** Every user of the organisation, by id. */
export const userIdsOf = async (q: Queryable, orgId: string) =>
  (await q.query<{ id: string }>('select id from users where organisation_id = $1', [orgId])).map(
    (r) => r.id,
  );

export const accessOf = (q: Queryable, orgId: string, userIds: string[], roleId: string | null) =>
  q.query<AccessRow>(
    `select u.id, u.active, r.rights,
            array(select tm.team_id::text from team_members tm where tm.user_id = u.id) as team_ids
       from users u join roles r on r.id = u.role_id
      where u.organisation_id = $1 and (u.id = any($2::uuid[]) or u.role_id = $3)`,
    [orgId, userIds, roleId],
  );

/** Last seen: a login, or a session's use (written at most once a minute per session). */
export const markActive = (q: Queryable, userId: string, now: Date) =>
  q.query('update users set last_activity_at = $2 where id = $1', [userId, now]);

/** Two-factor secrets: pending while enrolling, active once confirmed. */
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

export const setPresenceRow = (q: Queryable, userId: string, status: Presence, now: Date) =>
  q.query('update users set presence = $2, presence_changed_at = $3, updated_at = $3 where id = $1', [
    userId,
    status,
    now,
  ]);
