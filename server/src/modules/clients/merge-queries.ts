import { PLACEHOLDER_NAME_SQL } from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';
import { moveClientChats } from '../conversation/client-merge.ts';

/**
 * The open chats of the clients, locked in id order (FOR NO KEY UPDATE): the order the ingest statement locks
 * chats in, taken before the clients' rows, as ingest does (it updates a client's name after its chats).
 */
export const lockOpenChats = (q: Queryable, clientIds: string[]) =>
  q.query(
    "select id from chats where client_id = any($1::uuid[]) and status <> 'closed' order by id for no key update",
    [clientIds],
  );

/** The clients' rows locked in id order. */
export const lockClients = (q: Queryable, orgId: string, ids: string[]) =>
  q.query<{ id: string; name: string }>(
    'select id, name from clients where organisation_id = $1 and id = any($2::uuid[]) order by id for update',
    [orgId, ids],
  );

/** What a merge of `sourceIds` into a client moves (the preview, and the merge's history record). */
export const mergeCounts = (q: Queryable, sourceIds: string[]) =>
  maybe<{
    contacts: number;
    details: number;
    chats: number;
    messages: number;
    comments: number;
    fields: number;
    tags: string[];
  }>(
    q,
    `select (select count(*)::int from contacts where client_id = any($1::uuid[])) as contacts,
            (select count(*)::int from client_contacts where client_id = any($1::uuid[])) as details,
            (select count(*)::int from chats where client_id = any($1::uuid[])) as chats,
            (select count(*)::int from messages m join chats c on c.id = m.chat_id
              where c.client_id = any($1::uuid[])) as messages,
            (select count(*)::int from client_comments where client_id = any($1::uuid[])) as comments,
            (select coalesce(sum(jsonb_array_length(fields)), 0)::int from clients where id = any($1::uuid[])) as fields,
            coalesce((select array_agg(distinct t order by t) from clients, unnest(tags) t
                       where id = any($1::uuid[])), '{}') as tags`,
    [sourceIds],
  );

/**
 * Moves everything of the sources to the target, then deletes the sources (rows already locked): channel contacts
 * and their chats (with the chats' messages), phones and e-mails, comments, history; the target keeps its own
 * values and takes the sources' where it has none (manager, status, session status); tags, companies and fields are
 * united (a field name the target has keeps the target's value); spam if any of them was.
 */
export async function moveAll(q: Queryable, targetId: string, sourceIds: string[]) {
  const args = [targetId, sourceIds];
  await q.query('update contacts set client_id = $1 where client_id = any($2::uuid[])', args);
  await moveClientChats(q, targetId, sourceIds);
  await q.query('update client_contacts set client_id = $1 where client_id = any($2::uuid[])', args);
  await q.query('update client_comments set client_id = $1 where client_id = any($2::uuid[])', args);
  await q.query('update client_history set client_id = $1 where client_id = any($2::uuid[])', args);
  await q.query(
    `insert into client_company_links (organisation_id, client_id, company_id)
     select organisation_id, $1, company_id from client_company_links where client_id = any($2::uuid[])
     on conflict do nothing`,
    args,
  );
  await q.query(
    `with s as (select * from clients where id = any($2::uuid[]) order by id)
     update clients t set
       personal_manager_id = coalesce(t.personal_manager_id, (select personal_manager_id from s
                                                                where personal_manager_id is not null limit 1)),
       status_id = coalesce(t.status_id, (select status_id from s where status_id is not null limit 1)),
       session_status = coalesce(t.session_status, (select session_status from s
                                                     where session_status is not null limit 1)),
       spam = t.spam or exists (select 1 from s where s.spam),
       tags = array(select distinct x from unnest(t.tags || (select coalesce(array_agg(u), '{}') from s, unnest(s.tags) u)) x
                    order by x),
       fields = t.fields || coalesce((select jsonb_agg(f) from s, jsonb_array_elements(s.fields) f
                                       where not exists (select 1 from jsonb_array_elements(t.fields) tf
                                                          where lower(tf->>'name') = lower(f->>'name'))), '[]'::jsonb),
       updated_at = now()
     where t.id = $1`,
    args,
  );
  await q.query('delete from clients where id = any($1::uuid[])', [sourceIds]);
}

/**
 * Groups of two or more clients that look like one person: the same phone or e-mail on their channel contacts
 * (the site chat's form), or similar names (one spelling's skeleton key, migration 082). At most `limit` groups, largest first.
 */
export const suggestions = (q: Queryable, orgId: string, limit: number) =>
  q.query<{ reason: 'phone' | 'email' | 'name'; value: string; clients: { id: string; name: string }[] }>(
    `with byphone as (
       select 'phone' as reason, ct.phone as value, array_agg(distinct ct.client_id) as ids
         from contacts ct where ct.organisation_id = $1 and ct.phone is not null and ct.phone <> ''
        group by ct.phone having count(distinct ct.client_id) > 1
     ), byemail as (
       select 'email', lower(ct.email), array_agg(distinct ct.client_id)
         from contacts ct where ct.organisation_id = $1 and ct.email is not null and ct.email <> ''
        group by lower(ct.email) having count(distinct ct.client_id) > 1
     ), byname as (
       -- Similar names: one skeleton key (client_name_key, migration 082); the value shown is the first name.
       select 'name', (array_agg(cl.name order by cl.id))[1], array_agg(cl.id)
         from clients cl where cl.organisation_id = $1 and client_name_key(cl.name) is not null
          -- A stand-in ('Visitor #4821') says nothing about who someone is.
          and cl.name !~ $3
        group by client_name_key(cl.name) having count(*) > 1
     ), g as (
       select * from byphone union all select * from byemail union all select * from byname
     )
     select g.reason, g.value,
            (select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.id)
               from clients c where c.id = any(g.ids)) as clients
       from g order by cardinality(g.ids) desc, g.reason, g.value limit $2`,
    [orgId, limit, PLACEHOLDER_NAME_SQL],
  );
