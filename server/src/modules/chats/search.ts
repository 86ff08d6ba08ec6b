import type {
  ChannelType,
  ChatStatus,
  MessageHitDto,
  SearchQuery,
  SnippetPart,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { viewerOf } from '../conversation/policy.ts';
import { type Viewer, visible } from '../conversation/readers.ts';
import { decodeCursor, encodeCursor } from './list.ts';

/**
 * Extended search (OPTION_EXTENDED_SEARCH): PostgreSQL full-text search over messages with the 'russian'
 * configuration, which stems Russian words with the Russian Snowball stemmer and Latin words with the English one
 * (messages_fts_idx, migration 041), on PGlite and PostgreSQL alike. Only chats the caller may see (queries.visible).
 */

const START = '\u0002';
const STOP = '\u0003';
const tsv = "to_tsvector('russian', m.text)";

type HitRow = {
  id: string;
  chat_id: string;
  direction: 'in' | 'out';
  internal: boolean;
  created_at: Date;
  at_text: string;
  author_id: string | null;
  author_name: string | null;
  headline: string;
  status: ChatStatus;
  channel_id: string;
  channel_name: string;
  channel_type: ChannelType;
  team_id: string;
  team_name: string;
  operator_id: string | null;
  operator_name: string | null;
  client_id: string;
  client_name: string;
};

/** ts_headline's marked text as plain parts: nothing of it is ever markup. */
export function snippetParts(marked: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let rest = marked;
  while (rest) {
    const s = rest.indexOf(START);
    if (s === -1) {
      parts.push({ text: rest, match: false });
      break;
    }
    if (s > 0) parts.push({ text: rest.slice(0, s), match: false });
    const e = rest.indexOf(STOP, s + 1);
    const end = e === -1 ? rest.length : e;
    parts.push({ text: rest.slice(s + 1, end), match: true });
    rest = rest.slice(end + 1);
  }
  return clip(parts.filter((p) => p.text !== ''));
}

const BEFORE = 60;
const LENGTH = 280;

/** The snippet around the first match: at most BEFORE characters ahead of it and LENGTH in all, cuts marked '…'. */
function clip(parts: SnippetPart[]): SnippetPart[] {
  const first = parts.findIndex((p) => p.match);
  const out = parts.slice();
  if (first > 0) {
    const lead = out
      .slice(0, first)
      .map((p) => p.text)
      .join('');
    if (lead.length > BEFORE)
      out.splice(0, first, { text: `…${lead.slice(-BEFORE).trimStart()}`, match: false });
  }
  let left = LENGTH;
  const clipped: SnippetPart[] = [];
  for (const p of out) {
    if (left <= 0) break;
    if (p.text.length > left) {
      clipped.push({ text: `${p.text.slice(0, left)}…`, match: p.match });
      break;
    }
    clipped.push(p);
    left -= p.text.length;
  }
  return clipped;
}

/** How many of the newest messages the first attempt reads: a word used that often fills a page from them. */
const WINDOW = 5_000;

/**
 * The newest matches first, in two attempts so both common and rare words stay fast: first the organisation's
 * WINDOW newest messages (messages_org_created_idx, newest first) are matched; a full page found there is the
 * answer (nothing newer was left out). Otherwise the full-text index gives every match (materialised, so the planner
 * cannot trade it for the ordered walk, which a rare word would make a walk over every message), then sorted.
 */
export async function searchMessageRows(q: Queryable, orgId: string, viewer: Viewer, f: SearchQuery) {
  const params: unknown[] = [orgId, viewer.all, viewer.userId, viewer.teamIds, f.q];
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const fts = `${tsv} @@ websearch_to_tsquery('russian', $5)`;
  const own = ['m.organisation_id = $1'];
  if (f.from) own.push(`m.created_at >= ${add(f.from)}::timestamptz`);
  if (f.to) own.push(`m.created_at < ${add(f.to)}::timestamptz`);
  if (f.cursor) {
    const [at, id] = decodeCursor(f.cursor);
    own.push(`(m.created_at, m.id) < (${add(at)}::timestamptz, ${add(id)}::uuid)`);
  }
  const chat = [visible];
  if (f.channelId) chat.push(`c.channel_id = ${add(f.channelId)}::uuid`);
  if (f.teamId) chat.push(`c.team_id = ${add(f.teamId)}::uuid`);
  if (f.operatorId) chat.push(`c.operator_id = ${add(f.operatorId)}::uuid`);
  if (f.status) chat.push(`c.status = ${add(f.status)}`);
  const limit = add(f.limit + 1);
  const page = (source: string, extra: string) =>
    `select x.*, ts_headline('russian', translate(x.text, E'\\x02\\x03', ''), websearch_to_tsquery('russian', $5),
                             'StartSel=${START}, StopSel=${STOP}, HighlightAll=true') as headline
       from (select m.id, m.chat_id, m.direction, m.internal, m.created_at, m.created_at::text as at_text, m.text,
                    m.author_id, u.name as author_name, c.status, c.channel_id, ch.name as channel_name,
                    ch.type as channel_type, c.team_id, t.name as team_name, c.operator_id, op.name as operator_name,
                    c.client_id, cl.name as client_name
               from ${source}
               join chats c on c.id = m.chat_id
               join channels ch on ch.id = c.channel_id
               join teams t on t.id = c.team_id
               join clients cl on cl.id = c.client_id
               left join users u on u.id = m.author_id
               left join users op on op.id = c.operator_id
              where ${[...(extra ? [extra] : []), ...chat].join(' and ')}
              order by m.created_at desc, m.id desc
              limit ${limit}) x
      order by x.created_at desc, x.id desc`;
  let rows = await q.query<HitRow>(
    page(
      `(select * from messages m where ${own.join(' and ')}
         order by m.created_at desc, m.id desc limit ${WINDOW}) m`,
      fts,
    ),
    params,
  );
  if (rows.length <= f.limit)
    rows = await q.query<HitRow>(
      `with hits as materialized (select m.id from messages m where ${own.join(' and ')} and ${fts})
       ${page('hits h join messages m on m.id = h.id', '')}`,
      params,
    );
  const more = rows.length > f.limit;
  const items = rows.slice(0, f.limit);
  const last = items.at(-1);
  return { items, nextCursor: more && last ? encodeCursor(last.at_text, last.id) : null };
}

const presentHit = (r: HitRow): MessageHitDto => ({
  id: r.id,
  chatId: r.chat_id,
  direction: r.direction,
  internal: r.internal,
  createdAt: new Date(r.created_at).toISOString(),
  author: r.author_id ? { id: r.author_id, name: r.author_name ?? '' } : null,
  snippet: snippetParts(r.headline),
  chat: {
    id: r.chat_id,
    status: r.status,
    channel: { id: r.channel_id, name: r.channel_name, type: r.channel_type },
    team: { id: r.team_id, name: r.team_name },
    operator: r.operator_id ? { id: r.operator_id, name: r.operator_name ?? '' } : null,
    client: { id: r.client_id, name: r.client_name },
  },
});

/** Messages matching the query in the chats the caller may see, newest first (cursor pages). */
export async function searchMessages(app: AppContext, auth: AuthContext, f: SearchQuery) {
  const viewer = await viewerOf(app.db, auth);
  const page = await searchMessageRows(app.db, auth.organisationId, viewer, f);
  return { items: page.items.map(presentHit), nextCursor: page.nextCursor };
}

type ClientHitRow = {
  id: string;
  name: string;
  contacts: { channelId: string; channelName: string; externalId: string; username: string | null }[];
  last_chat_id: string | null;
  last_chat_status: ChatStatus | null;
};

/**
 * Clients by name, channel id or handle (a substring, any case), as the caller may see them (AUTHORITY_ALL_CHATS:
 * all of the organisation; else clients with a chat they may see), with their latest visible chat.
 */
export async function searchClients(app: AppContext, auth: AuthContext, f: SearchQuery) {
  const viewer = await viewerOf(app.db, auth);
  const pattern = `%${f.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const params: unknown[] = [auth.organisationId, viewer.all, viewer.userId, viewer.teamIds, pattern];
  const chatFilters: string[] = [];
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.channelId) chatFilters.push(`c.channel_id = ${add(f.channelId)}::uuid`);
  if (f.teamId) chatFilters.push(`c.team_id = ${add(f.teamId)}::uuid`);
  if (f.operatorId) chatFilters.push(`c.operator_id = ${add(f.operatorId)}::uuid`);
  if (f.status) chatFilters.push(`c.status = ${add(f.status)}`);
  if (f.from) chatFilters.push(`coalesce(c.last_message_at, c.created_at) >= ${add(f.from)}::timestamptz`);
  if (f.to) chatFilters.push(`c.created_at < ${add(f.to)}::timestamptz`);
  const chatWhere = ['c.client_id = cl.id', visible, ...chatFilters].join(' and ');
  const rows = await app.db.query<ClientHitRow>(
    `select cl.id, cl.name,
            coalesce((select json_agg(json_build_object('channelId', ct.channel_id, 'channelName', ch.name,
                                                        'externalId', ct.external_id, 'username', ct.username)
                                      order by ct.created_at)
                        from contacts ct join channels ch on ch.id = ct.channel_id
                       where ct.client_id = cl.id), '[]'::json) as contacts,
            lc.id as last_chat_id, lc.status as last_chat_status
       from clients cl
       join lateral (select c.id, c.status from chats c where ${chatWhere}
                      order by coalesce(c.last_message_at, c.created_at) desc limit 1) lc on true
      where cl.organisation_id = $1
        and (cl.name ilike $5 or exists (select 1 from contacts ct where ct.client_id = cl.id
                                           and (ct.external_id ilike $5 or ct.username ilike $5 or ct.name ilike $5)))
      order by cl.name, cl.id
      limit ${add(f.limit)}`,
    params,
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      contacts: r.contacts,
      lastChat: r.last_chat_id ? { id: r.last_chat_id, status: r.last_chat_status as ChatStatus } : null,
    })),
  };
}
