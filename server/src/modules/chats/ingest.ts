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
  const seen = await Q.findMessageByExternal(app.db, channel.id, msg.externalMessageId);
  if (seen) return { duplicate: true, messageId: seen.id, chatId: seen.chat_id };
  for (let attempt = 1; ; attempt++) {
    try {
      return await ingestOnce(app, channel, msg);
    } catch (err) {
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
  try {
    return await withEvents(app, async (q, emit) => {
      const tx: Tx = { q, emit, now };
      const orgId = channel.organisation_id;
      const name = msg.client.name || msg.client.externalId;
      const contact = await Q.upsertContact(q, orgId, channel.id, msg.client.externalId, name);
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

      if (chat.created) {
        const reopened = await Q.hadEarlierChat(q, contact.client_id, chat.id);
        await Q.insertHistory(q, {
          orgId,
          chatId: chat.id,
          kind: reopened ? 'reopen' : 'created',
          toTeamId: channel.team_id,
          now,
        });
        await emitChat(tx, orgId, chat.id, 'chat.created');
        const team = await lockTeam(q, channel.team_id);
        if (team) {
          const row = {
            id: chat.id,
            organisation_id: orgId,
            operator_id: null,
            team_id: team.id,
            client_id: contact.client_id,
          };
          if (await routeWaiting(tx, team, row, { preferLastOperator: reopened }))
            await emitChat(tx, orgId, chat.id, 'chat.assigned', { teamIds: [team.id] });
        }
      }
      const current = await Q.findChat(q, orgId, chat.id);
      if (!current) throw new Error('chat vanished');
      await emit(orgId, 'message.created', presentMessage(message), chatAudience(current));
      await armClientTimers(tx, channel, current, new Date(touched.unanswered_since));
      return { duplicate: false, messageId: message.id, chatId: chat.id };
    });
  } catch (err) {
    if (!(err instanceof Duplicate)) throw err;
    const first = await Q.findMessageByExternal(app.db, channel.id, msg.externalMessageId);
    if (!first) throw new Error('duplicate message not found after conflict');
    return { duplicate: true, messageId: first.id, chatId: first.chat_id };
  }
}

/** A client message restarts the auto-close clock and, if it opens an unanswered window, the overdue clocks. */
async function armClientTimers(tx: Tx, channel: IngestChannel, chat: Q.ChatRow, unansweredSince: Date) {
  const team = await findTeam(tx.q, chat.team_id);
  const orgId = channel.organisation_id;
  if (team?.auto_close_minutes)
    await upsertTimer(
      tx.q,
      orgId,
      'auto_close',
      chat.id,
      new Date(tx.now.getTime() + team.auto_close_minutes * 60_000),
    );
  if (unansweredSince.getTime() !== tx.now.getTime() || !channel.org_options.includes('OPTION_EXPIRING'))
    return;
  const at = (minutes: number) => new Date(unansweredSince.getTime() + minutes * 60_000);
  if (channel.half_expired_minutes)
    await insertTimerIfAbsent(tx.q, orgId, 'overdue_half', chat.id, at(channel.half_expired_minutes));
  if (channel.expired_minutes)
    await insertTimerIfAbsent(tx.q, orgId, 'overdue_expired', chat.id, at(channel.expired_minutes));
}
