import type { InboundMessage } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { insertTimerIfAbsent, upsertTimer } from '../../jobs/queries.ts';
import { withEvents } from '../../realtime/emit.ts';
import { findTeam, lockTeam } from '../routing/service.ts';
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
  return withEvents(app, async (q, emit) => {
    const tx: Tx = { q, emit, now };
    const known = await Q.findContactChat(q, channel.id, msg.client.externalId);
    // The common case, an ongoing conversation: one statement appends, touches the chat and re-arms auto-close.
    if (known?.chat_id) {
      const done = await appendToOpenChat(tx, channel, known.chat_id, msg);
      if (done) return done;
    }
    return openAndAppend(tx, channel, known, msg);
  });
}

async function appendToOpenChat(
  tx: Tx,
  channel: IngestChannel,
  chatId: string,
  msg: InboundMessage,
): Promise<IngestResult | null> {
  const row = await Q.appendClientMessage(tx.q, {
    orgId: channel.organisation_id,
    channelId: channel.id,
    chatId,
    text: msg.text,
    attachments: msg.attachments,
    externalMessageId: msg.externalMessageId,
    now: tx.now,
  });
  if (!row) return null; // closed in the meantime: a new session opens
  if (!row.message_id) throw new Duplicate();
  const message: Q.MessageRow = {
    id: row.message_id,
    chat_id: chatId,
    direction: 'in',
    kind: 'normal',
    internal: false,
    text: msg.text,
    attachments: msg.attachments,
    status: null,
    author_id: null,
    author_name: null,
    external_message_id: msg.externalMessageId,
    edited_at: null,
    created_at: tx.now,
  };
  await tx.emit(channel.organisation_id, 'message.created', presentMessage(message), chatAudience(row));
  await armOverdue(tx, channel, chatId, new Date(row.unanswered_since));
  return { duplicate: false, messageId: message.id, chatId };
}

/** First message of a client, or of a new session: client, contact and chat are created, then the chat is routed. */
async function openAndAppend(
  tx: Tx,
  channel: IngestChannel,
  known: { contact_id: string; client_id: string } | undefined,
  msg: InboundMessage,
): Promise<IngestResult> {
  const { q, now } = tx;
  const orgId = channel.organisation_id;
  const name = msg.client.name || msg.client.externalId;
  const contact = known
    ? { id: known.contact_id, client_id: known.client_id, created: false }
    : await Q.upsertContact(q, orgId, channel.id, msg.client.externalId, name);
  if (contact.created) await Q.insertClient(q, orgId, contact.client_id, name);
  const chat = await Q.openChat(q, {
    orgId,
    channelId: channel.id,
    clientId: contact.client_id,
    contactId: contact.id,
    teamId: channel.team_id,
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
  const touched = await Q.touchChatOnClientMessage(q, chat.id, msg.text, now);
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
  const team = await findTeam(q, current.team_id);
  if (team?.auto_close_minutes)
    await upsertTimer(
      q,
      orgId,
      'auto_close',
      chat.id,
      new Date(now.getTime() + team.auto_close_minutes * 60_000),
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
