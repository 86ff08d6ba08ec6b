import {
  type ChatRatingDto,
  type LinkActionDto,
  RATING_LINK_DAYS,
  ratingValueOf,
  type WebhookRatingDto,
} from '@smartconnect/contracts';
import { adapterFor } from '../../channels/registry.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { type Actor, actorUserId } from '../../lib/actor.ts';
import { onePlugPoint, pluggedOf } from '../../plug-points.ts';
import { withEvents } from '../../realtime/emit.ts';
import { emitLogOnly } from '../../realtime/log-only.ts';
import { ratingReplyText } from '../auto-replies/service.ts';
import { actOnOpenChat, recordChatEvent, type Say } from '../conversation/chat-action.ts';
import type { Tx } from '../conversation/lifecycle.ts';
import * as Q from './queries.ts';

/** The default request text (the channel's 'message text' setting replaces it). */
export const DEFAULT_RATING_TEXT = 'Please rate our service';
const LINK_MS = RATING_LINK_DAYS * 86_400_000;

/**
 * The words that ask for a rating: the channel's 'dialog rating' automatic reply when it is on, else the channel's
 * assessment text, else the default.
 */
async function requestText(q: Queryable, orgId: string, channelId: string, assessmentText: string | null) {
  return (await ratingReplyText(q, orgId, channelId)) || assessmentText || DEFAULT_RATING_TEXT;
}

/** A channel type whose clients rate with the site widget's buttons (no link message; the request is pushed live). */
const ratesInWidget = (type: string) => adapterFor(type).capabilities.visitorWidget === true;

type RatedChat = { id: string; organisation_id: string; channel_id: string; session_no: number };

/**
 * Asks a chat's client for a rating, once per session: with the organisation's quality assessment option and the
 * channel's assessment on (or `beforeEnd` for an operator's request in an open chat). A visitor of the site widget
 * (a channel with `capabilities.visitorWidget`) gets buttons in the widget; every other client a message with the
 * one-time link. The chat's history records the
 * request. Answers the request, or null when there is nothing to ask (off, or this session was asked already).
 */
export async function requestRating(
  app: AppContext,
  tx: Tx,
  chat: RatedChat,
  say: Say,
  mode: 'close' | 'before_end',
  actorId: string | null = null,
) {
  const a = await Q.assessmentOf(tx.q, chat.channel_id);
  if (!a?.options.includes('OPTION_QUALITY_ASSESSMENT')) return null;
  if (mode === 'close' ? !a.rating_enabled : !a.rating_before_end) return null;
  const row = await Q.insertRequest(tx.q, {
    organisationId: chat.organisation_id,
    chatId: chat.id,
    channelId: chat.channel_id,
    sessionNo: chat.session_no,
    now: tx.now,
    expiresAt: new Date(tx.now.getTime() + LINK_MS),
  });
  if (!row) return null;
  if (!ratesInWidget(a.type)) {
    const text = await requestText(tx.q, chat.organisation_id, chat.channel_id, a.rating_message);
    await say(`${text}\n${app.config.publicUrl}/link-action/${row.id}`);
  }
  await recordChatEvent(tx, chat, { kind: 'rating_requested', actorId });
  return row;
}

/** The rating of a chat's current session as its top bar shows it, and whether the operator may ask now. */
export async function ratingState(app: AppContext, chat: RatedChat & { status: string }) {
  const a = await Q.assessmentOf(app.db, chat.channel_id);
  const asked = await Q.sessionRequest(app.db, chat.id, chat.session_no);
  const on = !!a && a.options.includes('OPTION_QUALITY_ASSESSMENT');
  return {
    canAsk: on && !!a?.rating_before_end && chat.status !== 'closed' && !asked,
    requestedAt: asked ? asked.created_at.toISOString() : null,
    score: asked?.score ?? null,
    value: asked?.score ? ratingValueOf(asked.score) : null,
  };
}

/**
 * An operator asks the client of an open chat for a rating before the end (the channel's `beforeEnd`): once per
 * session (409 ratingLimitExceededException, 'Message limit exceeded for bot rating'); 404 when the channel does
 * not allow it. A site chat visitor sees the buttons at once.
 */
