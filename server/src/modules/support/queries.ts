import type { Queryable } from '../../db/index.ts';
import { maybe } from '../../db/index.ts';

/** The platform organisation's support channel (its site_chat), when there is one. */
export const supportChannel = (q: Queryable) =>
  maybe<{ id: string; organisation_id: string }>(
    q,
    `select ch.id, ch.organisation_id from channels ch join organisations o on o.id = ch.organisation_id
      where o.is_platform and ch.type = 'site_chat' and ch.deleted_at is null and ch.status = 'active'
      order by ch.created_at limit 1`,
  );

/** The platform organisation and its users (first start), when it exists without a support channel yet. */
export const platformWithoutSupport = (q: Queryable) =>
  maybe<{ id: string; user_ids: string[] }>(
    q,
    `select o.id, coalesce(array_agg(u.id) filter (where u.id is not null), '{}') as user_ids
       from organisations o left join users u on u.organisation_id = o.id
      where o.is_platform
        and not exists (select 1 from channels ch where ch.organisation_id = o.id and ch.type = 'site_chat')
      group by o.id order by min(o.created_at) limit 1`,
  );

export const addMembers = (q: Queryable, organisationId: string, teamId: string, userIds: string[]) =>
  q.query(
    `insert into team_members (organisation_id, team_id, user_id)
     select $1, $2, unnest($3::uuid[]) on conflict do nothing`,
    [organisationId, teamId, userIds],
  );

export const insertSupportChannel = (
  q: Queryable,
  c: { organisationId: string; teamId: string; settings: Record<string, unknown>; secrets: string },
) =>
  q.query(
    `insert into channels (organisation_id, type, name, team_id, status, settings, secrets)
     values ($1, 'site_chat', 'SmartConnect support', $2, 'active', $3, $4)`,
    [c.organisationId, c.teamId, JSON.stringify(c.settings), c.secrets],
  );

/** Who a support visitor is: the signed-in user and their organisation. */
export const userAndOrganisation = (q: Queryable, userId: string) =>
  maybe<{ name: string; email: string; organisation: string }>(
    q,
    `select u.name, u.email, o.name as organisation from users u join organisations o on o.id = u.organisation_id
      where u.id = $1`,
    [userId],
  );
