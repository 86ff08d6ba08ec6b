import type { DeliveryStatusUpdate, MessageDto } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
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
