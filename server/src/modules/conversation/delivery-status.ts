import type { MessageDto } from '@smartconnect/contracts';
import type { InboundEvent } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';
import { recordDelivery } from './timers.ts';

/** The most earlier messages one "up to" report or watermark moves (older ones were reported on long ago). */
const UP_TO_LIMIT = 100;
/** A provider's moment (epoch ms) that is a date at all: anything else names no message. */
const validTime = (ms: number) => Number.isFinite(ms) && !Number.isNaN(new Date(ms).getTime());

/**
 * A provider's status report on one of our messages named by the provider's own id (a WhatsApp wamid) or ours:
 * delivered and read move forward as above; 'undelivered' (the provider failed it after accepting it) moves a
 * pending or sent message to Undelivered with the provider's reason. An unknown message or a late report changes
 * nothing (null; by our id: messageNotFoundException): the provider does not retry a status, and it may name a message sent before the channel existed.
 */
export async function recordProviderStatus(
  app: AppContext,
  channel: { id: string; organisation_id: string },
  report: Omit<Extract<InboundEvent, { kind: 'status' }>, 'kind'>,
): Promise<MessageDto | null> {
  return withEvents(app, async (q, emit) => {
    const org = channel.organisation_id;
    const found = report.messageId
      ? await Q.findOutboundMessage(q, org, channel.id, report.messageId)
      : report.externalId
        ? await Q.findOutboundByExternalId(q, org, channel.id, report.externalId)
        : report.watermark && validTime(report.watermark.at)
          ? await Q.latestOutboundBefore(
              q,
              org,
              channel.id,
              report.watermark.clientExternalId,
              new Date(report.watermark.at),
            )
          : undefined;
    // A report by our own id (the API channel's) names a message that must exist.
    if (!found && report.messageId) throw new AppError('messageNotFoundException');
    if (!found) return null;
    const tx = { q, emit, now: app.clock.now() };
    if (report.status !== 'undelivered') {
      const moved = await recordDelivery(tx, found.id, report.status);
      // A watermark, or a mark "up to" this message: the earlier ones of the chat move with it (oldest first, so
      // the events keep the chat's order), at most UP_TO_LIMIT of them.
      if (report.upTo || report.watermark) {
        const earlier = await Q.earlierOutbound(q, found, report.status, UP_TO_LIMIT);
        for (const { id } of earlier.reverse()) await recordDelivery(tx, id, report.status);
      }
      return presentMessage(moved ?? found);
    }
    const failed = await Q.failSentMessage(q, found.id, report.reason?.slice(0, 500) ?? null);
    if (!failed) return presentMessage(found);
    const chat = await Q.findChat(q, failed.organisation_id, failed.chat_id);
    if (chat)
      await emit(failed.organisation_id, 'message.status', presentMessage(failed), chatAudience(chat));
    return presentMessage(failed);
  });
}
