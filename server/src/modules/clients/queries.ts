import type { ClientDto } from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';

export type ClientRow = {
  id: string;
  organisation_id: string;
  name: string;
  personal_manager_id: string | null;
  contacts: ClientDto['contacts'];
};

/** A client's channel contacts as ClientRow.contacts, of `clients cl`. */
export const CONTACTS_COLUMN = `coalesce((select json_agg(json_build_object('channelId', ct.channel_id,
                                                        'externalId', ct.external_id, 'name', ct.name,
                                                        'username', ct.username, 'email', ct.email, 'phone', ct.phone)
                                      order by ct.created_at)
                        from contacts ct where ct.client_id = cl.id), '[]'::json) as contacts`;

export const findClient = (q: Queryable, orgId: string, id: string) =>
  maybe<ClientRow>(
    q,
    `select cl.id, cl.organisation_id, cl.name, cl.personal_manager_id, ${CONTACTS_COLUMN}
       from clients cl where cl.id = $1 and cl.organisation_id = $2`,
    [id, orgId],
  );

/**
 * Whether the viewer handles (or handled) a chat of this client, or may see it waiting: in one of their teams, or
 * on a channel visible to one of their teams (chats policy.canSee); a dialog closed before any operator took it (a
 * blacklisted client's) stays visible to those teams.
 */
export const seesClient = async (q: Queryable, clientId: string, userId: string) =>
  !!(await maybe(
    q,
    `with mine as (select array_agg(team_id) as ids from team_members where user_id = $2)
     select 1 from chats c join channels ch on ch.id = c.channel_id, mine
      where c.client_id = $1
        and (c.operator_id = $2
             or ((c.status = 'waiting' or (c.status = 'closed' and c.operator_id is null))
                 and (c.team_id = any(mine.ids) or ch.visible_team_ids && mine.ids)))
      limit 1`,
    [clientId, userId],
  ));

/**
 * The details a client gave of themselves on their contact of a channel (a widget visitor's introduction): a new
 * name renames the contact, and the client too unless an operator renamed it (the same rule as a provider's new
 * name); empty values are left as they were. Answers the contact's client and whether anything changed; undefined
 * when there is no such contact (the client has not written yet).
 */
export async function setContactDetails(
  q: Queryable,
  channelId: string,
  externalId: string,
  d: { name?: string; email?: string; phone?: string },
): Promise<{ organisation_id: string; client_id: string; changed: boolean } | undefined> {
  return maybe<{ organisation_id: string; client_id: string; changed: boolean }>(
    q,
    `with old as (select id, client_id, name, email, phone from contacts where channel_id = $1 and external_id = $2),
          upd as (
            update contacts ct set name = coalesce($3, ct.name), email = coalesce($4, ct.email),
                   phone = coalesce($5, ct.phone)
              from old where ct.id = old.id
              returning ct.organisation_id, ct.client_id, ct.name, old.name as old_name,
                        (ct.name, ct.email, ct.phone) is distinct from (old.name, old.email, old.phone) as changed),
          cl as (
            update clients c set name = upd.name, updated_at = now()
              from upd where c.id = upd.client_id and c.name = upd.old_name and upd.name <> upd.old_name)
     select organisation_id, client_id, changed from upd`,
    [channelId, externalId, d.name || null, d.email || null, d.phone || null],
  );
}

/** The client blocked us or unsubscribed on this channel: replies will not reach them. */
export const markOptedOut = (q: Queryable, channelId: string, externalId: string, now: Date) =>
  q.query('update contacts set opted_out_at = $3 where channel_id = $1 and external_id = $2', [
    channelId,
    externalId,
    now,
  ]);

/** A contact's new address at the provider; none when another contact of the channel already has it. */
export const moveContactAddress = (
  q: Queryable,
  channelId: string,
  externalId: string,
  newExternalId: string,
) =>
  q.query(
    `update contacts set external_id = $3
      where channel_id = $1 and external_id = $2
        and not exists (select 1 from contacts o where o.channel_id = $1 and o.external_id = $3)`,
    [channelId, externalId, newExternalId],
  );

/*
 * The inbound path's writes of contacts and clients, as parts (data-modifying CTEs) of the ingest's one statement
 * (conversation/ingest-queries.ts): the ingest says which rows, these say how they are written.
 */

/**
 * New contacts: `rows` answers organisation_id, channel_id, client_id (the new client's id), external_id, name and
 * username. A contact another batch made meanwhile is left to it (the returned rows are the ones made here).
 */
export const newContactsCte = (rows: string) =>
  `insert into contacts (organisation_id, channel_id, client_id, external_id, name, username)
       ${rows}
       on conflict (channel_id, external_id) do nothing
       returning id, client_id, organisation_id, channel_id, external_id, name`;

/** The client of each new contact (`contacts`: the CTE of newContactsCte). */
export const newClientsCte = (contacts: string) =>
  `insert into clients (id, organisation_id, name) select client_id, organisation_id, name from ${contacts}`;

/**
 * A known contact takes the latest name and handle the provider sends (`names` answers contact_id, client_id, name,
 * username and renamed); answers the renamed ones' client_id, name and renamed.
 */
export const renamedContactsCte = (names: string) =>
  `update contacts ct set name = coalesce(n.name, ct.name), username = coalesce(n.username, ct.username)
         from ${names} n
        where ct.id = n.contact_id and (n.renamed or ct.username is distinct from coalesce(n.username, ct.username))
        returning n.client_id, n.name, n.renamed`;

/**
 * The client takes a new provider name (an operator's rename stays until the provider's name changes);
 * `renamed`: the CTE of renamedContactsCte. Answers the renamed clients' id (for their client.updated event).
 */
export const renamedClientsCte = (renamed: string) =>
  `update clients c set name = ${renamed}.name, updated_at = now() from ${renamed}
        where c.id = ${renamed}.client_id and ${renamed}.renamed and c.name <> ${renamed}.name
        returning c.id`;
