import { pushToVisitor } from '../../channels/site_chat/gateway.ts';
import { WIDGET_EXTRAS } from '../../channels/site_chat/routes.ts';
import { plug } from '../../plug-points.ts';
import { onEvent } from '../../realtime/consumers.ts';
import { CLOSE_STEPS } from '../chats/close-chat.ts';
import {
  assessmentOn,
  pendingRating,
  pushPendingRating,
  RATING_PUSH,
  rateAsVisitor,
  requestRating,
} from './service.ts';

/** Ratings plug in: a request when a chat closes, the widget's buttons (and their push after the close). */
export function registerRatings(): void {
  plug(CLOSE_STEPS, async (app, tx, chat, say) => {
    await requestRating(app, tx, chat, say, 'close');
  });
  plug(WIDGET_EXTRAS, {
    assessment: assessmentOn,
    pendingRating,
    rate: (a, channelId, visitorId, uuid, score) => rateAsVisitor(a, channelId, visitorId, uuid, score),
  });
  plug(RATING_PUSH, (app, channelId, visitorId, rating) =>
    pushToVisitor(app, channelId, visitorId, { type: 'rating', rating }),
  );
  onEvent('chat.closed', async (a, event) => {
    const chatId =
      (event.payload as { id?: string; chatId?: string })?.id ??
      (event.payload as { chatId?: string })?.chatId;
    if (chatId) await pushPendingRating(a, chatId);
  });
}
