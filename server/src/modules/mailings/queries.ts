import type {
  Attachment,
  MailingAudience,
  MailingMarketingType,
  MailingPauseReason,
  MailingSkipReason,
  MailingStatus,
} from '@smartconnect/contracts';
import { maybe, one, type Queryable } from '../../db/index.ts';
import type { AudienceQuery } from './audience.ts';

export type TemplateRef = { name: string; languageCode: string; variables: string[] };

export type MailingRow = {
  id: string;
  organisation_id: string;
  name: string;
  channel_id: string;
  channel_name: string;
  channel_type: string;
  marketing_type: MailingMarketingType;
  text: string;
  attachments: Attachment[];
  template: TemplateRef | null;
  audience: MailingAudience;
  status: MailingStatus;
  pause_reason: MailingPauseReason | null;
  scheduled_at: Date | null;
  window_from: number | null;
  window_to: number | null;
  rate_per_second: number | null;
  created_by: string | null;
  author_name: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  time_zone: string;
  org_language: 'eng' | 'rus';
  channel_active: boolean;
  channel_team_id: string;
  /** Held back by the channel's daily limit of different recipients until then; null when not. */
  limit_wait_until: Date | null;
};

const columns = `m.id, m.organisation_id, m.name, m.channel_id, ch.name as channel_name, ch.type as channel_type,
  m.marketing_type, m.text, m.attachments, m.template, m.audience, m.status, m.pause_reason, m.scheduled_at,
  m.window_from, m.window_to, m.rate_per_second, m.created_by, (select name from users u where u.id = m.created_by)
  as author_name, m.created_at, m.started_at, m.finished_at, o.time_zone, o.language as org_language,
  ch.status = 'active' and ch.deleted_at is null as channel_active, ch.team_id as channel_team_id,
  m.limit_wait_until`;
const from = `mailings m join channels ch on ch.id = m.channel_id join organisations o on o.id = m.organisation_id`;

export const listMailings = (q: Queryable, orgId: string, status: MailingStatus | null) =>
  q.query<MailingRow>(
    `select ${columns} from ${from} where m.organisation_id = $1 and ($2::text is null or m.status = $2)
      order by m.created_at desc, m.id desc limit 500`,
    [orgId, status],
  );

export const findMailing = (q: Queryable, orgId: string, id: string) =>
  maybe<MailingRow>(q, `select ${columns} from ${from} where m.id = $1 and m.organisation_id = $2`, [
    id,
    orgId,
  ]);

export const lockMailing = (q: Queryable, orgId: string, id: string) =>
  maybe<MailingRow>(
    q,
    `select ${columns} from ${from} where m.id = $1 and m.organisation_id = $2 for no key update of m`,
    [id, orgId],
  );

export type MailingWrite = {
  name: string;
  channelId: string;
  marketingType: MailingMarketingType;
  text: string;
  attachments: Attachment[];
  template: TemplateRef | null;
  audience: MailingAudience;
  scheduledAt: string | null;
  windowFrom: number | null;
  windowTo: number | null;
  ratePerSecond: number | null;
};

const writeParams = (w: MailingWrite) => [
  w.name,
  w.channelId,
  w.marketingType,
  w.text,
  JSON.stringify(w.attachments),
  w.template ? JSON.stringify(w.template) : null,
  JSON.stringify(w.audience),
  w.scheduledAt,
  w.windowFrom,
  w.windowTo,
  w.ratePerSecond,
];

export const insertMailing = (q: Queryable, orgId: string, userId: string, w: MailingWrite, now: Date) =>
  one<{ id: string }>(
    q,
    `insert into mailings (name, channel_id, marketing_type, text, attachments, template, audience, scheduled_at,
                           window_from, window_to, rate_per_second, organisation_id, created_by, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) returning id`,
    [...writeParams(w), orgId, userId, now],
  );

export const updateMailing = (q: Queryable, id: string, w: MailingWrite, now: Date) =>
  q.query(
    `update mailings set name = $1, channel_id = $2, marketing_type = $3, text = $4, attachments = $5, template = $6,
            audience = $7, scheduled_at = $8, window_from = $9, window_to = $10, rate_per_second = $11,
            updated_at = $13
      where id = $12`,
    [...writeParams(w), id, now],
  );

