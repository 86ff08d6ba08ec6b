import {
  type ChatRatingDto,
  type LinkActionDto,
  RATING_LINK_DAYS,
  ratingValueOf,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import * as Q from './queries.ts';

/** The default request text (the channel's 'message text' setting replaces it). */
export const DEFAULT_RATING_TEXT = 'Please rate our service';
const LINK_MS = RATING_LINK_DAYS * 86_400_000;

/**
 * Asks a chat's client for a rating, once per session: with the organisation's quality assessment option and the
 * channel's assessment on (or `beforeEnd` for an operator's request in an open chat). A site_chat visitor gets
 * buttons in the widget; every other client a message with the one-time link. Answers the request, or null
 * when there is nothing to ask (off, or this session was asked already).
 */
export async function requestRating(
  app: AppContext,
  q: Queryable,
  chat: { id: string; organisation_id: string; channel_id: string; session_no: number },
  now: Date,
  say: (text: string) => Promise<void>,
  mode: 'close' | 'before_end',
) {
  const a = await Q.assessmentOf(q, chat.channel_id);
  if (!a || !a.options.includes('OPTION_QUALITY_ASSESSMENT')) return null;
  if (mode === 'close' ? !a.rating_enabled : !a.rating_before_end) return null;
  const row = await Q.insertRequest(q, {
    organisationId: chat.organisation_id,
    chatId: chat.id,
    channelId: chat.channel_id,
    sessionNo: chat.session_no,
    now,
    expiresAt: new Date(now.getTime() + LINK_MS),
  });
  if (!row) return null;
  if (a.type !== 'site_chat')
    await say(`${a.rating_message || DEFAULT_RATING_TEXT}\n${app.config.publicUrl}/link-action/${row.id}`);
  return row;
}

const present = (r: Q.RatingRequestRow): LinkActionDto => ({
  uuid: r.id,
  used: r.score !== null,
  score: r.score,
  value: r.score ? ratingValueOf(r.score) : null,
});

/** A link as the rating page sees it; 404 when unknown or expired. */
export async function linkAction(app: AppContext, uuid: string): Promise<LinkActionDto> {
  const r = await Q.findRequest(app.db, uuid);
  if (!r || (r.score === null && r.expires_at.getTime() <= app.clock.now().getTime()))
    throw new AppError('qualityAssessmentNotFoundException');
  return present(r);
}

/** Records the client's choice on its chat session: once (409 'Rating already sent'); 404 when unknown or expired. */
export async function rate(app: AppContext, uuid: string, score: number): Promise<LinkActionDto> {
  const now = app.clock.now();
  return app.db.tx(async (q) => {
    const r = await Q.findRequest(q, uuid);
    if (!r) throw new AppError('qualityAssessmentNotFoundException');
    if (r.score !== null) throw new AppError('ratingAlreadySentException');
    if (r.expires_at.getTime() <= now.getTime()) throw new AppError('qualityAssessmentNotFoundException');
    const done = await Q.recordScore(q, uuid, score, now);
    if (!done) throw new AppError('ratingAlreadySentException');
    return present(done);
  });
}

/** The widget's pending request for a visitor (buttons), or null. */
export async function pendingRating(app: AppContext, channelId: string, visitorId: string) {
  const r = await Q.pendingForVisitor(app.db, channelId, visitorId, app.clock.now());
  return r ? { uuid: r.id, text: r.rating_message || DEFAULT_RATING_TEXT } : null;
}

/** A visitor rates from the widget: only a request of their own chats. */
export async function rateAsVisitor(
  app: AppContext,
  channelId: string,
  visitorId: string,
  uuid: string,
  score: number,
) {
  const r = await Q.findRequest(app.db, uuid);
  const owner = r && (await Q.chatContact(app.db, r.chat_id));
  if (!r || !owner || owner.channel_id !== channelId || owner.external_id !== visitorId)
    throw new AppError('qualityAssessmentNotFoundException');
  return rate(app, uuid, score);
}

export async function chatRatings(
  app: AppContext,
  organisationId: string,
  chatId: string,
): Promise<ChatRatingDto[]> {
  return (await Q.chatRatings(app.db, organisationId, chatId)).map((r) => ({
    score: r.score,
    value: r.score ? ratingValueOf(r.score) : null,
    requestedAt: new Date(r.created_at).toISOString(),
    ratedAt: r.rated_at ? new Date(r.rated_at).toISOString() : null,
    sessionNo: r.session_no,
  }));
}

export const assessmentOn = async (app: AppContext, channelId: string) => {
  const a = await Q.assessmentOf(app.db, channelId);
  return !!a && a.rating_enabled && a.options.includes('OPTION_QUALITY_ASSESSMENT');
};
