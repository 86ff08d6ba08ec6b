import type { Queryable } from '../../db/index.ts';
import { maybe } from '../../db/index.ts';

/** The platform organisation's support channel (its channel of a widget type, `types`), when there is one. */
export const supportChannel = (q: Queryable, types: readonly string[]) =>
  maybe<{ id: string; organisation_id: string }>(
    q,
    `select ch.id, ch.organisation_id from channels ch join organisations o on o.id = ch.organisation_id
      where o.is_platform and ch.type = any($1::text[]) and ch.deleted_at is null and ch.status = 'active'
      order by ch.created_at limit 1`,
    [types],
  );

/**
 * The platform organisation and its users (first start), when it exists without a support channel yet (a channel
 * of a widget type, `types`).
 */
export const platformWithoutSupport = (q: Queryable, types: readonly string[]) =>
  maybe<{ id: string; user_ids: string[] }>(
    q,
    `select o.id, coalesce(array_agg(u.id) filter (where u.id is not null), '{}') as user_ids
       from organisations o left join users u on u.organisation_id = o.id
      where o.is_platform
        and not exists (select 1 from channels ch where ch.organisation_id = o.id and ch.type = any($1::text[]))
      group by o.id order by min(o.created_at) limit 1`,
    [types],
  );

/** Who a support visitor is: the signed-in user and their organisation. */
export const userAndOrganisation = (q: Queryable, userId: string) =>
  maybe<{ name: string; email: string; organisation: string }>(
    q,
    `select u.name, u.email, o.name as organisation from users u join organisations o on o.id = u.organisation_id
      where u.id = $1`,
    [userId],
  );
