import type { ChannelStatus, ChannelType } from '@smartconnect/contracts';
import { maybe, one, type Queryable, setList } from '../../db/index.ts';

export type ChannelRow = {
  id: string;
  organisation_id: string;
  type: ChannelType;
  name: string;
  team_id: string;
  team_name: string;
  status: ChannelStatus;
  settings: Record<string, unknown>;
  inbound_key_hash: string | null;
  secrets: string;
  half_expired_minutes: number | null;
  expired_minutes: number | null;
  notification_email: string | null;
  visible_team_ids: string[];
  rating_before_end: boolean;
  rating_message: string | null;
  /** Service assessment: the client is asked to rate when a chat closes. */
  rating_enabled: boolean;
  created_at: Date;
  /** Read only by the admin screens (listChannels, findChannel), not on the inbound path. */
  last_inbound_at?: Date | null;
  /** The latest provider update the channel could not read and that named no client (receive.ts). */
  unreadable_at?: Date | null;
  unreadable_reason?: string | null;
  org_options: string[];
  org_status: string;
  /** Every inbound message goes through the conversation pipeline (rules or auto-replies are on). */
  org_inbound_automation: boolean;
};

const select = `
  select c.id, c.organisation_id, c.type, c.name, c.team_id, t.name as team_name, c.status, c.settings,
         c.inbound_key_hash, c.secrets, c.half_expired_minutes, c.expired_minutes,
         c.notification_email, c.visible_team_ids, c.rating_before_end, c.rating_message, c.rating_enabled, c.created_at, o.options as org_options,
         o.status as org_status, o.inbound_automation as org_inbound_automation
    from channels c join teams t on t.id = c.team_id join organisations o on o.id = c.organisation_id`;

/** The admin screens also show when the channel's latest customer message arrived (its chats keep that time). */
const withLastInbound = select.replace(
  'o.status as org_status,',
  `o.status as org_status,
         (select max(ch.last_client_message_at) from chats ch where ch.channel_id = c.id) as last_inbound_at,
         c.unreadable_at, c.unreadable_reason,`,
);

export const listChannels = (q: Queryable, orgId: string) =>
  q.query<ChannelRow>(
    `${withLastInbound} where c.organisation_id = $1 and c.deleted_at is null order by c.name, c.id`,
    [orgId],
  );

export const findChannel = (q: Queryable, orgId: string, id: string) =>
  maybe<ChannelRow>(
    q,
    `${withLastInbound} where c.id = $1 and c.organisation_id = $2 and c.deleted_at is null`,
    [id, orgId],
  );

/** For the inbound route, before we know the organisation: the channel's own key decides. */
export const findChannelById = (q: Queryable, id: string) =>
  maybe<ChannelRow>(q, `${select} where c.id = $1 and c.deleted_at is null`, [id]);

export const nameTaken = async (q: Queryable, orgId: string, name: string, exceptId?: string) =>
  !!(await maybe(
    q,
    `select 1 from channels where organisation_id = $1 and lower(name) = lower($2) and deleted_at is null
        and id is distinct from $3`,
    [orgId, name, exceptId ?? null],
  ));

export type ChannelInsert = {
  id: string;
  organisationId: string;
  type: ChannelType;
  name: string;
  teamId: string;
  status: ChannelStatus;
  settings: Record<string, unknown>;
  inboundKeyHash: string | null;
  secrets: string;
  halfExpiredMinutes: number | null;
  expiredMinutes: number | null;
  notificationEmail: string | null;
  visibleTeamIds: string[];
  ratingBeforeEnd: boolean;
  ratingMessage: string | null;
  ratingEnabled: boolean;
};

export async function insertChannel(q: Queryable, c: ChannelInsert): Promise<string> {
  const row = await one<{ id: string }>(
    q,
    `insert into channels (id, organisation_id, type, name, team_id, status, settings, inbound_key_hash, secrets,
                           half_expired_minutes, expired_minutes, notification_email, visible_team_ids,
                           rating_before_end, rating_message, rating_enabled)
     values ($11, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $12, $13::uuid[], $14, $15, $16) returning id`,
    [
      c.organisationId,
      c.type,
      c.name,
      c.teamId,
      c.status,
      JSON.stringify(c.settings),
      c.inboundKeyHash,
      c.secrets,
      c.halfExpiredMinutes,
      c.expiredMinutes,
      c.id,
      c.notificationEmail,
      c.visibleTeamIds,
      c.ratingBeforeEnd,
      c.ratingMessage,
      c.ratingEnabled,
    ],
  );
  return row.id;
}

