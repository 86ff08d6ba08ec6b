import type { Queryable } from '../../db/index.ts';
import type { Tx } from '../../realtime/emit.ts';
import { emitClientEvents } from './events.ts';

/**
 * Contacts known by a phone (issue 33: SMS imported from an outside service), written by their owner: the contact
 * of each phone in a channel whose ids are phones (the `sms` channel: the digits of the E.164 number), made when new.
 * A new contact joins the client who already has that phone (a contact of another channel with it, or a phone of
 * the client's profile); with none, a new client named by the phone is made, the phone kept on their profile.
 */
export type PhoneContact = { phone: string; contactId: string; clientId: string };

export async function contactsByPhone(
  tx: Pick<Tx, 'q' | 'emit'>,
  orgId: string,
  channelId: string,
  phones: string[],
): Promise<Map<string, PhoneContact>> {
  const { q } = tx;
  const unique = [...new Set(phones)];
  if (!unique.length) return new Map();
  const rows = await q.query<{ phone: string; contact_id: string; client_id: string; new_client: boolean }>(
    PHONE_CONTACTS,
    [orgId, channelId, unique],
  );
  await emitClientEvents(
    tx,
    orgId,
    'client.created',
    rows.filter((r) => r.new_client).map((r) => r.client_id),
  );
  const found = new Map(
    rows.map((r) => [r.phone, { phone: r.phone, contactId: r.contact_id, clientId: r.client_id }]),
  );
  const raced = unique.filter((p) => !found.has(p));
  // A concurrent writer added these between the statement's snapshot and its insert: read them back.
  if (raced.length)
    for (const r of await contactsOfPhones(q, channelId, raced))
      found.set(r.phone, { phone: r.phone, contactId: r.contact_id, clientId: r.client_id });
  return found;
}

/*
 * One statement per chunk: the known contacts by id (an index probe each), the missing ones' owners by phone (the
 * profile's phones, then the newest contact of another channel with it), then the new contacts (a concurrent
 * import making the same one loses nothing: ON CONFLICT, and the last part reads it back), their new clients and
 * those clients' profile phones. The new clients' client.created events are written in the caller's transaction.
 */
const PHONE_CONTACTS = `
  with i as (
    select p as phone, substr(p, 2) as ext from unnest($3::text[]) as p
  ), known as (
    select i.phone, ct.id, ct.client_id from i join contacts ct on ct.channel_id = $2 and ct.external_id = i.ext
  ), missing as (
    select i.* from i where not exists (select 1 from known k where k.phone = i.phone)
  ), owner as (
    select m.phone, m.ext,
           coalesce(
             (select cc.client_id from client_contacts cc
               where cc.organisation_id = $1 and cc.kind = 'phone' and cc.value = m.phone limit 1),
             (select o.client_id from contacts o
               where o.organisation_id = $1 and o.phone = m.phone order by o.created_at desc limit 1)
           ) as client_id
      from missing m
  ), planned as (
    select o.phone, o.ext, coalesce(o.client_id, uuid_generate_v7()) as client_id, o.client_id is null as new_client
      from owner o
  ), added as (
    insert into contacts (organisation_id, channel_id, client_id, external_id, name, phone)
    select $1, $2, p.client_id, p.ext, p.phone, p.phone from planned p
    on conflict (channel_id, external_id) do nothing
    returning id, client_id, external_id
  ), new_clients as (
    insert into clients (id, organisation_id, name)
    select p.client_id, $1, p.phone from planned p join added a on a.client_id = p.client_id where p.new_client
    returning id
  ), profile_phones as (
    insert into client_contacts (organisation_id, client_id, kind, value)
    select $1, p.client_id, 'phone', p.phone from planned p join new_clients n on n.id = p.client_id
    on conflict (organisation_id, kind, value) do nothing
  )
  select k.phone, k.id as contact_id, k.client_id, false as new_client from known k
  union all
  select '+' || a.external_id, a.id, a.client_id, a.client_id in (select id from new_clients) from added a`;

const contactsOfPhones = (q: Queryable, channelId: string, phones: string[]) =>
  q.query<{ phone: string; contact_id: string; client_id: string }>(
    `select '+' || ct.external_id as phone, ct.id as contact_id, ct.client_id from contacts ct
      where ct.channel_id = $1 and ct.external_id = any($2::text[])`,
    [channelId, phones.map((p) => p.slice(1))],
  );
