import type { ClientStatusColor, ContactKind, SessionStatus } from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';
import { type ClientRow, CONTACTS_COLUMN } from './queries.ts';

type RefRow = { id: string; name: string };
export type ProfileRow = {
  id: string;
  name: string;
  personal_manager_id: string | null;
  manager: RefRow | null;
  tags: string[];
  fields: { name: string; value: string }[];
  status: { id: string; name: string; color: ClientStatusColor } | null;
  companies: RefRow[];
  spam: boolean;
  advertising_opted_out_at: Date | null;
  session_status: SessionStatus | null;
  details: { kind: ContactKind; value: string }[];
  blocked_at: Date | null;
  comments: { id: string; text: string; author: RefRow | null; created_at: string }[];
  history: {
    id: string;
    kind: 'merged' | 'blocked' | 'unblocked';
    actor: RefRow | null;
    data: Record<string, unknown>;
    created_at: string;
  }[];
  created_at: Date;
};

/**
 * The profile's columns of `clients cl`; `comments` and `history` are SQL booleans: false leaves the list empty
 * without reading it.
 */
const profileColumns = (comments: string, history: string) =>
  `cl.id, cl.name, cl.personal_manager_id, cl.tags, cl.fields, cl.spam, cl.session_status, cl.blocked_at,
            cl.created_at, cl.advertising_opted_out_at,
            (select json_build_object('id', u.id, 'name', u.name) from users u where u.id = cl.personal_manager_id)
              as manager,
            (select json_build_object('id', s.id, 'name', s.name, 'color', s.color) from client_statuses s
              where s.id = cl.status_id) as status,
            coalesce((select json_agg(json_build_object('id', co.id, 'name', co.name) order by lower(co.name))
                        from client_company_links l join companies co on co.id = l.company_id
                       where l.client_id = cl.id), '[]'::json) as companies,
            coalesce((select json_agg(json_build_object('kind', d.kind, 'value', d.value) order by d.kind desc, d.created_at, d.value)
                        from client_contacts d where d.client_id = cl.id), '[]'::json) as details,
            case when ${comments} then coalesce((
              select json_agg(json_build_object('id', c.id, 'text', c.text, 'created_at', c.created_at,
                                                'author', case when u.id is null then null
                                                               else json_build_object('id', u.id, 'name', u.name) end)
                              order by c.created_at desc, c.id desc)
                from client_comments c left join users u on u.id = c.author_id where c.client_id = cl.id), '[]'::json)
            else '[]'::json end as comments,
            case when ${history} then coalesce((
              select json_agg(json_build_object('id', h.id, 'kind', h.kind, 'data', h.data,
                                                'created_at', h.created_at,
                                                'actor', case when u.id is null then null
                                                              else json_build_object('id', u.id, 'name', u.name) end)
                              order by h.created_at desc, h.id desc)
                from client_history h left join users u on u.id = h.actor_id
               where h.client_id = cl.id), '[]'::json)
            else '[]'::json end as history`;

/** Everything of a client's profile in one query (comments only when `comments`). */
export const findProfile = (q: Queryable, orgId: string, id: string, comments: boolean) =>
  maybe<ProfileRow>(
    q,
    `select ${profileColumns('$3', 'true')} from clients cl where cl.id = $1 and cl.organisation_id = $2`,
    [id, orgId, comments],
  );

/**
 * The clients' profiles and contacts without comments and history, in the order of `ids` (any organisation's: the
 * caller's transaction made or changed them): what client events carry.
 */
export const eventProfiles = (q: Queryable, ids: string[]) =>
  q.query<ProfileRow & ClientRow>(
    `select cl.organisation_id, ${CONTACTS_COLUMN}, ${profileColumns('false', 'false')}
       from clients cl where cl.id = any($1::uuid[]) order by array_position($1::uuid[], cl.id)`,
    [ids],
  );

export type ProfilePatch = {
  name?: string;
  managerId?: string | null;
  tags?: string[];
  fields?: { name: string; value: string }[];
  statusId?: string | null;
  spam?: boolean;
  sessionStatus?: SessionStatus | null;
  advertisingOptOut?: boolean;
};