export async function askForRating(app: AppContext, actor: Actor, chatId: string) {
  const { chat } = await actOnOpenChat(app, actor, chatId, async (tx, chat, say) => {
    const a = await Q.assessmentOf(tx.q, chat.channel_id);
    if (!a?.options.includes('OPTION_QUALITY_ASSESSMENT') || !a.rating_before_end)
      throw new AppError('qualityAssessmentNotFoundException');
    const row = await requestRating(app, tx, chat, say, 'before_end', actorUserId(actor));
    if (!row) throw new AppError('ratingLimitExceededException');
    return { chat, row };
  });
  await pushPendingRating(app, chat.id);
  return ratingState(app, { ...chat, status: chat.status });
}

/** A site chat visitor's open widgets show the chat's unanswered request (after its commit). */
export async function pushPendingRating(app: AppContext, chatId: string) {
  const owner = await Q.chatContact(app.db, chatId);
  if (!owner || !ratesInWidget(owner.channel_type)) return;
  const rating = await pendingRating(app, owner.channel_id, owner.external_id);
  if (rating) pluggedOf(RATING_PUSH)(app, owner.channel_id, owner.external_id, rating);
}

/** The widget push of a rating request (widget/register.ts gives the visitors' socket hub's; nothing until then). */
export const RATING_PUSH = onePlugPoint<
  (app: AppContext, channelId: string, visitorId: string, rating: { uuid: string; text: string }) => void
>('ratings.push', () => undefined);

const present = (r: Q.RatingRequestRow): LinkActionDto => ({
  uuid: r.id,
  used: r.score !== null,
  score: r.score,
  value: r.score ? ratingValueOf(r.score) : null,
});

/** A chat session's rating as the chat shows it (and its rating.created event, with the chat's id). */
const presentRating = (r: Q.RatingRequestRow): ChatRatingDto => ({
  score: r.score,
  value: r.score ? ratingValueOf(r.score) : null,
  requestedAt: new Date(r.created_at).toISOString(),
  ratedAt: r.rated_at ? new Date(r.rated_at).toISOString() : null,
  sessionNo: r.session_no,
});

/** A link as the rating page sees it; 404 when unknown or expired. */
export async function linkAction(app: AppContext, uuid: string): Promise<LinkActionDto> {
  const r = await Q.findRequest(app.db, uuid);
  if (!r || (r.score === null && r.expires_at.getTime() <= app.clock.now().getTime()))
    throw new AppError('qualityAssessmentNotFoundException');
  return present(r);
}

/**
 * Records the client's choice on its chat session, and in the chat's history, with its rating.created event (for
 * webhooks only): once (409 'Rating already sent'); 404 when unknown or expired.
 */
export async function rate(app: AppContext, uuid: string, score: number): Promise<LinkActionDto> {
  const now = app.clock.now();
  return withEvents(app, async (q, emit) => {
    const r = await Q.findRequest(q, uuid);
    if (!r) throw new AppError('qualityAssessmentNotFoundException');
    if (r.score !== null) throw new AppError('ratingAlreadySentException');
    if (r.expires_at.getTime() <= now.getTime()) throw new AppError('qualityAssessmentNotFoundException');
    const done = await Q.recordScore(q, uuid, score, now);
    if (!done) throw new AppError('ratingAlreadySentException');
    await recordChatEvent(
      { q, emit, now },
      { id: done.chat_id, organisation_id: done.organisation_id },
      { kind: 'rated', actorId: null, score },
    );
    await emitLogOnly(
      { q, emit },
      done.organisation_id,
      'rating.created',
      (): WebhookRatingDto => ({ chatId: done.chat_id, ...presentRating(done) }),
    );
    return present(done);
  });
}

/** The widget's pending request for a visitor (buttons), or null. */
export async function pendingRating(app: AppContext, channelId: string, visitorId: string) {
  const r = await Q.pendingForVisitor(app.db, channelId, visitorId, app.clock.now());
  return r
    ? { uuid: r.id, text: await requestText(app.db, r.organisation_id, channelId, r.rating_message) }
    : null;
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
  return (await Q.chatRatings(app.db, organisationId, chatId)).map(presentRating);
}

export const assessmentOn = async (app: AppContext, channelId: string) => {
  const a = await Q.assessmentOf(app.db, channelId);
  return !!a && a.rating_enabled && a.options.includes('OPTION_QUALITY_ASSESSMENT');
};
