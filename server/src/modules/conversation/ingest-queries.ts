import type { Attachment, ChatStatus } from '@smartconnect/contracts';
import { type Queryable, statement } from '../../db/index.ts';
import { PIPELINE_HANDOVER_SECONDS, pipelineJobsCte } from '../../jobs/pipeline-queries.ts';
import { armTimersCte } from '../../jobs/queries.ts';
import { newClientsCte, newContactsCte, renamedClientsCte, renamedContactsCte } from '../clients/contacts.ts';
import { DUE } from './due-times.ts';

/*
 * The ingest statement (queries.ts re-exports it): a batch of inbound messages stored in one statement.
 */

/** One message of an ingest batch (ingestBatch). */
export type BatchAppendInput = {
  orgId: string;
  channelId: string;
  /** The channel's team: a new chat starts in its queue. */
  teamId: string;
  externalClientId: string;
  /** The client's name as the provider sends it now ('' when it sends none). */
  clientName: string;
  /** The client's handle at the provider ('' when it sends none). */
  username: string;
  /** When it arrived: the chat's timestamps and timers count from it. */
  now: Date;
  /** The message's created_at, `now` with microseconds: strictly increasing in arrival order. */
  at: string;
  text: string;
  attachments: Attachment[];
  externalMessageId: string;
  halfExpiredMinutes: number | null;
  expiredMinutes: number | null;
  /** Enqueue the message's pipeline job even into an open chat (the organisation's automation sees every message). */
  pipeline: boolean;
  /** The payload of the button pressed (a postback), for the bot runtime; null for a typed message. */
  payload?: string | null;
};

/**
 * Per input message, in input order: stored (with what its events need: its chat as it is after the statement),
 * already stored (duplicate), or neither (a race: the caller runs it again in a statement of its own).
 */
export type BatchAppendRow = {
  ord: number;
  duplicate_id: string | null;
  duplicate_chat_id: string | null;
  message_id: string | null;
  chat_id: string | null;
  /** The statement opened this chat (a new client, or a new session of a known one). */
  chat_created: boolean | null;
  /** A pipeline job was enqueued with the message. */
  queued: boolean | null;
  /** The client is blacklisted: the message was stored in their latest dialog, closed (no events, no job). */
  blocked: boolean;
  chat_status: ChatStatus | null;
  operator_id: string | null;
  team_id: string | null;
  /** The message's client; made by this statement (a new contact's), or renamed by it (the provider's new name). */
  client_id: string | null;
  client_created: boolean;
  client_renamed: boolean;
};

/**
 * THE ingest statement: many inbound messages in ONE statement (one round trip, atomic), whether their chats are
 * open or not. Per message, in input order:
 * - dedupe: a message already stored (channel, provider id) changes nothing and answers duplicate;
 * - the client: its contact and client are created when first seen (named after the provider's name, else its
 *   id); a known contact takes the provider's current name and handle, and its client a changed name (the rows say
 *   which clients were made or renamed, for their events);
 * - the chat: the contact's open chat, locked (in id order; one closed meanwhile drops out and its messages miss),
 *   or a new session in the channel's team queue (session number, history 'created' or 'reopen'), carrying all of
 *   the batch's messages of that client;
 * - the message, inserted; only what was really inserted changes anything else (a copy stored meanwhile by another
 *   writer is skipped by the unique key and leaves everything as it was);
 * - the chat's last message and client-message times; auto-close (re)armed from the last message; the overdue
 *   clocks started when the batch opens an unanswered window (a running clock is kept);
 * - a pipeline job (jobs/pipeline.ts) for each message of a new chat, and for every message when `pipeline`.
 * Events are the caller's (ingest.ts builds them with the conversation module's presenters and audiences).
 * A message that is neither stored nor a duplicate lost a race (a concurrent writer created its contact or chat,
 * or closed its chat): a new statement sees that writer's commit. The input must not hold one (channel, external
 * id) twice.
 */
export async function ingestBatch(q: Queryable, items: BatchAppendInput[]): Promise<BatchAppendRow[]> {
  const col = <K extends keyof BatchAppendInput>(k: K) => items.map((i) => i[k]);
  return q.query<BatchAppendRow>(INGEST_BATCH, [
    col('orgId'),
    col('channelId'),
    col('externalClientId'),
    col('at'),
    col('text'),
    items.map((i) => JSON.stringify(i.attachments)),
    col('externalMessageId'),
    col('halfExpiredMinutes'),
    col('expiredMinutes'),
    items.map((i) => i.now.toISOString()),
    col('clientName'),
    col('pipeline'),
    col('teamId'),
    col('username'),
    items.map((i) => i.payload ?? null),
  ]);
}