export const deleteMailing = (q: Queryable, id: string) =>
  q.query('delete from mailings where id = $1', [id]);

export const setStatus = (
  q: Queryable,
  id: string,
  status: MailingStatus,
  now: Date,
  extra: { pauseReason?: MailingPauseReason | null; started?: boolean; finished?: boolean } = {},
) =>
  q.query(
    `update mailings set status = $2, pause_reason = $3, updated_at = $4,
            started_at = case when $5 then coalesce(started_at, $4) else started_at end,
            finished_at = case when $6 then $4 else finished_at end
      where id = $1`,
    [id, status, extra.pauseReason ?? null, now, extra.started ?? false, extra.finished ?? false],
  );

/** Plans a started mailing: its audience's recipients, each pending or skipped with the reason, in one statement. */
export const planRecipients = (q: Queryable, mailingId: string, orgId: string, audience: AudienceQuery) => {
  const n = audience.params.length;
  return q.query(
    `insert into mailing_recipients (mailing_id, organisation_id, contact_id, client_id, state, skip_reason)
     select $${n + 1}, $${n + 2}, a.contact_id, a.client_id,
            case when a.skip_reason is null then 'pending' else 'skipped' end, a.skip_reason
       from (${audience.sql}) a
     on conflict do nothing`,
    [...audience.params, mailingId, orgId],
  );
};

/** The audience's live count: its contacts, and how many of them each skip reason takes. */
export const countAudience = (q: Queryable, audience: AudienceQuery) =>
  q.query<{ skip_reason: MailingSkipReason | null; n: number }>(
    `select a.skip_reason, count(*)::int as n from (${audience.sql}) a group by a.skip_reason`,
    audience.params,
  );

export const countNotFound = async (q: Queryable, query: AudienceQuery) =>
  (await one<{ n: number }>(q, query.sql, query.params)).n;

export type StatsRow = {
  recipients: number;
  pending: number;
  skipped: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  replied: number;
  opted_out: number;
};

/** A mailing's figures: its recipients by state, and its sent messages by their delivery status now. */
export const mailingStats = (q: Queryable, mailingIds: string[]) =>
  q.query<StatsRow & { mailing_id: string }>(
    `select r.mailing_id, count(*)::int as recipients,
            count(*) filter (where r.state = 'pending')::int as pending,
            count(*) filter (where r.state = 'skipped')::int as skipped,
            count(*) filter (where msg.status in ('sent', 'delivered', 'read'))::int as sent,
            count(*) filter (where msg.status in ('delivered', 'read'))::int as delivered,
            count(*) filter (where msg.status = 'read')::int as read,
            count(*) filter (where msg.status = 'undelivered')::int as failed,
            count(*) filter (where r.replied_at is not null)::int as replied,
            count(*) filter (where r.opted_out_at is not null)::int as opted_out
       from mailing_recipients r left join messages msg on msg.id = r.message_id
      where r.mailing_id = any($1::uuid[])
      group by r.mailing_id`,
    [mailingIds],
  );

/** The skipped recipients of these mailings by reason. */
export const skippedBy = (q: Queryable, mailingIds: string[]) =>
  q.query<{ mailing_id: string; skip_reason: MailingSkipReason; n: number }>(
    `select mailing_id, skip_reason, count(*)::int as n from mailing_recipients
      where mailing_id = any($1::uuid[]) and state = 'skipped' group by mailing_id, skip_reason`,
    [mailingIds],
  );

/** The providers' reasons of these mailings' failed messages, the 20 most frequent of each. */
export const failureReasons = (q: Queryable, mailingIds: string[]) =>
  q.query<{ mailing_id: string; reason: string; n: number }>(
    `select mailing_id, reason, n from (
       select r.mailing_id, coalesce(msg.status_reason, '') as reason, count(*)::int as n,
              row_number() over (partition by r.mailing_id order by count(*) desc, coalesce(msg.status_reason, ''))
                as rank
         from mailing_recipients r join messages msg on msg.id = r.message_id
        where r.mailing_id = any($1::uuid[]) and msg.status = 'undelivered'
        group by r.mailing_id, coalesce(msg.status_reason, '')
     ) x where rank <= 20 order by mailing_id, n desc, reason`,
    [mailingIds],
  );

