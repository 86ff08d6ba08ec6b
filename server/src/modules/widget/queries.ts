import type { ButtonRows } from '@smartconnect/contracts';
import type { Queryable } from '../../db/index.ts';
import { maybe } from '../../db/index.ts';

export type WidgetChannelRow = {
  id: string;
  organisation_id: string;
  type: string;
  status: string;
  org_status: string;
  /** The organisation's language: an anonymous visitor's name is in it. */
  org_language: 'eng' | 'rus';
  is_platform: boolean;
  settings: Record<string, unknown>;
  secrets: string;
};

/** A live channel of one of the widget's types (`types`: site_chat) by id, with its organisation's status. */
export const findWidgetChannel = (q: Queryable, id: string, types: readonly string[]) =>
  maybe<WidgetChannelRow>(
    q,
    `select ch.id, ch.organisation_id, ch.type, ch.status, ch.settings, ch.secrets,
            o.status as org_status, o.language as org_language, o.is_platform
       from channels ch join organisations o on o.id = ch.organisation_id
      where ch.id = $1 and ch.deleted_at is null and ch.type = any($2::text[])`,
    [id, types],
  );

export type VisitorMessageRow = {
  id: string;
  chat_id: string;
  direction: 'in' | 'out';
  text: string;
  attachments: { url: string; name?: string; contentType?: string; size?: number }[];
  status: 'pending' | 'sent' | 'delivered' | 'read' | 'undelivered' | null;
  buttons: ButtonRows | null;
  by_bot: boolean;
  author_name: string | null;
  photo_key: string | null;
  created_at: string | Date;
};

const VISITOR_MESSAGES = `
  select m.id, m.chat_id, m.direction, m.text, m.attachments, m.status, m.buttons, m.bot_id is not null as by_bot, m.created_at,
         u.name as author_name, u.photo_key
    from contacts ct
    join chats c on c.contact_id = ct.id
    join messages m on m.chat_id = c.id
    left join users u on u.id = m.author_id
   where ct.channel_id = $1 and ct.external_id = $2 and not m.internal`;

/**
 * A visitor's messages (every session of theirs on the channel, internal notes never), oldest first: those stored
 * after the message `after` (the resume of a widget that has it), or the latest ones.
 */
export async function visitorMessages(
  q: Queryable,
  channelId: string,
  visitorId: string,
  after: string | null,
  limit = 200,
): Promise<VisitorMessageRow[]> {
  if (after)
    return q.query<VisitorMessageRow>(
      `${VISITOR_MESSAGES} and (m.created_at, m.id) > (select a.created_at, a.id from messages a where a.id = $3)
        order by m.created_at, m.id limit $4`,
      [channelId, visitorId, after, limit],
    );
  // The latest ones when the widget knows nothing yet.
  const rows = await q.query<VisitorMessageRow>(
    `${VISITOR_MESSAGES} order by m.created_at desc, m.id desc limit $3`,
    [channelId, visitorId, limit],
  );
  return rows.reverse();
}

/** One message of a visitor, when it is theirs and not internal. */
export const visitorMessage = (q: Queryable, channelId: string, visitorId: string, messageId: string) =>
  maybe<VisitorMessageRow>(q, `${VISITOR_MESSAGES} and m.id = $3`, [channelId, visitorId, messageId]);

/** Which visitor of which widget channel (`types`) a chat belongs to; undefined for other channels' chats. */
export const chatVisitor = (q: Queryable, chatId: string, types: readonly string[]) =>
  maybe<{ channel_id: string; external_id: string }>(
    q,
    `select ct.channel_id, ct.external_id
       from chats c join contacts ct on ct.id = c.contact_id join channels ch on ch.id = c.channel_id
      where c.id = $1 and ch.type = any($2::text[])`,
    [chatId, types],
  );

/** The visitor's open chat on the channel, if any (the newest). */
export const openChatOfVisitor = (q: Queryable, channelId: string, visitorId: string) =>
  maybe<{ id: string; organisation_id: string }>(
    q,
    `select c.id, c.organisation_id
       from contacts ct join chats c on c.contact_id = ct.id
      where ct.channel_id = $1 and ct.external_id = $2 and c.status <> 'closed'
      order by c.created_at desc limit 1`,
    [channelId, visitorId],
  );

/** Who uploaded a widget file: only that visitor may attach it. */
export const recordWidgetFile = (
  q: Queryable,
  f: { key: string; organisationId: string; channelId: string; visitorId: string; name: string },
) =>
  q.query(
    'insert into widget_files (key, organisation_id, channel_id, visitor_id, name) values ($1, $2, $3, $4, $5)',
    [f.key, f.organisationId, f.channelId, f.visitorId, f.name],
  );

/** The visitor's own uploads among `keys`, with what is known of them. */
export const visitorFiles = (q: Queryable, channelId: string, visitorId: string, keys: string[]) =>
  q.query<{ key: string; name: string | null; content_type: string; size: number }>(
    `select wf.key, wf.name, f.content_type, f.size
       from widget_files wf join files f on f.key = wf.key
      where wf.channel_id = $1 and wf.visitor_id = $2 and wf.key = any($3::text[])`,
    [channelId, visitorId, keys],
  );

/** A file of the channel's organisation, to show in the widget (another origin). */
export const organisationFile = (q: Queryable, organisationId: string, key: string) =>
  maybe<{ content_type: string }>(
    q,
    'select content_type from files where key = $1 and organisation_id = $2',
    [key, organisationId],
  );

/** A signed-in user writing to the platform's support: "Name <e-mail> (Organisation)". */
export const supportUserName = async (q: Queryable, userId: string) =>
  (
    await maybe<{ label: string }>(
      q,
      `select u.name || ' <' || u.email || '> (' || o.name || ')' as label
         from users u join organisations o on o.id = u.organisation_id where u.id = $1`,
      [userId],
    )
  )?.label ?? null;

/** A live chat page by its address's slug, with its organisation's status and language. */
export const findChatPage = (q: Queryable, slug: string) =>
  maybe<Pick<WidgetChannelRow, 'id' | 'status' | 'org_status' | 'org_language' | 'settings'>>(
    q,
    `select ch.id, ch.status, ch.settings, o.status as org_status, o.language as org_language
       from channels ch join organisations o on o.id = ch.organisation_id
      where ch.type = 'chat_page' and ch.deleted_at is null and ch.settings->>'slug' = $1`,
    [slug],
  );