/** Sets the given columns of a client (a key left out keeps its value). */
export async function patchClient(q: Queryable, orgId: string, id: string, p: ProfilePatch) {
  await q.query(
    `update clients set name = coalesce($3, name),
            personal_manager_id = case when $4 then $5::uuid else personal_manager_id end,
            tags = coalesce($6::text[], tags),
            fields = coalesce($7::jsonb, fields),
            status_id = case when $8 then $9::uuid else status_id end,
            spam = coalesce($10, spam),
            session_status = case when $11 then $12 else session_status end,
            advertising_opted_out_at = case when $13::boolean is null then advertising_opted_out_at
                                            when $13 then coalesce(advertising_opted_out_at, now()) end,
            updated_at = now()
      where id = $1 and organisation_id = $2`,
    [
      id,
      orgId,
      p.name ?? null,
      p.managerId !== undefined,
      p.managerId ?? null,
      p.tags ?? null,
      p.fields ? JSON.stringify(p.fields) : null,
      p.statusId !== undefined,
      p.statusId ?? null,
      p.spam ?? null,
      p.sessionStatus !== undefined,
      p.sessionStatus ?? null,
      p.advertisingOptOut ?? null,
    ],
  );
}

/** The client's row locked for a profile change (merge and block take the same lock). */
export const lockClient = (q: Queryable, orgId: string, id: string) =>
  maybe<{ id: string; blocked_at: Date | null }>(
    q,
    'select id, blocked_at from clients where id = $1 and organisation_id = $2 for update',
    [id, orgId],
  );

/** The first of `values` another client of the organisation owns, if any. */
export const contactOwnedElsewhere = (
  q: Queryable,
  orgId: string,
  clientId: string,
  values: { kind: ContactKind; value: string }[],
) =>
  maybe<{ kind: ContactKind; value: string }>(
    q,
    `select d.kind, d.value from client_contacts d
       join unnest($3::text[], $4::text[]) as v(kind, value) on d.kind = v.kind and d.value = v.value
      where d.organisation_id = $1 and d.client_id <> $2 limit 1`,
    [orgId, clientId, values.map((v) => v.kind), values.map((v) => v.value)],
  );

/** Replaces the client's phones and e-mails. */
export async function replaceContacts(
  q: Queryable,
  orgId: string,
  clientId: string,
  values: { kind: ContactKind; value: string }[],
) {
  await q.query(
    `delete from client_contacts where client_id = $1
       and (kind, value) not in (select * from unnest($2::text[], $3::text[]))`,
    [clientId, values.map((v) => v.kind), values.map((v) => v.value)],
  );
  await q.query(
    `insert into client_contacts (organisation_id, client_id, kind, value)
     select $1, $2, v.kind, v.value from unnest($3::text[], $4::text[]) as v(kind, value)
     on conflict (organisation_id, kind, value) do nothing`,
    [orgId, clientId, values.map((v) => v.kind), values.map((v) => v.value)],
  );
}

export async function replaceCompanies(q: Queryable, orgId: string, clientId: string, companyIds: string[]) {
  await q.query(
    'delete from client_company_links where client_id = $1 and not (company_id = any($2::uuid[]))',
    [clientId, companyIds],
  );
  await q.query(
    `insert into client_company_links (organisation_id, client_id, company_id) select $3, $1, unnest($2::uuid[])
     on conflict do nothing`,
    [clientId, companyIds, orgId],
  );
}

export const countOwned = async (
  q: Queryable,
  table: 'companies' | 'client_statuses' | 'users',
  orgId: string,
  ids: string[],
) =>
  (
    await q.query<{ n: number }>(
      `select count(*)::int as n from ${table} where organisation_id = $1 and id = any($2::uuid[])`,
      [orgId, ids],
    )
  )[0].n;

export const insertComment = (
  q: Queryable,
  orgId: string,
  clientId: string,
  authorId: string,
  text: string,
) =>
  q.query(
    'insert into client_comments (organisation_id, client_id, author_id, text) values ($1, $2, $3, $4)',
    [orgId, clientId, authorId, text],
  );

