import type { OutboundMessage } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from './lifecycle.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';
import { recordDelivery } from './timers.ts';

/** One of our messages as a channel delivers it: the adapter's OutboundMessage without the outbox's part. */
export type OutboundView = Omit<OutboundMessage, 'deliveryId' | 'event'>;

const view = (m: Q.OutboundRow): OutboundView => ({
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
});

/** One of our messages as a channel delivers it, as it is now (an edit sends the current text); null when gone. */
export async function outboundMessage(app: AppContext, messageId: string): Promise<OutboundView | null> {
  const m = await Q.findOutbound(app.db, messageId);
  return m ? view(m) : null;
}

/** outboundMessage for many messages in one read, by id (those gone are missing from the map). */
export async function outboundMessages(app: AppContext, ids: string[]): Promise<Map<string, OutboundView>> {
  return new Map((await Q.findOutboundMany(app.db, ids)).map((m) => [m.id, view(m)]));
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

/**
 * Records many accepted deliveries at once (settleOutbound for a chunk sent together): the messages move to Sent with
 * their providers' ids, in two statements, and each moved one's status event goes to its chat's audience.
 */
export async function settleManySent(
  tx: Tx,
  items: { messageId: string; externalId?: string }[],
): Promise<void> {
  if (!items.length) return;
  const moved = await Q.markManySent(
    tx.q,
    items.map((i) => ({ id: i.messageId, externalId: i.externalId ?? null })),
  );
  if (!moved.length) return;
  const chats = new Map(
    (await Q.findChats(tx.q, [...new Set(moved.map((m) => m.chat_id))])).map((c) => [c.id, c]),
  );
  for (const m of moved) {
    const chat = chats.get(m.chat_id);
    if (chat) await tx.emit(m.organisation_id, 'message.status', presentMessage(m), chatAudience(chat));
  }
}
