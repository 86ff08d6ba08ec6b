import type { MessageDto } from '@smartconnect/contracts';
import type { InboundMessage } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { insertTimerIfAbsent, upsertTimer } from '../../jobs/queries.ts';
import { withEvents } from '../../realtime/emit.ts';
import { lockTeam } from '../routing/service.ts';
import { emitChat, routeWaiting, type Tx } from './lifecycle.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';

export type IngestChannel = {
  id: string;
  organisation_id: string;
  team_id: string;
  half_expired_minutes: number | null;
  expired_minutes: number | null;
  org_options: string[];
};

export type IngestResult = { duplicate: boolean; messageId: string; chatId: string };

class Duplicate extends Error {}

/**
 * One inbound customer message, in ONE transaction: dedupe by (channel, provider message id), upsert the
 * client and contact, find the open chat or open a new session, append the message, write history, route a
 * new chat, arm its timers and emit events. A retry of the same provider message changes nothing.
 */
export async function ingestInbound(
  app: AppContext,
  channel: IngestChannel,
  msg: InboundMessage,
): Promise<IngestResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ingestOnce(app, channel, msg);
    } catch (err) {
      if (err instanceof Duplicate) {
        const first = await Q.findMessageByExternal(app.db, channel.id, msg.externalMessageId);
        if (!first) throw new Error('duplicate message not found after conflict');
        return { duplicate: true, messageId: first.id, chatId: first.chat_id };
      }
      // PostgreSQL breaks a rare lock cycle by failing one side: that side simply runs again.
      if ((err as { code?: string }).code !== '40P01' || attempt >= 3) throw err;
    }
  }
}

async function ingestOnce(
  app: AppContext,
  channel: IngestChannel,
  msg: InboundMessage,
): Promise<IngestResult> {
  const now = app.clock.now();
  const fast = await appendFast(app, channel, msg, now);
  if (fast) return fast;
  return withEvents(app, (q, emit) => openAndAppend({ q, emit, now }, channel, msg));
}

/**
 * The common case, a message in an ongoing conversation: one atomic statement (queries.appendToOpenChat)
 * stores it with its event row; the event is published once that statement has committed.
 */
async function appendFast(
  app: AppContext,
  channel: IngestChannel,
  msg: InboundMessage,
  now: Date,
): Promise<IngestResult | null> {
  const payload: Omit<MessageDto, 'id' | 'chatId'> = {
    direction: 'in',
    kind: 'normal',
    internal: false,
    text: msg.text,
    attachments: msg.attachments,
    status: null,
    author: null,
    externalMessageId: msg.externalMessageId,
    editedAt: null,
    createdAt: now.toISOString(),
  };
  const expiring = channel.org_options.includes('OPTION_EXPIRING');
  const row = await Q.appendToOpenChat(app.db, {
    orgId: channel.organisation_id,
    channelId: channel.id,
    externalClientId: msg.client.externalId,
    now,
    text: msg.text,
    attachments: msg.attachments,
    externalMessageId: msg.externalMessageId,
    payloadJson: JSON.stringify(payload),
    halfExpiredMinutes: expiring ? channel.half_expired_minutes : null,
    expiredMinutes: expiring ? channel.expired_minutes : null,
  });
  if (!row?.message_id || !row.event_id || !row.event_created_at || !row.audience) return null;
  await app.bus.publish([
    {
      id: row.event_id,
      organisationId: channel.organisation_id,
      type: 'message.created',
      payload: { id: row.message_id, chatId: row.chat_id, ...payload },
      audience: row.audience,
      createdAt: new Date(row.event_created_at).toISOString(),
    },
  ]);
  return { duplicate: false, messageId: row.message_id, chatId: row.chat_id };
}

/** First message of a client, or of a new session: client, contact and chat are created, then the chat is routed. */
async function openAndAppend(tx: Tx, channel: IngestChannel, msg: InboundMessage): Promise<IngestResult> {
  const { q, now } = tx;
  const orgId = channel.organisation_id;
  const name = msg.client.name || msg.client.externalId;
  const contact = await Q.upsertContact(q, orgId, channel.id, msg.client.externalId, name);
  const chat = await Q.openChat(q, {
    orgId,
    channelId: channel.id,
    clientId: contact.client_id,
    contactId: contact.id,
    teamId: channel.team_id,
    text: msg.text,
    now,
  });
  const message = await Q.insertMessage(q, {
    orgId,
    chatId: chat.id,
    channelId: channel.id,
    direction: 'in',
    kind: 'normal',
    internal: false,
    text: msg.text,
    attachments: msg.attachments,
    status: null,
    authorId: null,
    externalMessageId: msg.externalMessageId,
    now,
  });
  // Another delivery of this message committed first: undo everything this one did.
  if (!message) throw new Duplicate();
  const touched = chat.created ? chat : await Q.touchChatOnClientMessage(q, chat.id, msg.text, now);
  // A brand-new contact has no earlier session to reopen.
  const reopened =
    chat.created && !contact.created && (await Q.hadEarlierChat(q, contact.client_id, chat.id));
  if (chat.created)
    await Q.insertHistory(q, {
      orgId,
      chatId: chat.id,
      kind: reopened ? 'reopen' : 'created',
      toTeamId: channel.team_id,
      now,
    });
  const current = chat.created
    ? await emitChat(tx, orgId, chat.id, 'chat.created')
    : await Q.findChat(q, orgId, chat.id);
  if (!current) throw new Error('chat vanished');
  await tx.emit(orgId, 'message.created', presentMessage(message), chatAudience(current));
  if (touched.auto_close_minutes)
    await upsertTimer(
      q,
      orgId,
      'auto_close',
      chat.id,
      new Date(now.getTime() + touched.auto_close_minutes * 60_000),
    );
  await armOverdue(tx, channel, chat.id, new Date(touched.unanswered_since));
  // Routing last: the team lock is held only for the few statements that choose and assign.
  if (chat.created) {
    const locked = await lockTeam(q, channel.team_id);
    if (locked) {
      const row = { ...current, operator_id: null };
      if (
        await routeWaiting(tx, locked, row, {
          preferLastOperator: await Q.hadEarlierChat(q, contact.client_id, chat.id),
        })
      )
        await emitChat(tx, orgId, chat.id, 'chat.assigned', { teamIds: [locked.id] });
    }
  }
  return { duplicate: false, messageId: message.id, chatId: chat.id };
}

/** A client message that opens an unanswered window starts the overdue clocks (OPTION_EXPIRING, channel thresholds). */
async function armOverdue(tx: Tx, channel: IngestChannel, chatId: string, unansweredSince: Date) {
  if (unansweredSince.getTime() !== tx.now.getTime() || !channel.org_options.includes('OPTION_EXPIRING'))
    return;
  const at = (minutes: number) => new Date(unansweredSince.getTime() + minutes * 60_000);
  const orgId = channel.organisation_id;
  if (channel.half_expired_minutes)
    await insertTimerIfAbsent(tx.q, orgId, 'overdue_half', chatId, at(channel.half_expired_minutes));
  if (channel.expired_minutes)
    await insertTimerIfAbsent(tx.q, orgId, 'overdue_expired', chatId, at(channel.expired_minutes));
}