export const insertHistory = (
  q: Queryable,
  orgId: string,
  clientId: string,
  kind: 'merged' | 'blocked' | 'unblocked',
  actorId: string | null,
  data: Record<string, unknown>,
) =>
  q.query(
    'insert into client_history (organisation_id, client_id, kind, actor_id, data) values ($1, $2, $3, $4, $5)',
    [orgId, clientId, kind, actorId, JSON.stringify(data)],
  );

export type ListFilters = {
  search?: string;
  statusId?: string;
  companyId?: string;
  managerId?: string;
  blocked?: boolean;
  cursor?: string;
  limit: number;
};
export type ListRow = {
  id: string;
  name: string;
  tags: string[];
  status: { id: string; name: string; color: ClientStatusColor } | null;
  manager: RefRow | null;
  details: { kind: ContactKind; value: string }[];
  spam: boolean;
  blocked_at: Date | null;
  created_at: Date;
};

/**
 * The clients list, newest first by id (keyset: `cursor` is the last id of the previous page; no offset, no
 * count). `search` matches a name's beginning (any case), a phone or an e-mail exactly (normalised) or a tag;
 * `viewerId` (no AUTHORITY_ALL_CHATS) keeps the clients they handled or manage.
 */
export function listClients(
  q: Queryable,
  orgId: string,
  f: ListFilters & { phone: string | null; email: string | null; viewerId: string | null },
) {
  const params: unknown[] = [orgId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  // Only the filters given become conditions, so each can use its index (no "$n is null or ..." in the plan).
  const where = ['cl.organisation_id = $1'];
  if (f.search) {
    const prefix = `${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // Each way of matching is its own index probe (name prefix, tags GIN, the contacts' unique key); the matches
    // are then fetched by primary key and sorted (never a scan of the organisation's clients).
    where.push(`cl.id = any(array(
      select n.id from clients n where n.organisation_id = $1 and lower(n.name) like ${p(prefix)}
      union
      select g.id from clients g where g.tags @> array[${p(f.search)}::text] and g.organisation_id = $1
      union
      select d.client_id from client_contacts d
       where d.organisation_id = $1 and d.kind = 'phone' and d.value = ${p(f.phone)}
      union
      select d.client_id from client_contacts d
       where d.organisation_id = $1 and d.kind = 'email' and d.value = ${p(f.email)}))`);
  }
  if (f.statusId) where.push(`cl.status_id = ${p(f.statusId)}`);
  if (f.companyId)
    where.push(
      `cl.id = any(array(select l.client_id from client_company_links l where l.company_id = ${p(f.companyId)}))`,
    );
  if (f.managerId) where.push(`cl.personal_manager_id = ${p(f.managerId)}`);
  if (f.blocked !== undefined) where.push(f.blocked ? 'cl.blocked_at is not null' : 'cl.blocked_at is null');
  if (f.cursor) where.push(`cl.id < ${p(f.cursor)}`);
  if (f.viewerId) {
    const me = p(f.viewerId);
    where.push(`(cl.personal_manager_id = ${me}
                 or exists (select 1 from chats c where c.client_id = cl.id and c.operator_id = ${me}))`);
  }
  return q.query<ListRow>(
    `select cl.id, cl.name, cl.tags, cl.spam, cl.blocked_at, cl.created_at,
            (select json_build_object('id', u.id, 'name', u.name) from users u where u.id = cl.personal_manager_id)
              as manager,
            (select json_build_object('id', s.id, 'name', s.name, 'color', s.color) from client_statuses s
              where s.id = cl.status_id) as status,
            coalesce((select json_agg(json_build_object('kind', d.kind, 'value', d.value)
                                      order by d.kind desc, d.created_at, d.value)
                        from client_contacts d where d.client_id = cl.id), '[]'::json) as details
       from clients cl
      where ${where.join('\n        and ')}
      order by cl.id desc
      limit ${p(f.limit + 1)}`,
    params,
  );
}
