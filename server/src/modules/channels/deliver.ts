import { adapterFor } from '../../channels/registry.ts';
import type { OutboxHandler } from '../../jobs/outbox.ts';
import { outboundMessage, settleOutbound } from '../chats/outbound.ts';
import * as Q from './queries.ts';
import { adapterChannel, adapterContext } from './service.ts';

/**
 * Delivers an outbox row through its channel's adapter: the message is read as it is now and rendered by the
 * adapter into the provider's call. A deleted channel or message cannot be delivered (final).
 */
export const channelOutbox: OutboxHandler = {
  async send(app, row) {
    const channelRow = await Q.findChannelById(app.db, row.channel_id);
    if (!channelRow) return { ok: false, retryable: false, error: 'channel deleted' };
    const message = await outboundMessage(app, row.message_id);
    if (!message) return { ok: false, retryable: false, error: 'message gone' };
    const adapter = adapterFor(channelRow.type);
    return adapter.send(adapterContext(app), adapterChannel(app, channelRow), {
      ...message,
      deliveryId: row.id,
      event: row.event,
    });
  },
  settle: (tx, row, result) => settleOutbound(tx, row.message_id, result),
};