/** The ingest batch's one statement (ingestBatch), prepared: it is the longest statement and runs per batch. */
const INGEST_BATCH = statement(
  'ingest_batch',
  `with i as (
       select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::text[],
                            $7::text[], $8::int[], $9::int[], $10::timestamptz[], $11::text[], $12::bool[], $13::uuid[],
                            $14::text[], $15::text[])
         with ordinality
         as i(org_id, channel_id, ext_client, at, text, attachments, ext_id, half, expired, now, client_name,
              pipeline, team_id, username, payload, ord)
     ), x as (
       -- Index probes per message (LIMIT keeps each a nested loop whatever the table sizes).
       select i.*, d.id as duplicate_id, d.chat_id as duplicate_chat_id
         from i left join lateral (
           select m.id, m.chat_id from messages m
            where m.channel_id = i.channel_id and m.external_message_id = i.ext_id limit 1
         ) d on true
     ), nx as (
       select * from x where duplicate_id is null
     ), p as (
       -- Per client of the batch: what a new contact and a new chat start with.
       select channel_id, ext_client, (array_agg(org_id))[1] as org_id, (array_agg(team_id))[1] as team_id,
              (array_agg(now order by ord))[1] as first_at, (array_agg(now order by ord desc))[1] as last_at,
              (array_agg(text order by ord desc))[1] as last_text,
              (array_agg(client_name order by client_name = '', ord desc))[1] as name,
              (array_agg(username order by username = '', ord desc))[1] as username
         from nx group by channel_id, ext_client
     ), ce as (
       select p.channel_id, p.ext_client, ct.id as contact_id, ct.client_id, cb.blocked_at is not null as blocked
         from p join contacts ct on ct.channel_id = p.channel_id and ct.external_id = p.ext_client
         join clients cb on cb.id = ct.client_id
     ), cn as (
       ${newContactsCte(`select p.org_id, p.channel_id, uuid_generate_v7(), p.ext_client,
              coalesce(nullif(p.name, ''), p.ext_client), nullif(p.username, '')
         from p
        where not exists (select 1 from ce where ce.channel_id = p.channel_id and ce.ext_client = p.ext_client)`)}
     ), cln as (
       ${newClientsCte('cn')}
     ), ct as (
       select channel_id, ext_client, contact_id, client_id, false as new_contact, blocked from ce
       union all
       select channel_id, external_id, id, client_id, true, false from cn
     ), oc as (
       select c.id, c.contact_id from chats c join ce on ce.contact_id = c.contact_id where c.status <> 'closed'
     ), l as materialized (
       -- The open chats first, locked in id order: still open once locked (a close committed meanwhile drops one).
       select c.id, c.contact_id from chats c
        where c.id in (select id from oc) and c.status <> 'closed'
        order by c.id for no key update
     ), bc as (
       -- A blacklisted client without an open dialog: their message is kept in their latest dialog (closed).
       select distinct on (ce.contact_id) ce.contact_id, c.id from ce
         join chats c on c.client_id = ce.client_id and c.contact_id = ce.contact_id
        where ce.blocked and not exists (select 1 from oc where oc.contact_id = ce.contact_id)
        order by ce.contact_id, c.created_at desc, c.id desc
     ), chn as (
       insert into chats (organisation_id, channel_id, client_id, contact_id, team_id, session_no, created_at,
                          updated_at, last_client_message_at, unanswered_since, last_message_text, last_message_at,
                          status, closed_at)
       select p.org_id, p.channel_id, ct.client_id, ct.contact_id, p.team_id,
              (select count(*) + 1 from chats h where h.client_id = ct.client_id),
              p.first_at, p.last_at, p.last_at, case when ct.blocked then null else p.first_at end, p.last_text, p.last_at,
              case when ct.blocked then 'closed' else 'waiting' end, case when ct.blocked then p.first_at end
         from p join ct on ct.channel_id = p.channel_id and ct.ext_client = p.ext_client
        where not exists (select 1 from oc where oc.contact_id = ct.contact_id)
          and not exists (select 1 from bc where bc.contact_id = ct.contact_id)
       on conflict (channel_id, contact_id) where status <> 'closed' do nothing
       returning id, organisation_id, contact_id, team_id, session_no, created_at
     ), k as (
       select nx.*, ct.contact_id, ct.client_id, ct.new_contact, coalesce(l.id, bc.id, chn.id) as chat_id,
              chn.id is not null and not ct.blocked as chat_created,
              -- A blacklisted client's message outside an open dialog: stored only (no timers, job or events).
              ct.blocked and l.id is null as blocked
         from nx
         join ct on ct.channel_id = nx.channel_id and ct.ext_client = nx.ext_client
         left join l on l.contact_id = ct.contact_id
         left join bc on bc.contact_id = ct.contact_id
         left join chn on chn.contact_id = ct.contact_id
        where coalesce(l.id, bc.id, chn.id) is not null
     ), m as (
       insert into messages (organisation_id, chat_id, channel_id, direction, kind, internal, text, attachments,
                             external_message_id, created_at, payload)
       select k.org_id, k.chat_id, k.channel_id, 'in', 'normal', false, k.text, k.attachments::jsonb, k.ext_id, k.at,
              k.payload
         from k order by k.ord
       on conflict (channel_id, external_message_id) do nothing
       returning id, chat_id, channel_id, external_message_id
     ), s as (
       -- The messages really inserted, with their input: everything below follows from these only.
       select k.*, m.id as message_id
         from m join k on k.channel_id = m.channel_id and k.ext_id = m.external_message_id
     ), a as (
       select chat_id, bool_or(chat_created) as created, bool_or(blocked) as blocked, (array_agg(org_id))[1] as org_id,
              (array_agg(team_id))[1] as team_id,
              (array_agg(now order by ord))[1] as first_at, (array_agg(now order by ord desc))[1] as last_at,
              (array_agg(text order by ord desc))[1] as last_text, min(half) as half, min(expired) as expired
         from s group by chat_id
     ), u as (
       update chats c set last_client_message_at = a.last_at,
              unanswered_since = case when a.blocked then c.unanswered_since
                                      else coalesce(c.unanswered_since, a.first_at) end,
              last_message_text = a.last_text, last_message_at = a.last_at, updated_at = a.last_at
         from a
        where c.id = a.chat_id and not a.created
        returning c.id, c.organisation_id, c.status, c.operator_id, c.team_id, c.unanswered_since = a.first_at as opens,
                  a.first_at, a.last_at, a.half, a.expired, a.blocked
     ), w as (
       -- Every chat that received messages, as its timers see it.
       select u.id, u.organisation_id, u.team_id, u.opens, u.first_at, u.last_at, u.half, u.expired from u
        where not u.blocked
       union all
       select a.chat_id, a.org_id, a.team_id, true, a.first_at, a.last_at, a.half, a.expired from a
        where a.created and not a.blocked
     ), t as (
       -- Auto-close and inactivity close are re-armed; a running overdue clock is kept.
       ${armTimersCte(
         `select w.organisation_id, 'auto_close', w.id, ${DUE.autoClose.sql('w.last_at', 'tm.auto_close_minutes')}
         from w join teams tm on tm.id = w.team_id where tm.auto_close_minutes is not null
       union all
       select w.organisation_id, 'inactivity_close', w.id, ${DUE.inactivityClose.sql('w.last_at', 'tm.inactivity_hours')}
         from w join teams tm on tm.id = w.team_id where tm.inactivity_hours > 0
       union all
       select w.organisation_id, 'overdue_half', w.id, ${DUE.overdue.sql('w.first_at', 'w.half')}
         from w where w.half is not null and w.opens
       union all
       select w.organisation_id, 'overdue_expired', w.id, ${DUE.overdue.sql('w.first_at', 'w.expired')}
         from w where w.expired is not null and w.opens`,
         ['auto_close', 'inactivity_close'],
       )}
     ), h as (
       insert into chat_history (organisation_id, chat_id, kind, to_team_id, created_at)
       select chn.organisation_id, chn.id, case when chn.session_no > 1 then 'reopen' else 'created' end,
              chn.team_id, chn.created_at
         from chn where chn.id in (select chat_id from s)
     ), n as (
       -- A known contact takes the latest name and handle the provider sends (an empty one changes nothing).
       select ct.id as contact_id, ct.client_id, x.name, x.username,
              x.name is not null and x.name <> ct.name as renamed
         from (select s.contact_id,
                      (array_agg(s.client_name order by s.ord desc) filter (where s.client_name <> ''))[1] as name,
                      (array_agg(s.username order by s.ord desc) filter (where s.username <> ''))[1] as username
                 from s where not s.new_contact group by s.contact_id) x
         join contacts ct on ct.id = x.contact_id
     ), cr as (
       ${renamedContactsCte('n')}
     ), cl as (
       ${renamedClientsCte('cr')}
     ), pj as (
       -- Due a little later: the storing instance runs them at once (jobs/pipeline.ts runJobsNow); the pollers
       -- take what it leaves.
       ${pipelineJobsCte(`select s.org_id, s.message_id, s.chat_id, s.chat_created, s.at,
              s.now + make_interval(secs => ${PIPELINE_HANDOVER_SECONDS})
         from s where (s.pipeline or s.chat_created) and not s.blocked`)}
     )
     select x.ord::int as ord, x.duplicate_id, x.duplicate_chat_id, s.message_id, s.chat_id, s.chat_created,
            (s.pipeline or s.chat_created) and not s.blocked as queued, coalesce(s.blocked, false) as blocked,
            case when s.chat_created then 'waiting' else u.status end as chat_status,
            case when s.chat_created then null else u.operator_id end as operator_id,
            case when s.chat_created then s.team_id else u.team_id end as team_id,
            s.client_id, coalesce(s.new_contact, false) as client_created,
            coalesce(s.client_id in (select id from cl), false) as client_renamed
       from x
       left join s on s.ord = x.ord
       left join u on u.id = s.chat_id
      order by x.ord`,
);
