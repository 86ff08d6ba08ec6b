import type { Presence } from '@smartconnect/contracts';
import { maybe, one, type Queryable } from '../../db/index.ts';

export type PresenceUser = {
  id: string;
  organisation_id: string;
  presence: Presence;
  active: boolean;
  break_timeout_minutes: number | null;
  last_activity_at: Date | null;
  presence_changed_at: Date | null;
  is_operator: boolean;
  team_ids: string[];
};

/** The user, locked: presence changes of one user happen one at a time. */
export const lockUser = (q: Queryable, orgId: string, userId: string) =>
  maybe<PresenceUser>(
    q,
    `select u.id, u.organisation_id, u.presence, u.active, u.break_timeout_minutes, u.last_activity_at,
            u.presence_changed_at, 'AUTHORITY_CHAT_DISTRIBUTION' = any(r.rights) as is_operator,
            coalesce((select array_agg(m.team_id) from team_members m where m.user_id = u.id), '{}') as team_ids
       from users u join roles r on r.id = u.role_id
      where u.id = $1 and u.organisation_id = $2
      for no key update of u`,
    [userId, orgId],
  );

/**
 * Locks the organisation row (so two operators cannot take the last licence together) and then, in a second
 * statement whose snapshot sees whoever committed before the lock was granted, counts the other online operators.
 */
export async function licenceUse(q: Queryable, orgId: string, exceptUserId: string) {
  const { licences } = await one<{ licences: number }>(
    q,
    'select operator_licences as licences from organisations where id = $1 for no key update',
    [orgId],
  );
  const { online } = await one<{ online: number }>(
    q,
    `select count(*)::int as online from users u join roles r on r.id = u.role_id
      where u.organisation_id = $1 and u.presence = 'online' and u.id <> $2
        and 'AUTHORITY_CHAT_DISTRIBUTION' = any(r.rights)`,
    [orgId, exceptUserId],
  );
  return { licences, online };
}

/** One presence change in the durable log: the state left (held since `previousAt`) and the one entered. */
export const logPresence = (
  q: Queryable,
  orgId: string,
  userId: string,
  status: Presence,
  previous: Presence,
  previousAt: Date | null,
  now: Date,
) =>
  q.query(
    `insert into presence_history (organisation_id, user_id, presence, previous, previous_at, created_at)
     values ($1, $2, $3, $4, $5, $6)`,
    [orgId, userId, status, previous, previousAt, now],
  );

export async function presenceOf(q: Queryable, userId: string): Promise<Presence | undefined> {
  return (await maybe<{ presence: Presence }>(q, 'select presence from users where id = $1', [userId]))
    ?.presence;
}

export async function teamIdsOf(q: Queryable, userId: string): Promise<string[]> {
  const rows = await q.query<{ team_id: string }>('select team_id from team_members where user_id = $1', [
    userId,
  ]);
  return rows.map((r) => r.team_id);
}
