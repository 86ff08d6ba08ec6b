import type { DeliveryStatusUpdate, MessageDto } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';
import { recordDelivery } from './timers.ts';

/**
 * A channel's report that one of our outbound messages was delivered or read: the status moves forward only
 * (sent -> delivered -> read, never back; a repeated or late report changes nothing) and `message.status` goes to
 * whoever sees the chat. Only messages of this channel, hence of its organisation, are found
 * (messageNotFoundException otherwise). Answers the message as it is now.
 */
export async function recordChannelDelivery(
  app: AppContext,
  channel: { id: string; organisation_id: string },
  update: DeliveryStatusUpdate,
): Promise<MessageDto> {
  return withEvents(app, async (q, emit) => {
    const found = await Q.findOutboundMessage(q, channel.organisation_id, channel.id, update.messageId);
    if (!found) throw new AppError('messageNotFoundException');
    const moved = await recordDelivery({ q, emit, now: app.clock.now() }, found.id, update.status);
    return presentMessage(moved ?? found);
  });
}

/**
 * A channel's report that one of our messages it had accepted never reached the client (an e-mail bounce): the
 * message becomes Undelivered with the reason, even after Sent, and `message.status` goes to whoever sees the
 * chat. Only messages of this channel are found; a report on a delivered or read message changes nothing.
 */
export async function recordChannelBounce(
  app: AppContext,
  channel: { id: string; organisation_id: string },
  messageId: string,
  reason: string,
): Promise<MessageDto | null> {
  return withEvents(app, async (q, emit) => {
    const found = await Q.findOutboundMessage(q, channel.organisation_id, channel.id, messageId);
    if (!found) return null;
    const m = await Q.bounceMessage(q, found.id, reason.slice(0, 500));
    if (!m) return presentMessage(found);
    const chat = await Q.findChat(q, m.organisation_id, m.chat_id);
    if (chat) await emit(m.organisation_id, 'message.status', presentMessage(m), chatAudience(chat));
    return presentMessage(m);
  });
}
