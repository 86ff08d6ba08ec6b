import { BUILT_IN_ROLE_NAMES, BUILT_IN_ROLE_RIGHTS, BUILT_IN_ROLES } from '@smartconnect/contracts';
import { maybe, one, type Queryable } from '../../db/index.ts';

export type RoleRow = {
  id: string;
  organisation_id: string;
  name: string;
  description: string;
  rights: string[];
  built_in: string | null;
  user_count: number;
};

const select = `select r.*, (select count(*)::int from users u where u.role_id = r.id) as user_count from roles r`;

export const listRoles = (q: Queryable, scope: string | null) =>
  q.query<RoleRow>(
    `${select} where ($1::uuid is null or r.organisation_id = $1)
      order by r.built_in is null, array_position(array['OPERATOR','SUPERVISOR','ADMINISTRATOR'], r.built_in), r.name`,
    [scope],
  );

export const findRole = (q: Queryable, scope: string | null, id: string) =>
  maybe<RoleRow>(q, `${select} where r.id = $1 and ($2::uuid is null or r.organisation_id = $2)`, [
    id,
    scope,
  ]);

export const nameTaken = async (q: Queryable, orgId: string, name: string, exceptId?: string) =>
  !!(await maybe(
    q,
    'select 1 from roles where organisation_id = $1 and lower(name) = lower($2) and id is distinct from $3',
    [orgId, name, exceptId ?? null],
  ));

export async function insertRole(
  q: Queryable,
  orgId: string,
  r: { name: string; description: string; rights: string[] },
) {
  const row = await one<{ id: string }>(
    q,
    'insert into roles (organisation_id, name, description, rights) values ($1, $2, $3, $4) returning id',
    [orgId, r.name, r.description, r.rights],
  );
  return row.id;
}

export async function updateRole(
  q: Queryable,
  orgId: string,
  id: string,
  r: { name?: string; description?: string; rights?: string[] },
) {
  await q.query(
    `update roles set name = coalesce($3, name), description = coalesce($4, description), rights = coalesce($5, rights),
            updated_at = now()
      where id = $1 and organisation_id = $2 and built_in is null`,
    [id, orgId, r.name ?? null, r.description ?? null, r.rights ?? null],
  );
}

export const deleteRole = (q: Queryable, orgId: string, id: string) =>
  q.query('delete from roles where id = $1 and organisation_id = $2 and built_in is null', [id, orgId]);

const ROLE_DESCRIPTIONS = {
  OPERATOR: 'Handles the flow of inquiries',
  SUPERVISOR: 'Controls the operator team and sees all inquiries',
  ADMINISTRATOR: 'Configures the platform',
} as const;

/** A new organisation's three built-in roles (a platform organisation's administrator also observes); their ids. */
export async function insertBuiltInRoles(q: Queryable, organisationId: string, opts: { platform: boolean }) {
  const roles = {} as Record<(typeof BUILT_IN_ROLES)[number], string>;
  for (const builtIn of BUILT_IN_ROLES) {
    const rights = [...BUILT_IN_ROLE_RIGHTS[builtIn]];
    if (opts.platform && builtIn === 'ADMINISTRATOR') rights.push('RIGHT_OBSERVER');
    const role = await one<{ id: string }>(
      q,
      `insert into roles (organisation_id, name, description, rights, built_in) values ($1, $2, $3, $4, $5) returning id`,
      [organisationId, BUILT_IN_ROLE_NAMES[builtIn], ROLE_DESCRIPTIONS[builtIn], rights, builtIn],
    );
    roles[builtIn] = role.id;
  }
  return roles;
}
