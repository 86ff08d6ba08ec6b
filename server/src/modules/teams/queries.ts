import { containsPattern, maybe, one, type Queryable, setList } from '../../db/index.ts';

export type TeamRow = {
  id: string;
  organisation_id: string;
  name: string;
  description: string;
  distribution_method: 'round_robin' | 'least_loaded' | 'manual';
  dialog_limit: number;
  auto_redistribution_minutes: number | null;
  auto_close_minutes: number | null;
  inactivity_hours: number;
  created_at: Date;
  members: { id: string; name: string }[];
};

const select = `
  select t.*, coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name) order by u.name)
                          from team_members m join users u on u.id = m.user_id where m.team_id = t.id), '[]'::json) as members
    from teams t`;

export const listTeams = (q: Queryable, scope: string | null, search?: string) =>
  q.query<TeamRow>(
    `${select} where t.deleted_at is null and ($1::uuid is null or t.organisation_id = $1)
        and ($2::text is null or t.name ilike $2)
      order by t.name`,
    [scope, search ? containsPattern(search) : null],
  );

export const findTeam = (q: Queryable, scope: string | null, id: string) =>
  maybe<TeamRow>(
    q,
    `${select} where t.id = $1 and t.deleted_at is null and ($2::uuid is null or t.organisation_id = $2)`,
    [id, scope],
  );

export const nameTaken = async (q: Queryable, orgId: string, name: string, exceptId?: string) =>
  !!(await maybe(
    q,
    'select 1 from teams where organisation_id = $1 and deleted_at is null and lower(name) = lower($2) and id is distinct from $3',
    [orgId, name, exceptId ?? null],
  ));

const columns = {
  name: 'name',
  description: 'description',
  distributionMethod: 'distribution_method',
  dialogLimit: 'dialog_limit',
  autoRedistributionMinutes: 'auto_redistribution_minutes',
  autoCloseMinutes: 'auto_close_minutes',
  inactivityHours: 'inactivity_hours',
} as const;
export type TeamFields = { [K in keyof typeof columns]?: unknown };

export async function insertTeam(q: Queryable, orgId: string, f: TeamFields): Promise<string> {
  const keys = Object.keys(columns).filter(
    (k) => f[k as keyof TeamFields] !== undefined,
  ) as (keyof typeof columns)[];
  const row = await one<{ id: string }>(
    q,
    `insert into teams (organisation_id, ${keys.map((k) => columns[k]).join(', ')})
     values ($1, ${keys.map((_, i) => `$${i + 2}`).join(', ')}) returning id`,
    [orgId, ...keys.map((k) => f[k])],
  );
  return row.id;
}

export async function updateTeam(q: Queryable, orgId: string, id: string, f: TeamFields) {
  const params: unknown[] = [id, orgId];
  const sets = setList(columns, f, params);
  if (!sets) return;
  await q.query(
    `update teams set ${sets}, updated_at = now() where id = $1 and organisation_id = $2`,
    params,
  );
}

/** Replaces a team's members with users of the same organisation. */
export async function setMembers(q: Queryable, orgId: string, teamId: string, userIds: string[]) {
  await q.query('delete from team_members where team_id = $1 and organisation_id = $2', [teamId, orgId]);
  await q.query(
    `insert into team_members (organisation_id, team_id, user_id)
     select $1, $2, u.id from users u where u.organisation_id = $1 and u.id = any($3::uuid[])`,
    [orgId, teamId, userIds],
  );
}

export async function countUsersInOrg(q: Queryable, orgId: string, ids: string[]) {
  const r = await one<{ n: number }>(
    q,
    'select count(*)::int as n from users where organisation_id = $1 and id = any($2::uuid[])',
    [orgId, ids],
  );
  return r.n;
}

/** What still depends on a team: channels routing to it, open chats in its queue, and any chat history. */
export const teamUsage = (q: Queryable, orgId: string, id: string) =>
  one<{ channels: number; open_chats: number; chats: number; deleted_channels: number }>(
    q,
    `select (select count(*)::int from channels where team_id = $1 and organisation_id = $2 and deleted_at is null) as channels,
            (select count(*)::int from channels where team_id = $1 and organisation_id = $2 and deleted_at is not null) as deleted_channels,
            (select count(*)::int from chats where team_id = $1 and organisation_id = $2 and status <> 'closed') as open_chats,
            (select count(*)::int from chats where team_id = $1 and organisation_id = $2) as chats`,
    [id, orgId],
  );

/** Deletes a team; one that history refers to is marked deleted and emptied instead. */
export async function deleteTeam(q: Queryable, orgId: string, id: string, keepForHistory: boolean) {
  if (!keepForHistory) {
    await q.query('delete from teams where id = $1 and organisation_id = $2', [id, orgId]);
    return;
  }
  await q.query('delete from team_members where team_id = $1 and organisation_id = $2', [id, orgId]);
  await q.query(
    'update teams set deleted_at = now(), updated_at = now() where id = $1 and organisation_id = $2',
    [id, orgId],
  );
}

/** §8 'team modify denied': platform staff locked the organisation's teams (modifyDenied TEAM). */
export const teamModifyDenied = async (q: Queryable, orgId: string) =>
  (
    await maybe<{ denied: boolean }>(
      q,
      `select 'TEAM' = any(modify_denied) as denied from organisations where id = $1`,
      [orgId],
    )
  )?.denied ?? true;

/** Replaces a user's teams with the given ones, which must belong to the same organisation. */
export async function setUserTeams(q: Queryable, organisationId: string, userId: string, teamIds: string[]) {
  await q.query('delete from team_members where user_id = $1 and organisation_id = $2', [
    userId,
    organisationId,
  ]);
  if (!teamIds.length) return;
  await q.query(
    `insert into team_members (organisation_id, team_id, user_id)
     select $1, t.id, $2 from teams t where t.organisation_id = $1 and t.deleted_at is null and t.id = any($3::uuid[])`,
    [organisationId, userId, teamIds],
  );
}

/** Adds users to a team (those already in it stay). */
export const addTeamMembers = (q: Queryable, organisationId: string, teamId: string, userIds: string[]) =>
  q.query(
    `insert into team_members (organisation_id, team_id, user_id)
     select $1, $2, unnest($3::uuid[]) on conflict do nothing`,
    [organisationId, teamId, userIds],
  );
