import { maybe, one, type Queryable } from '../../db/index.ts';
import {
  type ChatRow,
  type HistoryRow,
  type MessageRow,
  messageColumns,
  type Viewer,
  visible,
} from '../conversation/readers.ts';

/*
 * The workspace's reads of chats, messages and their history (the conversation module writes them; its readers.ts
 * gives the row shapes and the SQL they share).
 */

const filterWhere = {
  assigned: `c.status = 'in_progress' and ${visible}`,
  waiting: `c.status = 'waiting' and ${visible}`,
  closed: `c.status = 'closed' and ${visible}`,
} as const;
export const countChats = (q: Queryable, orgId: string, viewer: Viewer) =>
  one<{ in_progress: number; waiting: number }>(
    q,
    `select count(*) filter (where ${filterWhere.assigned})::int as in_progress,
            count(*) filter (where ${filterWhere.waiting})::int as waiting
       from chats c where c.organisation_id = $1 and c.status <> 'closed'`,
    [orgId, viewer.all, viewer.userId, viewer.teamIds],
  );

export const listHistory = (q: Queryable, chatId: string) =>
  q.query<HistoryRow>(
    `select id, kind, actor_id, from_user_id, to_user_id, from_team_id, to_team_id, category_id, category_path,
            score, rule_id, rule_name, to_bot_id, bot_name, created_at
       from chat_history where chat_id = $1 order by created_at, id`,
    [chatId],
  );

/** Who may see these chats now: their status, operator, team and channel's visible teams (realtime replay policy). */
export const chatScopes = (q: Queryable, orgId: string, chatIds: string[]) =>
  q.query<Pick<ChatRow, 'id' | 'status' | 'operator_id' | 'team_id' | 'visible_team_ids'>>(
    `select c.id, c.status, c.operator_id, c.team_id, ch.visible_team_ids
       from chats c join channels ch on ch.id = c.channel_id
      where c.organisation_id = $1 and c.id = any($2::uuid[])`,
    [orgId, chatIds],
  );

/**
 * One page of a chat's messages, oldest first within the page: without `before` the newest `limit` messages, with
 * `before` (a message id of this chat) the `limit` messages just older than it. Keyset over messages_chat_idx
 * (chat_id, created_at, id), so any page costs the same however long the chat is. `nextCursor` is the id to pass as
 * `before` for the next older page, null when there is none; `before` naming no message of the chat answers null.
 */
export async function listMessages(q: Queryable, chatId: string, limit: number, before: string | null) {
  if (before && !(await maybe(q, 'select 1 from messages where id = $1 and chat_id = $2', [before, chatId])))
    return null;
  const rows = await q.query<MessageRow>(
    `select ${messageColumns} from messages m
      where m.chat_id = $1
        and ($3::uuid is null or (m.created_at, m.id) < (select created_at, id from messages where id = $3))
      order by m.created_at desc, m.id desc limit $2`,
    [chatId, limit + 1, before],
  );
  const more = rows.length > limit;
  const items = rows.slice(0, limit).reverse();
  const { total } = await one<{ total: number }>(
    q,
    'select count(*)::int as total from messages where chat_id = $1',
    [chatId],
  );
  return { items, total, nextCursor: more ? (items[0]?.id ?? null) : null };
}