/** The mailings of a channel the sender works on now, the earliest started first. */
export const sendingOnChannel = (q: Queryable, channelId: string) =>
  q.query<MailingRow>(
    `select ${columns} from ${from} where m.channel_id = $1 and m.status = 'sending' order by m.started_at, m.id`,
    [channelId],
  );

export type PendingRecipient = { contact_id: string; client_id: string; client_name: string };

/** The next recipients to send to, locked (a concurrent sender skips them; none should run, but a lease can lapse). */
export const takePending = (q: Queryable, mailingId: string, limit: number) =>
  q.query<PendingRecipient>(
    `select r.contact_id, r.client_id, cl.name as client_name
       from mailing_recipients r join clients cl on cl.id = r.client_id
      where r.mailing_id = $1 and r.state = 'pending'
      order by r.contact_id limit $2 for no key update of r skip locked`,
    [mailingId, limit],
  );

export const markSent = (
  q: Queryable,
  mailingId: string,
  sent: { contactId: string; messageId: string }[],
  now: Date,
) =>
  q.query(
    `update mailing_recipients r set state = 'sent', message_id = s.message_id, sent_at = $4
       from unnest($2::uuid[], $3::uuid[]) as s(contact_id, message_id)
      where r.mailing_id = $1 and r.contact_id = s.contact_id and r.state = 'pending'`,
    [mailingId, sent.map((s) => s.contactId), sent.map((s) => s.messageId), now],
  );

/** Finishes a sending mailing with nobody left pending; answers whether it did. */
export const finishIfDone = async (q: Queryable, mailingId: string, now: Date) =>
  (
    await q.query(
      `update mailings set status = 'finished', finished_at = $2, updated_at = $2
        where id = $1 and status = 'sending'
          and not exists (select 1 from mailing_recipients r where r.mailing_id = $1 and r.state = 'pending')
        returning id`,
      [mailingId, now],
    )
  ).length === 1;

/** Scheduled mailings whose time has come (any organisation), locked for their start. */
export const dueScheduled = (q: Queryable, now: Date, limit: number) =>
  q.query<{ id: string; organisation_id: string }>(
    `select id, organisation_id from mailings where status = 'scheduled' and scheduled_at <= $1
      order by scheduled_at limit $2 for no key update skip locked`,
    [now, limit],
  );

/** Sending mailings whose channel stopped (deactivated or deleted): paused with the reason. */
export const pauseOnInactiveChannels = (q: Queryable, now: Date) =>
  q.query<{ id: string }>(
    `update mailings m set status = 'paused', pause_reason = 'channel_inactive', updated_at = $1
       from channels ch
      where ch.id = m.channel_id and m.status in ('sending', 'scheduled')
        and (ch.status <> 'active' or ch.deleted_at is not null) and (m.status = 'sending' or m.scheduled_at <= $1)
      returning m.id`,
    [now],
  );

/** The latest mailing message sent to a contact on or after `since`, before `before`: what a reply answers. */
export const latestSentTo = (q: Queryable, contactId: string, since: Date, before: Date) =>
  maybe<{ mailing_id: string; message_id: string; marketing_type: MailingMarketingType; replied: boolean }>(
    q,
    `select r.mailing_id, r.message_id, m.marketing_type, r.replied_at is not null as replied
       from mailing_recipients r join mailings m on m.id = r.mailing_id
      where r.contact_id = $1 and r.state = 'sent' and r.sent_at >= $2 and r.sent_at <= $3
      order by r.sent_at desc limit 1`,
    [contactId, since, before],
  );

