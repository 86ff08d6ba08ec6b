import type { RuleAction } from '@smartconnect/contracts';
import { maybe, type Queryable, statement } from '../../db/index.ts';
import type { StoredConditions } from './conditions.ts';

export type RuleRow = {
  id: string;
  organisation_id: string;
  name: string;
  conditions: StoredConditions;
  action: RuleAction;
  enabled: boolean;
  is_default: boolean;
  position: number;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS =
  'id, organisation_id, name, conditions, action, enabled, is_default, position, created_at, updated_at';
/** The order rules are tried in: by position, the default rule last. */
const ORDER = 'order by is_default, position, created_at, id';

export const DEFAULT_CONDITIONS: StoredConditions = {
  clients: 'any',
  channelIds: [],
  messageType: 'client',
  marketingType: null,
  intentsInclude: [],
  intentsExclude: [],
};

/** The organisation's default rule (created once; `on conflict` keeps it one). */
export const insertDefaultRule = (q: Queryable, orgId: string) =>
  q.query(
    `insert into routing_rules (organisation_id, name, conditions, conditions_key, action, is_default, position)
     values ($1, 'Default rule', $2, 'default', '{"type":"team"}', true, 2147483647)
     on conflict do nothing`,
    [orgId, JSON.stringify(DEFAULT_CONDITIONS)],
  );

export const listRules = (q: Queryable, orgId: string) =>
  q.query<RuleRow>(`select ${COLUMNS} from routing_rules where organisation_id = $1 ${ORDER}`, [orgId]);

export const findRule = (q: Queryable, orgId: string, id: string) =>
  maybe<RuleRow>(q, `select ${COLUMNS} from routing_rules where id = $1 and organisation_id = $2`, [
    id,
    orgId,
  ]);

/** Locks the organisation's rules while their order changes (creations, deletions and reorders serialise). */
export const lockRules = (q: Queryable, orgId: string) =>
  q.query<{ id: string; is_default: boolean }>(
    `select id, is_default from routing_rules where organisation_id = $1 ${ORDER} for update`,
    [orgId],
  );

export const conditionsTaken = async (q: Queryable, orgId: string, key: string, exceptId: string | null) =>
  !!(await maybe(
    q,
    `select 1 from routing_rules where organisation_id = $1 and conditions_key = $2 and not is_default
        and id is distinct from $3`,
    [orgId, key, exceptId],
  ));

export type RuleInsert = {
  orgId: string;
  name: string;
  conditions: StoredConditions;
  key: string;
  action: RuleAction;
  enabled: boolean;
  position: number;
};

/** Makes room at `position` (1-based among the non-default rules) and inserts the rule there. */
export async function insertRule(q: Queryable, r: RuleInsert): Promise<string> {
  await q.query(
    `update routing_rules set position = position + 1
      where organisation_id = $1 and not is_default and position >= $2`,
    [r.orgId, r.position],
  );
  const rows = await q.query<{ id: string }>(
    `insert into routing_rules (organisation_id, name, conditions, conditions_key, action, enabled, position)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [r.orgId, r.name, JSON.stringify(r.conditions), r.key, JSON.stringify(r.action), r.enabled, r.position],
  );
  return rows[0].id;
}

export const updateRule = (
  q: Queryable,
  orgId: string,
  id: string,
  p: {
    name: string;
    conditions: StoredConditions;
    key: string;
    action: RuleAction;
    enabled: boolean;
    now: Date;
  },
) =>
  q.query(
    `update routing_rules set name = $3, conditions = $4, conditions_key = $5, action = $6, enabled = $7,
            updated_at = $8
      where id = $1 and organisation_id = $2 and not is_default`,
    [id, orgId, p.name, JSON.stringify(p.conditions), p.key, JSON.stringify(p.action), p.enabled, p.now],
  );

export const deleteRule = (q: Queryable, orgId: string, id: string) =>
  q.query('delete from routing_rules where id = $1 and organisation_id = $2 and not is_default', [id, orgId]);

/** Positions 1..n in the given order (ids of the organisation's non-default rules). */
export const setOrder = (q: Queryable, orgId: string, ids: string[], now: Date) =>
  q.query(
    `update routing_rules r set position = o.n, updated_at = $3
       from unnest($2::uuid[]) with ordinality as o(id, n)
      where r.id = o.id and r.organisation_id = $1 and not r.is_default`,
    [orgId, ids, now],
  );

export const countChannelsInOrg = async (q: Queryable, orgId: string, ids: string[]) =>
  (
    await q.query<{ n: number }>(
      'select count(*)::int as n from channels where id = any($1::uuid[]) and organisation_id = $2 and deleted_at is null',
      [ids, orgId],
    )
  )[0].n;

/** Whether an enabled rule of the organisation routes replies to mailings or sends chats to a bot (those need every message seen). */
export const hasMailingRules = async (q: Queryable, orgId: string) =>
  !!(await maybe(
    q,
    `select 1 from routing_rules where organisation_id = $1 and enabled and not is_default
        and (conditions->>'messageType' = 'mailing' or action->>'type' = 'chat_bot')`,
    [orgId],
  ));

/**
 * The rules the pipeline tries for these organisations: enabled, not the default one, in order, and only where
 * the plan includes OPTION_ROUTING.
 */
export const activeRules = (q: Queryable, orgIds: string[]) => q.query<RuleRow>(ACTIVE_RULES, [orgIds]);
const ACTIVE_RULES = statement(
  'active_rules',
  `select ${COLUMNS.split(', ')
    .map((c) => `r.${c}`)
    .join(', ')}
     from routing_rules r join organisations o on o.id = r.organisation_id
    where r.organisation_id = any($1::uuid[]) and r.enabled and not r.is_default
      and 'OPTION_ROUTING' = any(o.options)
    order by r.organisation_id, r.position, r.created_at, r.id`,
);

export type ChatFactsRow = {
  id: string;
  organisation_id: string;
  channel_id: string;
  team_id: string;
  status: 'waiting' | 'in_progress' | 'closed';
  operator_id: string | null;
  repeated: boolean;
  /** The session was started by a user (our outbound message from the create-chat page). */
  opened_by_us: boolean;
  /** The chat has a client message before this one. */
  earlier_client_message: boolean;
};

/** What the rules are matched against, for the chat of one inbound message. */
export const chatFacts = (q: Queryable, orgId: string, chatId: string, messageId: string) =>
  maybe<ChatFactsRow>(
    q,
    `select c.id, c.organisation_id, c.channel_id, c.team_id, c.status, c.operator_id,
            exists (select 1 from chats p where p.client_id = c.client_id and p.id <> c.id
                      and (p.created_at, p.id) < (c.created_at, c.id)) as repeated,
            coalesce((select h.actor_id is not null from chat_history h
                       where h.chat_id = c.id and h.kind in ('created', 'reopen')
                       order by h.created_at, h.id limit 1), false) as opened_by_us,
            exists (select 1 from messages m where m.chat_id = c.id and m.direction = 'in' and m.id <> $3
                      and m.created_at <= (select created_at from messages where id = $3)) as earlier_client_message
       from chats c where c.id = $1 and c.organisation_id = $2`,
    [chatId, orgId, messageId],
  );

/** Which of these chats a user's outbound message opened (opened_by_us of chatFacts), in one statement. */
export const openedByUs = (q: Queryable, chats: { orgId: string; chatId: string }[]) =>
  q.query<{ id: string; opened_by_us: boolean }>(
    `with r as materialized (select id, organisation_id from chats where id = any($1::uuid[]))
     select c.id,
            coalesce((select h.actor_id is not null from chat_history h
                       where h.chat_id = c.id and h.kind in ('created', 'reopen')
                       order by h.created_at, h.id limit 1), false) as opened_by_us
       from r c where (c.id, c.organisation_id) in (select * from unnest($1::uuid[], $2::uuid[]))`,
    [chats.map((c) => c.chatId), chats.map((c) => c.orgId)],
  );
