import type { DistributionMethod } from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';
import type { Candidate } from './routing-choose.ts';

export type RoutingTeam = {
  id: string;
  organisation_id: string;
  distribution_method: DistributionMethod;
  dialog_limit: number;
  auto_redistribution_minutes: number | null;
  auto_close_minutes: number | null;
  /** 0: no close on inactivity. */
  inactivity_hours: number;
};

/** Locks the team row: automatic assignments of one team happen one at a time, so loads and turns stay exact. */
export const lockTeam = (q: Queryable, teamId: string) =>
  maybe<RoutingTeam>(
    q,
    `select id, organisation_id, distribution_method, dialog_limit, auto_redistribution_minutes, auto_close_minutes,
            inactivity_hours
       from teams where id = $1 for no key update`,
    [teamId],
  );

/** Locks several teams in id order (the one order every transaction takes team locks in). */
export const lockTeams = (q: Queryable, teamIds: string[]) =>
  q.query<RoutingTeam>(
    `select id, organisation_id, distribution_method, dialog_limit, auto_redistribution_minutes, auto_close_minutes,
            inactivity_hours
       from teams where id = any($1::uuid[]) order by id for no key update`,
    [teamIds],
  );

export const findTeam = (q: Queryable, teamId: string) =>
  maybe<RoutingTeam>(
    q,
    `select id, organisation_id, distribution_method, dialog_limit, auto_redistribution_minutes, auto_close_minutes,
            inactivity_hours
       from teams where id = $1`,
    [teamId],
  );

// An organisation suspended for non-payment (billing) hands no chat to anyone: they wait, nothing is lost.
const eligibleUser = `u.active and u.presence = 'online' and 'AUTHORITY_CHAT_DISTRIBUTION' = any(r.rights)
  and not exists (select 1 from organisations so where so.id = u.organisation_id and so.suspended_at is not null)`;
const load = `(select count(*)::int from chats c where c.operator_id = u.id and c.status = 'in_progress')`;

/** Online, active members of the team holding AUTHORITY_CHAT_DISTRIBUTION (organisation not suspended), with their open chats and last turn. */
export const teamCandidates = (q: Queryable, teamId: string) =>
  q.query<Candidate>(
    `select u.id as "userId", ${load} as load, rr.last_turn::float8 as "lastTurn"
       from team_members m
       join users u on u.id = m.user_id
       join roles r on r.id = u.role_id
       left join routing_rotation rr on rr.team_id = m.team_id and rr.user_id = u.id
      where m.team_id = $1 and ${eligibleUser}`,
    [teamId],
  );

/** Whether a user of the organisation may receive a chat at all (online, active, with the distribution right). */
export const isAvailable = async (q: Queryable, orgId: string, userId: string) =>
  !!(await maybe(
    q,
    `select 1 from users u join roles r on r.id = u.role_id where u.id = $1 and u.organisation_id = $2 and ${eligibleUser}`,
    [userId, orgId],
  ));

export const touchRotation = (q: Queryable, teamId: string, userId: string) =>
  q.query(
    `insert into routing_rotation (organisation_id, team_id, user_id, last_turn)
     select t.organisation_id, t.id, $2, nextval('routing_turn_seq') from teams t where t.id = $1
     on conflict (team_id, user_id) do update set last_turn = excluded.last_turn`,
    [teamId, userId],
  );
