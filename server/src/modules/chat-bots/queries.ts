import type { BotGraph } from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';

export type BotRow = {
  id: string;
  name: string;
  description: string;
  default_message: string;
  draft: BotGraph;
  published_version: number | null;
  published: BotGraph | null;
  /** The draft or the default message differs from the published version (or nothing is published). */
  unpublished: boolean;
  updated_at: Date;
};

const SELECT = `
  select b.id, b.name, b.description, b.default_message, b.draft, b.published_version, v.graph as published,
         (v.bot_id is null or b.draft <> v.graph or b.default_message <> v.default_message) as unpublished,
         b.updated_at
    from chat_bots b
    left join chat_bot_versions v on v.bot_id = b.id and v.version = b.published_version`;

export const listBots = (q: Queryable, orgId: string) =>
  q.query<BotRow>(
    `${SELECT} where b.organisation_id = $1 and b.deleted_at is null order by lower(b.name), b.id`,
    [orgId],
  );

export const findBot = (q: Queryable, orgId: string, id: string) =>
  maybe<BotRow>(q, `${SELECT} where b.id = $1 and b.organisation_id = $2 and b.deleted_at is null`, [
    id,
    orgId,
  ]);

/** Locks one bot of the organisation (publishing, deleting and rules naming it serialise on it). */
export const lockBot = (q: Queryable, orgId: string, id: string, mode: 'update' | 'share' = 'update') =>
  maybe<{ id: string }>(
    q,
    `select id from chat_bots where id = $1 and organisation_id = $2 and deleted_at is null for ${mode}`,
    [id, orgId],
  );

export async function insertBot(
  q: Queryable,
  b: { orgId: string; name: string; description: string; defaultMessage: string; draft: BotGraph; now: Date },
): Promise<string> {
  const rows = await q.query<{ id: string }>(
    `insert into chat_bots (organisation_id, name, description, default_message, draft, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $6) returning id`,
    [b.orgId, b.name, b.description, b.defaultMessage, JSON.stringify(b.draft), b.now],
  );
  return rows[0].id;
}

export const updateBot = (
  q: Queryable,
  orgId: string,
  id: string,
  p: { name: string; description: string; defaultMessage: string; draft: BotGraph; now: Date },
) =>
  q.query(
    `update chat_bots set name = $3, description = $4, default_message = $5, draft = $6, updated_at = $7
      where id = $1 and organisation_id = $2 and deleted_at is null`,
    [id, orgId, p.name, p.description, p.defaultMessage, JSON.stringify(p.draft), p.now],
  );

/** Freezes the draft as the next version and makes it the published one; answers its number. */
export async function publishVersion(
  q: Queryable,
  p: { orgId: string; id: string; graph: BotGraph; defaultMessage: string; userId: string; now: Date },
): Promise<number> {
  const rows = await q.query<{ version: number }>(
    `insert into chat_bot_versions (bot_id, version, organisation_id, graph, default_message, published_at, published_by)
     select $1, coalesce(max(version), 0) + 1, $2, $3, $4, $5, $6 from chat_bot_versions where bot_id = $1
     returning version`,
    [p.id, p.orgId, JSON.stringify(p.graph), p.defaultMessage, p.now, p.userId],
  );
  const version = rows[0].version;
  await q.query(
    'update chat_bots set published_version = $3, updated_at = $4 where id = $1 and organisation_id = $2',
    [p.id, p.orgId, version, p.now],
  );
  return version;
}

export const softDeleteBot = (q: Queryable, orgId: string, id: string, now: Date) =>
  q.query(
    'update chat_bots set deleted_at = $3 where id = $1 and organisation_id = $2 and deleted_at is null',
    [id, orgId, now],
  );

/** The names of the organisation's routing rules whose action routes to the bot. */
export const rulesUsingBot = async (q: Queryable, orgId: string, id: string) =>
  (
    await q.query<{ name: string }>(
      `select name from routing_rules
        where organisation_id = $1 and action->>'type' = 'chat_bot' and action->>'botId' = $2
        order by is_default, position, name`,
      [orgId, id],
    )
  ).map((r) => r.name);

/** Of these ids, those that are users of the organisation. */
export const usersInOrg = async (q: Queryable, orgId: string, ids: string[]) =>
  new Set(
    (
      await q.query<{ id: string }>(
        'select id from users where id = any($1::uuid[]) and organisation_id = $2',
        [ids, orgId],
      )
    ).map((r) => r.id),
  );
