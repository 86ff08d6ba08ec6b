import { plug } from '../../plug-points.ts';
import { onEvent } from '../../realtime/consumers.ts';
import { CLOSE_STEPS } from '../conversation/close-chat.ts';
import { WIDGET_EXTRAS } from '../widget/routes.ts';
import { assessmentOn, pendingRating, pushPendingRating, rateAsVisitor, requestRating } from './service.ts';

/** Ratings plug in: a request when a chat closes, the widget's buttons (pushed after the close: widget/register.ts). */
export function registerRatings(): void {
  plug(CLOSE_STEPS, async (app, tx, chat, say) => {
    await requestRating(app, tx, chat, say, 'close');
  });
  plug(WIDGET_EXTRAS, {
    assessment: assessmentOn,
    pendingRating,
    rate: (a, channelId, visitorId, uuid, score) => rateAsVisitor(a, channelId, visitorId, uuid, score),
  });
  onEvent('chat.closed', async (a, event) => {
    const chatId =
      (event.payload as { id?: string; chatId?: string })?.id ??
      (event.payload as { chatId?: string })?.chatId;
    if (chatId) await pushPendingRating(a, chatId);
  });
}
