import type { MailingAudience, MailingMarketingType } from '@smartconnect/contracts';

/**
 * A mailing's audience as SQL: the channel's contacts whose clients match every filter, one contact per client (the
 * one the client wrote from last), each with the reason it would be skipped (null: sent to). The same text plans a
 * started mailing (an INSERT … SELECT, streamed by the database, never loaded here) and counts it live.
 */

/** Digits of a phone written any way (+7 (912) 000-00-00 → 79120000000); null when it is not a phone. */
export function phoneDigits(entry: string): string | null {
  if (!/^[\d\s+()\-.]+$/.test(entry)) return null;
  const digits = entry.replace(/\D/g, '');
  return digits.length >= 7 && digits.length <= 15 ? digits : null;
}

export type AudienceQuery = { sql: string; params: unknown[] };

/**
 * `select contact_id, client_id, skip_reason from (…)` for the audience. Parameters start at `$first`;
 * `sessionHours`: the channel's session window (WhatsApp, Instagram, Facebook) when free text needs one, with
 * `template` saying whether the mailing sends a registered template instead.
 */
export function audienceSql(
  a: MailingAudience,
  opts: {
    orgId: string;
    channelId: string;
    marketingType: MailingMarketingType;
    sessionHours: number | null;
    template: boolean;
    now: Date;
  },
): AudienceQuery {
  const params: unknown[] = [opts.orgId, opts.channelId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = ['ct.organisation_id = $1', 'ct.channel_id = $2'];
  if (a.statusIds?.length) where.push(`cl.status_id = any(${p(a.statusIds)}::uuid[])`);
  if (a.tags?.length) where.push(`cl.tags && ${p(a.tags)}::text[]`);
  if (a.managerIds?.length) where.push(`cl.personal_manager_id = any(${p(a.managerIds)}::uuid[])`);
  if (a.companyIds?.length)
    where.push(
      `exists (select 1 from client_company_links l where l.client_id = cl.id and l.company_id = any(${p(a.companyIds)}::uuid[]))`,
    );
  const lastContact = `(select max(lc.last_client_message_at) from chats lc where lc.client_id = cl.id)`;
  if (a.lastContactBefore) where.push(`${lastContact} < ${p(a.lastContactBefore)}::timestamptz`);
  if (a.lastContactAfter) where.push(`${lastContact} > ${p(a.lastContactAfter)}::timestamptz`);
  if (a.list?.length) where.push(`ct.id in (select contact_id from listed)`);
  const listed = a.list?.length ? listCte(a.list, p) : '';
  const advertising = opts.marketingType === 'advertising';
  const window =
    opts.sessionHours != null && !opts.template
      ? `when coalesce((select max(wc.last_client_message_at) from chats wc where wc.contact_id = ct.id), '-infinity')
               <= ${p(opts.now)}::timestamptz - make_interval(hours => ${p(opts.sessionHours)}) then 'session_closed'`
      : '';
  const sql = `${listed}
    select distinct on (cl.id) ct.id as contact_id, cl.id as client_id,
           case when cl.blocked_at is not null then 'blacklisted'
                when cl.spam then 'spam'
                when ct.opted_out_at is not null then 'unsubscribed'
                ${advertising ? "when cl.advertising_opted_out_at is not null then 'opted_out'" : ''}
                ${window}
           end as skip_reason
      from contacts ct join clients cl on cl.id = ct.client_id
     where ${where.join(' and ')}
     order by cl.id, (select max(x.last_client_message_at) from chats x where x.contact_id = ct.id) desc nulls last,
              ct.created_at desc`;
  return { sql, params };
}

/**
 * The uploaded list's entries matched to the channel's contacts: by the provider's id as written, by a phone's
 * digits as the id (WhatsApp, Viber and SMS ids are phones), or by the contact's phone. A hash join over the list.
 */
function listCte(list: string[], p: (v: unknown) => string): string {
  const raw = [...new Set(list)];
  const digits = [...new Set(raw.map(phoneDigits).filter((d): d is string => d !== null))];
  const r = p(raw);
  const d = p(digits);
  return `with listed as materialized (
      select ct.id as contact_id from contacts ct where ct.channel_id = $2 and ct.external_id in (select unnest(${r}::text[]))
      union
      select ct.id from contacts ct where ct.channel_id = $2 and ct.external_id in (select unnest(${d}::text[]))
      union
      select ct.id from contacts ct where ct.channel_id = $2 and ct.phone is not null
         and regexp_replace(ct.phone, '\\D', '', 'g') in (select unnest(${d}::text[]))
    )`;
}

/**
 * How many entries of the list match no contact of the channel (the count shown before sending): an entry is found
 * when its text is an id of the channel, or its digits are an id or a contact's phone digits.
 */
export function notFoundSql(list: string[], channelId: string): AudienceQuery {
  const raw = [...new Set(list)];
  return {
    sql: `with ph as materialized (
             select distinct regexp_replace(ct.phone, '\\D', '', 'g') as d from contacts ct
              where ct.channel_id = $1 and ct.phone is not null
           )
           select count(*)::int as n from unnest($2::text[], $3::text[]) as e(entry, digits)
            where not exists (select 1 from contacts ct where ct.channel_id = $1
                                and ct.external_id in (e.entry, e.digits))
              and (e.digits is null or e.digits not in (select d from ph))`,
    params: [channelId, raw, raw.map(phoneDigits)],
  };
}