export const markReplied = (
  q: Queryable,
  mailingId: string,
  contactId: string,
  now: Date,
  optedOut: boolean,
) =>
  q.query(
    `update mailing_recipients set replied_at = coalesce(replied_at, $3),
            opted_out_at = case when $4 then coalesce(opted_out_at, $3) else opted_out_at end
      where mailing_id = $1 and contact_id = $2`,
    [mailingId, contactId, now, optedOut],
  );

export type RecipientExportRow = {
  client_name: string;
  external_id: string;
  state: 'pending' | 'skipped' | 'sent';
  skip_reason: string | null;
  status: string | null;
  status_reason: string | null;
  sent_at: Date | null;
  replied_at: Date | null;
  opted_out_at: Date | null;
};

/** Every recipient of a mailing with its state and its message's delivery status, in client name order. */
export const recipientsForExport = (q: Queryable, mailingId: string) =>
  q.query<RecipientExportRow>(
    `select cl.name as client_name, ct.external_id, r.state, r.skip_reason, msg.status, msg.status_reason, r.sent_at,
            r.replied_at, r.opted_out_at
       from mailing_recipients r join clients cl on cl.id = r.client_id join contacts ct on ct.id = r.contact_id
       left join messages msg on msg.id = r.message_id
      where r.mailing_id = $1
      order by cl.name, ct.external_id`,
    [mailingId],
  );

/** The organisation's mailings started in [start, end), earliest first. */
export const startedBetween = (q: Queryable, orgId: string, start: Date, end: Date) =>
  q.query<MailingRow>(
    `select ${columns} from ${from}
      where m.organisation_id = $1 and m.started_at >= $2 and m.started_at < $3
      order by m.started_at, m.id limit 1000`,
    [orgId, start, end],
  );

/** The organisation's own opt-out words; null when it set none (the defaults apply). */
export const optOutWordsOf = async (q: Queryable, orgId: string) =>
  (
    await q.query<{ opt_out_words: string[] }>(
      'select opt_out_words from mailing_settings where organisation_id = $1',
      [orgId],
    )
  )[0]?.opt_out_words ?? null;

/** Sets the organisation's opt-out words; null removes them (back to the defaults). */
export const setOptOutWords = (q: Queryable, orgId: string, words: string[] | null, now: Date) =>
  words === null
    ? q.query('delete from mailing_settings where organisation_id = $1', [orgId])
    : q.query(
        `insert into mailing_settings (organisation_id, opt_out_words, updated_at) values ($1, $2, $3)
         on conflict (organisation_id) do update set opt_out_words = excluded.opt_out_words, updated_at = $3`,
        [orgId, words, now],
      );

/**
 * Of these organisations, those with a mailing that may still be answered: one scheduled, sending or paused, or
 * one that sent within the reply window (`since`).
 */
export const withAnswerableMailings = async (q: Queryable, orgIds: string[], since: Date) =>
  (
    await q.query<{ organisation_id: string }>(
      `select distinct m.organisation_id from mailings m
        where m.organisation_id = any($1::uuid[])
          and (m.status in ('scheduled', 'sending', 'paused') or m.finished_at >= $2 or m.updated_at >= $2)`,
      [orgIds, since],
    )
  ).map((r) => r.organisation_id);

/**
 * The different contacts the channel's mailings sent to since `since`, and the earliest of those sends (when the
 * first of them leaves a rolling window).
 */
export const recipientsSince = async (q: Queryable, channelId: string, since: Date) =>
  (
    await q.query<{ n: number; first: Date | null }>(
      `select count(distinct r.contact_id)::int as n, min(r.sent_at) as first
         from mailing_recipients r join mailings m on m.id = r.mailing_id
        where m.channel_id = $1 and r.state = 'sent' and r.sent_at > $2`,
      [channelId, since],
    )
  )[0] ?? { n: 0, first: null };

/** The channel's sending mailings are held back by its daily limit until `until` (null: no longer). */
export const setLimitWait = (q: Queryable, channelId: string, until: Date | null) =>
  q.query(
    `update mailings set limit_wait_until = $2 where channel_id = $1 and status = 'sending'
        and limit_wait_until is distinct from $2`,
    [channelId, until],
  );