const columns = {
  name: 'name',
  teamId: 'team_id',
  status: 'status',
  halfExpiredMinutes: 'half_expired_minutes',
  expiredMinutes: 'expired_minutes',
  notificationEmail: 'notification_email',
  visibleTeamIds: 'visible_team_ids',
  ratingBeforeEnd: 'rating_before_end',
  ratingMessage: 'rating_message',
  ratingEnabled: 'rating_enabled',
} as const;
export type ChannelPatch = Partial<Record<keyof typeof columns, unknown>>;

export async function updateChannel(q: Queryable, orgId: string, id: string, patch: ChannelPatch) {
  const params: unknown[] = [id, orgId];
  const sets = setList(columns, patch, params);
  if (!sets) return;
  await q.query(
    `update channels set ${sets}, updated_at = now()
      where id = $1 and organisation_id = $2 and deleted_at is null`,
    params,
  );
}

/** Channels are retired, not erased: their chats and messages stay readable. */
export const softDeleteChannel = (q: Queryable, orgId: string, id: string) =>
  q.query(
    `update channels set deleted_at = now(), status = 'inactive', updated_at = now()
      where id = $1 and organisation_id = $2 and deleted_at is null`,
    [id, orgId],
  );

/** Stores what an adapter's connect answered on an update: the type's settings and its (encrypted) secrets. */
export const setChannelConfig = (
  q: Queryable,
  id: string,
  settings: Record<string, unknown>,
  secrets: string,
) =>
  q.query('update channels set settings = $2, secrets = $3, updated_at = now() where id = $1', [
    id,
    JSON.stringify(settings),
    secrets,
  ]);

/** A channel's id before it is stored: the provider's webhook URL (connect) names it. */
export const newChannelId = async (q: Queryable) =>
  (await one<{ id: string }>(q, 'select uuid_generate_v7()::text as id')).id;

/** The active channels of these types, of every organisation (jobs that ask each provider). */
export const activeChannelsOfTypes = (q: Queryable, types: readonly string[]) =>
  q.query<ChannelRow>(`${select} where c.status = 'active' and c.type = any($1::text[])`, [[...types]]);

export type ProblemRow = {
  id: string;
  organisation_id: string;
  channel_id: string;
  channel_name: string;
  kind: 'token_refused' | 'unreachable' | 'webhook_failing';
  detail: string;
  first_seen_at: Date;
  last_seen_at: Date;
  opened_at: Date | null;
};

/**
 * Records one occurrence of a channel's problem: the open row of (channel, kind) is found or made, and opened once
 * it has lasted `openAfterMs`. Answers the row and whether this occurrence opened it.
 */
export async function recordProblem(
  q: Queryable,
  p: {
    orgId: string;
    channelId: string;
    kind: ProblemRow['kind'];
    detail: string;
    now: Date;
    openAfterMs: number;
  },
): Promise<{ id: string; opened: boolean }> {
  const [row] = await q.query<{ id: string; first_seen_at: Date; opened_at: Date | null }>(
    `insert into channel_problems (organisation_id, channel_id, kind, detail, first_seen_at, last_seen_at)
     values ($1, $2, $3, $4, $5, $5)
     on conflict (channel_id, kind) where resolved_at is null
     do update set last_seen_at = excluded.last_seen_at, detail = excluded.detail
     returning id, first_seen_at, opened_at`,
    [p.orgId, p.channelId, p.kind, p.detail.slice(0, 500), p.now],
  );
  if (row.opened_at || p.now.getTime() - new Date(row.first_seen_at).getTime() < p.openAfterMs)
    return { id: row.id, opened: false };
  const opened = await q.query(
    'update channel_problems set opened_at = $2 where id = $1 and opened_at is null returning id',
    [row.id, p.now],
  );
  return { id: row.id, opened: opened.length > 0 };
}

/**
 * Takes the right to mail about an opened problem: none was mailed for this channel and kind within `everyMs`.
 */
export async function claimProblemMail(
  q: Queryable,
  id: string,
  now: Date,
  everyMs: number,
): Promise<boolean> {
  const rows = await q.query(
    `update channel_problems p set mailed_at = $2
      where p.id = $1 and not exists (
        select 1 from channel_problems o where o.channel_id = p.channel_id and o.kind = p.kind
           and o.mailed_at > $2::timestamptz - make_interval(secs => $3::double precision / 1000))
      returning p.id`,
    [id, now, everyMs],
  );
  return rows.length > 0;
}

/** Ends the open problems of these kinds of a channel (it works again); answers whether one was shown. */
export async function resolveProblems(q: Queryable, channelId: string, kinds: string[], now: Date) {
  const rows = await q.query<{ shown: boolean }>(
    `update channel_problems set resolved_at = $3
      where channel_id = $1 and kind = any($2::text[]) and resolved_at is null
      returning opened_at is not null and dismissed_at is null as shown`,
    [channelId, kinds, now],
  );
  return rows.some((r) => r.shown);
}

