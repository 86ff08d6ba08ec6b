import { maybe, type Queryable } from '../../db/index.ts';

export type EmailRow = {
  chat_id: string | null;
  message_id: string | null;
  direction: 'in' | 'out';
  rfc_id: string;
  client_external_id: string;
  subject: string;
  refs: string[];
};

/** Records the headers of a mail in or out; a mail seen before (the same Message-ID) keeps its first row. */
export const recordEmail = (
  q: Queryable,
  e: {
    orgId: string;
    channelId: string;
    chatId: string | null;
    messageId: string | null;
    direction: 'in' | 'out';
    rfcId: string;
    clientExternalId: string;
    subject: string;
    refs: string[];
  },
) =>
  q.query(
    `insert into email_messages (organisation_id, channel_id, chat_id, message_id, direction, rfc_id,
                                 client_external_id, subject, refs)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[])
     on conflict (channel_id, rfc_id) do update
       set chat_id = coalesce(email_messages.chat_id, excluded.chat_id),
           message_id = coalesce(email_messages.message_id, excluded.message_id)`,
    [
      e.orgId,
      e.channelId,
      e.chatId,
      e.messageId,
      e.direction,
      e.rfcId,
      e.clientExternalId,
      e.subject,
      e.refs,
    ],
  );

/** The newest of the channel's mails among these Message-IDs: the thread a reply belongs to. */
export const findThread = (q: Queryable, channelId: string, rfcIds: string[]) =>
  rfcIds.length
    ? maybe<EmailRow>(
        q,
        `select chat_id, message_id, direction, rfc_id, client_external_id, subject, refs from email_messages
          where channel_id = $1 and rfc_id = any($2::text[]) order by created_at desc limit 1`,
        [channelId, rfcIds],
      )
    : Promise.resolve(undefined);

/** One of our outbound mails by its Message-ID (a bounce names it). */
export const findOutboundMail = (q: Queryable, channelId: string, rfcIds: string[]) =>
  rfcIds.length
    ? maybe<EmailRow>(
        q,
        `select chat_id, message_id, direction, rfc_id, client_external_id, subject, refs from email_messages
          where channel_id = $1 and direction = 'out' and rfc_id = any($2::text[]) and message_id is not null
          order by created_at desc limit 1`,
        [channelId, rfcIds],
      )
    : Promise.resolve(undefined);

/**
 * The mail a reply answers: the chat's latest (the client's latest mail first); in a dialog an operator started,
 * the client's latest mail on the channel, so the reply continues their thread.
 */
export const latestOfChat = (q: Queryable, channelId: string, chatId: string, clientExternalId: string) =>
  maybe<EmailRow>(
    q,
    `select chat_id, message_id, direction, rfc_id, client_external_id, subject, refs from email_messages
      where channel_id = $1 and (chat_id = $2 or client_external_id = $3)
      order by (chat_id = $2) desc, (direction = 'in') desc, created_at desc limit 1`,
    [channelId, chatId, clientExternalId],
  );
