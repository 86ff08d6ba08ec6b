import { pushToVisitor } from '../../channels/site_chat/gateway.ts';
import { registerWidgetExtras } from '../../channels/site_chat/routes.ts';
import { onEvent } from '../../realtime/consumers.ts';
import { registerCloseStep } from '../chats/close-chat.ts';
import * as Q from './queries.ts';
import { assessmentOn, pendingRating, rateAsVisitor, requestRating } from './service.ts';

/** Ratings plug in: a request when a chat closes, the widget's buttons (and their push after the close). */
export function registerRatings(): void {
  registerCloseStep(async (app, tx, chat, say) => {
    await requestRating(app, tx.q, chat, tx.now, say, 'close');
  });
  registerWidgetExtras({
    assessment: assessmentOn,
    pendingRating,
    rate: (a, channelId, visitorId, uuid, score) => rateAsVisitor(a, channelId, visitorId, uuid, score),
  });
  onEvent('chat.closed', async (a, event) => {
    const chatId =
      (event.payload as { id?: string; chatId?: string })?.id ??
      (event.payload as { chatId?: string })?.chatId;
    if (!chatId) return;
    const owner = await Q.chatContact(a.db, chatId);
    if (!owner) return;
    const rating = await pendingRating(a, owner.channel_id, owner.external_id);
    if (rating) pushToVisitor(a, owner.channel_id, owner.external_id, { type: 'rating', rating });
  });
}
