import {
  type ChatFilter,
  type ChatListFilters,
  LIST_TOTAL_CAP,
  FIELD_MESSAGES as M,
  UNREAD_CAP,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { maybe, one, type Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { viewerOf } from '../conversation/policy.ts';
import { presentChat } from '../conversation/presenter.ts';
import { type ChatRow, selectChat, type Viewer, visible } from '../conversation/readers.ts';
import { getChat } from './service.ts';

/**
 * The chat lists of the workspace: keyset pages by last activity (chats_activity_idx,
 * chats_operator_activity_idx, chats_expired_idx), never offset + count(*) over the whole table.
 */

/** Which chats a list holds, on top of the viewer's visibility (queries.visible). */
export type ListKind = ChatFilter | 'expired';
const kindWhere: Record<ListKind, string> = {
  assigned: "c.status = 'in_progress'",
  waiting: "c.status = 'waiting'",
  // A chat holding only a mailing's message (chats.mailing_id) was never a dialog: the client's history shows it.
  closed: "c.status = 'closed' and c.mailing_id is null and not c.imported",
  expired: "c.status <> 'closed' and c.overdue_level = 'expired'",
};
const activity = 'coalesce(c.last_message_at, c.created_at)';

type ListRow = ChatRow & { unread: number; cursor_at: string };

/** The page position after a row: its activity stamp as PostgreSQL wrote it (microseconds kept) and its id. */
export const encodeCursor = (at: string, id: string) =>
  Buffer.from(JSON.stringify([at, id])).toString('base64url');

export function decodeCursor(cursor: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (
      Array.isArray(v) &&
      v.length === 2 &&
      typeof v[0] === 'string' &&
      /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?([+-]\d\d(:?\d\d)?|Z)?$/.test(v[0]) &&
      /^[0-9a-f-]{36}$/i.test(v[1])
    )
      return [v[0], v[1]];
  } catch {}
  throw new AppError('validationException', { cursor: M.incorrectValue });
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The where clause and parameters of one list for one viewer ($1..$4 are queries.visible's). */
function listWhere(orgId: string, viewer: Viewer, kind: ListKind, f: ChatListFilters) {
  const params: unknown[] = [orgId, viewer.all, viewer.userId, viewer.teamIds];
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const parts = [`c.organisation_id = $1`, kindWhere[kind], visible];
  if (f.channelId) parts.push(`c.channel_id = ${add(f.channelId)}::uuid`);
  if (f.teamId) parts.push(`c.team_id = ${add(f.teamId)}::uuid`);
  if (f.operatorId) parts.push(`c.operator_id = ${add(f.operatorId)}::uuid`);
  if (f.q) {
    const p = add(likePattern(f.q));
    // The whole conversation too, not only its last message ('1042' finds the chat about order #1042): the words of
    // any message, through the full-text index of extended search (messages_fts_idx).
    const words = add(f.q);
    parts.push(`(cl.name ilike ${p} or ct.external_id ilike ${p} or c.last_message_text ilike ${p}
      or c.id in (select m.chat_id from messages m
                   where m.organisation_id = $1
                     and to_tsvector('russian', m.text) @@ websearch_to_tsquery('russian', ${words})))`);
  }
  return { where: parts.join(' and '), params, add };
}

/** One page of a list, newest activity first, with the viewer's unread counts. */
export async function listPage(
  q: Queryable,
  orgId: string,
  viewer: Viewer,
  kind: ListKind,
  f: ChatListFilters,
  limit: number,
  offset = 0,
) {
  const { where, params, add } = listWhere(orgId, viewer, kind, f);
  const total = (
    await one<{ total: number }>(
      q,
      `select count(*)::int as total from (select 1 from chats c
          ${f.q ? 'join clients cl on cl.id = c.client_id join contacts ct on ct.id = c.contact_id' : ''}
         where ${where} limit ${LIST_TOTAL_CAP}) x`,
      params,
    )
  ).total;
  let keyset = '';
  if (f.cursor) {
    const [at, id] = decodeCursor(f.cursor);
    keyset = `and (${activity}, c.id) < (${add(at)}::timestamptz, ${add(id)}::uuid)`;
  }
  const lim = add(limit + 1);
  const off = add(f.cursor ? 0 : offset);
  const me = '$3::uuid';
  const rows = await q.query<ListRow>(
    `${selectChat.replace(
      'select c.id,',
      `select ${activity}::text as cursor_at,
              case when c.status = 'closed' then 0 else (
                select count(*)::int from (
                  select 1 from messages m
                   where m.chat_id = c.id and m.direction = 'in' and not m.internal
                     and m.created_at > coalesce((select r.read_at from chat_reads r
                                                   where r.chat_id = c.id and r.user_id = ${me}), '-infinity')
                   limit ${UNREAD_CAP}) u) end as unread,
              c.id,`,
    )}
      where ${where} ${keyset}
      order by ${activity} desc, c.id desc
      limit ${lim} offset ${off}`,
    params,
  );
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, total, nextCursor: more && last ? encodeCursor(last.cursor_at, last.id) : null };
}

export const presentListItem = (r: ListRow) => ({ ...presentChat(r), unread: r.unread });

/** A list of the caller's (GET /api/chats, GET /api/chats/expired). */
export async function listChatsPage(
  app: AppContext,
  auth: AuthContext,
  kind: ListKind,
  f: ChatListFilters,
  limit: number,
  offset = 0,
) {
  const viewer = await viewerOf(app.db, auth);
  const page = await listPage(app.db, auth.organisationId, viewer, kind, f, limit, offset);
  return { items: page.items.map(presentListItem), total: page.total, nextCursor: page.nextCursor };
}

/**
 * Marks a chat read by the caller up to its newest message (its client messages stop counting as unread for them);
 * never moves back.
 */
export async function markChatRead(app: AppContext, auth: AuthContext, chatId: string) {
  const chat = await getChat(app, auth, chatId);
  const row = await maybe<{ read_at: Date }>(
    app.db,
    `with newest as (select max(created_at) as at from messages where chat_id = $1)
     insert into chat_reads (chat_id, user_id, organisation_id, read_at)
     select $1, $2, $3, newest.at from newest where newest.at is not null
     on conflict (chat_id, user_id) do update set read_at = greatest(chat_reads.read_at, excluded.read_at)
     returning read_at`,
    [chat.id, auth.userId, auth.organisationId],
  );
  return { chatId: chat.id, unread: 0, readAt: row ? new Date(row.read_at).toISOString() : null };
}

/**
 * What the list filters offer the caller: the organisation's channels, the teams they may filter by (all with
 * AUTHORITY_ALL_CHATS, else their own) and, with AUTHORITY_ALL_CHATS, the operators (supervisors filter by them).
 */
export async function listFilterOptions(app: AppContext, auth: AuthContext) {
  const viewer = await viewerOf(app.db, auth);
  const org = auth.organisationId;
  const [channels, teams, operators] = await Promise.all([
    app.db.query<{ id: string; name: string; type: string }>(
      'select id, name, type from channels where organisation_id = $1 and deleted_at is null order by lower(name), id',
      [org],
    ),
    app.db.query<{ id: string; name: string }>(
      `select id, name from teams where organisation_id = $1 and deleted_at is null
          and ($2::boolean or id = any($3::uuid[])) order by lower(name), id`,
      [org, viewer.all, viewer.teamIds],
    ),
    viewer.all
      ? app.db.query<{ id: string; name: string }>(
          'select id, name from users where organisation_id = $1 and active order by lower(name), id',
          [org],
        )
      : Promise.resolve([]),
  ]);
  return { channels, teams, operators };
}