/** The organisation's open problems administrators see (opened, not dismissed), of channels not deleted. */
export const openProblems = (q: Queryable, orgId: string) =>
  q.query<ProblemRow>(
    `select p.id, p.organisation_id, p.channel_id, c.name as channel_name, p.kind, p.detail, p.first_seen_at,
            p.last_seen_at, p.opened_at
       from channel_problems p join channels c on c.id = p.channel_id and c.deleted_at is null
      where p.organisation_id = $1 and p.resolved_at is null and p.opened_at is not null and p.dismissed_at is null
      order by p.opened_at, p.id`,
    [orgId],
  );

/** Hides a channel's open problems from the banner (the next problem after they end shows again). */
export const dismissProblems = (q: Queryable, orgId: string, channelId: string, now: Date) =>
  q.query(
    `update channel_problems set dismissed_at = $3
      where organisation_id = $1 and channel_id = $2 and resolved_at is null and dismissed_at is null`,
    [orgId, channelId, now],
  );

/** The organisation's language for a channel's mails. */
export const orgLanguage = async (q: Queryable, orgId: string) =>
  (await maybe<{ language: 'eng' | 'rus' }>(q, 'select language from organisations where id = $1', [orgId]))
    ?.language ?? 'eng';

export type DigestDueRow = {
  id: string;
  organisation_id: string;
  name: string;
  notification_email: string;
  language: 'eng' | 'rus';
  time_zone: string;
  /** The organisation's local yesterday, YYYY-MM-DD. */
  day: string;
};

/**
 * Channels with a notification e-mail whose digest of the organisation's local yesterday is not yet claimed
 * (active organisations, channels not deleted).
 */
export const dueDigests = (q: Queryable, now: Date, limit: number) =>
  q.query<DigestDueRow>(
    `select c.id, c.organisation_id, c.name, c.notification_email, o.language, o.time_zone, y.day::text as day
       from channels c
       join organisations o on o.id = c.organisation_id and o.status = 'active'
       cross join lateral (select (($1::timestamptz at time zone o.time_zone)::date - 1) as day) y
      where c.deleted_at is null and coalesce(c.notification_email, '') <> ''
        and not exists (select 1 from channel_digests d where d.channel_id = c.id and d.day = y.day)
      order by c.id
      limit $2`,
    [now, limit],
  );

/** Claims a channel's digest of a day; false when another run has it. */
export async function claimDigest(
  q: Queryable,
  d: { channelId: string; orgId: string; day: string; now: Date },
) {
  const rows = await q.query(
    `insert into channel_digests (channel_id, organisation_id, day, created_at) values ($1, $2, $3::date, $4)
     on conflict do nothing returning channel_id`,
    [d.channelId, d.orgId, d.day, d.now],
  );
  return rows.length > 0;
}

export const setDigestMissed = (q: Queryable, channelId: string, day: string, missed: number) =>
  q.query('update channel_digests set missed = $3 where channel_id = $1 and day = $2::date', [
    channelId,
    day,
    missed,
  ]);

/** A digest whose mail failed is given back, so the next run tries it again. */
export const dropDigest = (q: Queryable, channelId: string, day: string) =>
  q.query('delete from channel_digests where channel_id = $1 and day = $2::date', [channelId, day]);

export type MissedChatRow = {
  id: string;
  status: 'waiting' | 'in_progress' | 'closed';
  client_name: string;
  last_at: Date;
  total: number;
};

/**
 * The chats of a channel whose client wrote on the local day (of time zone `tz`) and whose last client message of
 * that day has no operator reply (a message of a user, not internal) since: the earliest first, `limit` of them,
 * each row with the total.
 */
export const missedChats = (
  q: Queryable,
  c: { orgId: string; channelId: string; day: string; tz: string; limit: number },
) =>
  q.query<MissedChatRow>(
    `with f as (
       select m.chat_id, max(m.created_at) as last_at
         from messages m
        where m.organisation_id = $1 and m.channel_id = $2 and m.direction = 'in' and not m.internal
          and m.created_at >= ($3::date::timestamp at time zone $4)
          and m.created_at < (($3::date + 1)::timestamp at time zone $4)
        group by m.chat_id)
     select c.id, c.status, cl.name as client_name, f.last_at, (count(*) over ())::int as total
       from f join chats c on c.id = f.chat_id join clients cl on cl.id = c.client_id
      where not exists (
        select 1 from messages o
         where o.chat_id = f.chat_id and o.direction = 'out' and not o.internal and o.author_id is not null
           and o.created_at >= f.last_at)
      order by f.last_at, c.id
      limit $5`,
    [c.orgId, c.channelId, c.day, c.tz, c.limit],
  );
