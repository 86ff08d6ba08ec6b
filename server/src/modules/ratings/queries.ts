import type { Queryable } from '../../db/index.ts';
import { maybe } from '../../db/index.ts';

export type RatingRequestRow = {
  id: string;
  organisation_id: string;
  chat_id: string;
  channel_id: string;
  session_no: number;
  score: number | null;
  rated_at: Date | null;
  expires_at: Date;
  created_at: Date;
};

/** The channel's service assessment settings and its organisation's plan options. */
export const assessmentOf = (q: Queryable, channelId: string) =>
  maybe<{
    type: string;
    rating_enabled: boolean;
    rating_before_end: boolean;
    rating_message: string | null;
    options: string[];
  }>(
    q,
    `select ch.type, ch.rating_enabled, ch.rating_before_end, ch.rating_message, o.options
       from channels ch join organisations o on o.id = ch.organisation_id where ch.id = $1`,
    [channelId],
  );

/** A new request for the chat's session; none when the session was already asked (once per session). */
export const insertRequest = (
  q: Queryable,
  r: {
    organisationId: string;
    chatId: string;
    channelId: string;
    sessionNo: number;
    now: Date;
    expiresAt: Date;
  },
) =>
  maybe<RatingRequestRow>(
    q,
    `insert into rating_requests (organisation_id, chat_id, channel_id, session_no, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6) on conflict (chat_id, session_no) do nothing returning *`,
    [r.organisationId, r.chatId, r.channelId, r.sessionNo, r.now, r.expiresAt],
  );

export const findRequest = (q: Queryable, id: string) =>
  maybe<RatingRequestRow>(q, 'select * from rating_requests where id = $1', [id]);

/** Records the score once: none when the link was used already (the row is locked by the update). */
export const recordScore = (q: Queryable, id: string, score: number, now: Date) =>
  maybe<RatingRequestRow>(
    q,
    'update rating_requests set score = $2, rated_at = $3 where id = $1 and score is null returning *',
    [id, score, now],
  );

/** The unanswered request of a visitor's latest session on a widget channel. */
export const pendingForVisitor = (q: Queryable, channelId: string, visitorId: string, now: Date) =>
  maybe<RatingRequestRow & { rating_message: string | null }>(
    q,
    `select r.*, ch.rating_message
       from rating_requests r
       join chats c on c.id = r.chat_id
       join contacts ct on ct.id = c.contact_id
       join channels ch on ch.id = r.channel_id
      where ct.channel_id = $1 and ct.external_id = $2 and r.score is null and r.expires_at > $3
      order by r.created_at desc limit 1`,
    [channelId, visitorId, now],
  );

/** Whose a chat is (the channel, its type and the client's id there): a widget visitor is pushed the request. */
export const chatContact = (q: Queryable, chatId: string) =>
  maybe<{
    channel_id: string;
    channel_type: string;
    external_id: string;
    organisation_id: string;
    session_no: number;
  }>(
    q,
    `select ct.channel_id, ch.type as channel_type, ct.external_id, c.organisation_id, c.session_no
       from chats c join contacts ct on ct.id = c.contact_id join channels ch on ch.id = ct.channel_id
      where c.id = $1`,
    [chatId],
  );

/** The ratings of a chat, newest session first (organisation-scoped). */
export const chatRatings = (q: Queryable, organisationId: string, chatId: string) =>
  q.query<RatingRequestRow>(
    'select * from rating_requests where organisation_id = $1 and chat_id = $2 order by session_no desc',
    [organisationId, chatId],
  );

/** The request of one chat session, if it was asked. */
export const sessionRequest = (q: Queryable, chatId: string, sessionNo: number) =>
  maybe<RatingRequestRow>(q, 'select * from rating_requests where chat_id = $1 and session_no = $2', [
    chatId,
    sessionNo,
  ]);
