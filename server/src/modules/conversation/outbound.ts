import type { OutboundMessage } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from './lifecycle.ts';
import * as Q from './queries.ts';
import { recordDelivery } from './timers.ts';

/** One of our messages as a channel delivers it: the adapter's OutboundMessage without the outbox's part. */
export type OutboundView = Omit<OutboundMessage, 'deliveryId' | 'event'>;

/** One of our messages as a channel delivers it, as it is now (an edit sends the current text); null when gone. */
export async function outboundMessage(app: AppContext, messageId: string): Promise<OutboundView | null> {
  const m = await Q.findOutbound(app.db, messageId);
  if (!m) return null;
  return {
    id: m.id,
    chatId: m.chat_id,
    client: { externalId: m.client_external_id },
    text: m.text,
    attachments: m.attachments,
    buttons: m.buttons?.length ? m.buttons : [],
    createdAt: new Date(m.created_at).toISOString(),
    editedAt: m.edited_at ? new Date(m.edited_at).toISOString() : null,
    externalId: m.external_message_id,
    automatic: m.author_id === null,
    ...(m.provider_template ? { template: m.provider_template } : {}),
  };
}

/** Records how a delivery ended: the message's status moves (Sent or Undelivered) and the provider's id is kept. */
export async function settleOutbound(
  tx: Tx,
  messageId: string,
  result: { status: 'sent' | 'undelivered'; externalId?: string; reason?: string },
): Promise<void> {
  if (result.externalId) await Q.setProviderMessageId(tx.q, messageId, result.externalId);
  await recordDelivery(tx, messageId, result.status, result.reason ?? null);
}
