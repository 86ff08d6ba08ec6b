import type { MessageDto } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { withEvents } from '../../realtime/emit.ts';
import { markOptedOut, moveContactAddress } from '../clients/contacts.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';

type Channel = { id: string; organisation_id: string };

/** True when the provider's message is already stored (a provider's retry): nothing needs fetching again. */
export async function inboundKnown(app: AppContext, channelId: string, externalMessageId: string) {
  return (
    (
      await app.db.query('select 1 from messages where channel_id = $1 and external_message_id = $2', [
        channelId,
        externalMessageId,
      ])
    ).length > 0
  );
}

/**
 * The client edited a message we stored: its text becomes the new one, its kind 'edited', and whoever sees the
 * chat gets message.updated. An edit of a message we never stored (sent before the channel was connected) or a
 * repeat of the same text changes nothing.
 */
export async function editInbound(
  app: AppContext,
  channel: Channel,
  externalMessageId: string,
  text: string,
): Promise<MessageDto | null> {
  return withEvents(app, async (q, emit) => {
    const m = await Q.findInbound(q, channel.id, externalMessageId);
    if (!m || m.text === text) return m ? presentMessage(m) : null;
    const edited = await Q.editMessageText(q, m.id, text, 'edited', app.clock.now());
    const chat = await Q.findChat(q, channel.organisation_id, m.chat_id);
    if (chat)
      await emit(channel.organisation_id, 'message.updated', presentMessage(edited), chatAudience(chat));
    return presentMessage(edited);
  });
}

/** The client blocked us or unsubscribed: their contact on this channel is marked, replies will not reach them. */
export async function optOut(app: AppContext, channel: Channel, externalId: string): Promise<void> {
  await markOptedOut(app.db, channel.id, externalId, app.clock.now());
}

/**
 * The client's address at the provider changed (a new WhatsApp number): their contact on this channel takes the new
 * one. When the new address already has a contact of its own (the client wrote from it first), both stay as they
 * are: the notice in the chat tells the operator, who can merge the clients.
 */
export async function moveContact(
  app: AppContext,
  channel: Channel,
  externalId: string,
  newExternalId: string,
): Promise<void> {
  if (externalId === newExternalId) return;
  await moveContactAddress(app.db, channel.id, externalId, newExternalId);
}

/** The client's open chat through this channel, if any (at most one: chats' unique open (channel, contact)). */
export async function openChatOfContact(
  app: AppContext,
  channel: Channel,
  externalId: string,
): Promise<string | undefined> {
  const [row] = await app.db.query<{ id: string }>(
    `select c.id from chats c join contacts ct on ct.id = c.contact_id
      where c.organisation_id = $1 and c.channel_id = $2 and ct.external_id = $3 and c.status <> 'closed'`,
    [channel.organisation_id, channel.id, externalId],
  );
  return row?.id;
}

/** The label of our button with this payload in the client's newest message that has one (a press told only by payload). */
export async function pressedLabel(
  app: AppContext,
  channel: Channel,
  clientExternalId: string,
  payload: string,
): Promise<string | undefined> {
  if (!payload) return undefined;
  return (await Q.buttonLabel(app.db, channel.organisation_id, channel.id, clientExternalId, payload))?.label;
}
