import type { Queryable } from '../../db/index.ts';

/*
 * SMS sent through an outside SMS service (issue 33, §1 'SMS-system import'), written into the clients' histories
 * by the conversation module; the sms-import module decides what to import. Each contact of an `sms` channel keeps
 * its SMS in one closed chat of that channel (`chats.imported`): the client's history shows it, the operators'
 * lists and the reports do not (it has no 'created' history line), and nothing in it is ever delivered (no outbox).
 */

/** One SMS to store: the contact and client it went to, and what the service says of it. */
export type ImportedMessageInput = {
  contactId: string;
  clientId: string;
  text: string;
  sentAt: Date;
  status: 'sent' | 'delivered' | 'read' | 'undelivered';
  reason: string | null;
  externalId: string;
};

/**
 * Writes a chunk of imported SMS in ONE statement, as messages of kind 'mailing' sent at their own time with the
 * service's status. Idempotent by (channel, the service's message id): one already stored (an earlier import, the
 * callback, or the same id twice in the chunk) is skipped. Answers how many were stored.
 */
export async function writeImportedMessages(
  q: Queryable,
  m: { orgId: string; channelId: string; teamId: string; now: Date; items: ImportedMessageInput[] },
): Promise<number> {
  if (!m.items.length) return 0;
  const col = <K extends keyof ImportedMessageInput>(k: K) => m.items.map((i) => i[k]);
  const [row] = await q.query<{ n: number }>(WRITE, [
    m.orgId,
    m.channelId,
    col('contactId'),
    col('clientId'),
    col('text'),
    m.items.map((i) => i.sentAt.toISOString()),
    col('status'),
    col('reason'),
    col('externalId'),
    m.teamId,
    m.now,
  ]);
  return row?.n ?? 0;
}

/** Which of these service ids the channel already stored (a re-import's rows skip everything else). */
export async function storedImportIds(q: Queryable, channelId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await q.query<{ id: string }>(
    `select m.external_message_id as id from messages m
      where m.channel_id = $1 and m.external_message_id = any($2::text[])`,
    [channelId, ids],
  );
  return new Set(rows.map((r) => r.id));
}

const WRITE = `
  with i as (
    select * from unnest($3::uuid[], $4::uuid[], $5::text[], $6::timestamptz[], $7::text[], $8::text[], $9::text[])
      as i(contact_id, client_id, text, at, status, reason, ext)
  ), fresh as (
    -- Already stored ones are left out before any chat is made for them (an index probe each).
    select i.* from i
     where not exists (select 1 from messages d where d.channel_id = $2 and d.external_message_id = i.ext)
  ), ex as (
    select distinct on (c.contact_id) c.contact_id, c.id from chats c
     where c.channel_id = $2 and c.contact_id in (select contact_id from fresh)
     order by c.contact_id, c.created_at desc
  ), nc as (
    -- A new contact's history chat, with its last message (a chat inserted here is not seen by an update below).
    insert into chats (organisation_id, channel_id, client_id, contact_id, team_id, session_no, status, created_at,
                       updated_at, closed_at, last_message_text, last_message_at, imported)
    select $1, $2, f.client_id, f.contact_id, $10,
           (select count(*) + 1 from chats h where h.client_id = f.client_id), 'closed', f.first, $11, $11,
           f.last_text, f.last_at, true
      from (select contact_id, (array_agg(client_id))[1] as client_id, min(at) as first, max(at) as last_at,
                   (array_agg(text order by at desc))[1] as last_text
              from fresh where contact_id not in (select contact_id from ex) group by contact_id) f
    returning id, contact_id
  ), m as (
    insert into messages (organisation_id, chat_id, channel_id, direction, kind, internal, text, status,
                          status_reason, external_message_id, created_at)
    select $1, coalesce(ex.id, nc.id), $2, 'out', 'mailing', false, f.text, f.status, f.reason, f.ext, f.at
      from fresh f left join ex on ex.contact_id = f.contact_id left join nc on nc.contact_id = f.contact_id
    on conflict (channel_id, external_message_id) do nothing
    returning chat_id, created_at, text
  ), last as (
    select distinct on (chat_id) chat_id, created_at, text, min(created_at) over (partition by chat_id) as first
      from m where chat_id in (select id from ex) order by chat_id, created_at desc
  ), u as (
    -- A known contact's chat: its last message moves only forward; an older SMS makes it start earlier.
    update chats c
       set last_message_text = case when c.last_message_at is null or c.last_message_at <= last.created_at
                                    then last.text else c.last_message_text end,
           last_message_at = greatest(c.last_message_at, last.created_at),
           created_at = least(c.created_at, last.first), updated_at = $11
      from last where c.id = last.chat_id
  )
  select count(*)::int as n from m`;
