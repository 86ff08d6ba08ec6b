import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { adapterFor } from '../../channels/registry.ts';
import type { SendResult } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import type { OutboxHandler } from '../../jobs/outbox.ts';
import type { OutboxRow } from '../../jobs/queries.ts';
import { metricsOf } from '../../lib/metrics.ts';
import { withSpan } from '../../lib/tracing.ts';
import {
  type OutboundView,
  outboundMessage,
  outboundMessages,
  settleManySent,
  settleOutbound,
} from '../conversation/outbound.ts';
import { recordChannelProblem, resolveChannelProblems } from './problems.ts';
import * as Q from './queries.ts';
import { adapterChannel, adapterContext } from './service.ts';

/** Providers' words for refused credentials, for adapters that do not say `tokenRefused` themselves. */
const TOKEN_REFUSED = /unauthori[sz]ed|invalid[\w\s]*(access )?token|token[\w\s]*(invalid|expired|revoked)/i;

/** One row sent through its channel's adapter, the channel's problems kept as the outcome says. */
async function sendThrough(
  app: AppContext,
  channelRow: Q.ChannelRow,
  message: OutboundView,
  row: OutboxRow,
): Promise<SendResult> {
  const adapter = adapterFor(channelRow.type);
  const outcome = await withSpan(
    'provider.send',
    { 'channel.type': channelRow.type },
    async (span) => {
      const out = await adapter.send(adapterContext(app), adapterChannel(app, channelRow), {
        ...message,
        deliveryId: row.id,
        event: row.event,
      });
      if (!out.ok) span?.setStatus({ code: SpanStatusCode.ERROR, message: out.error.slice(0, 200) });
      return out;
    },
    SpanKind.CLIENT,
  ).catch((err: unknown) => {
    metricsOf(app).providerErrors.inc({ channel_type: channelRow.type, retryable: 'thrown' });
    throw err;
  });
  if (!outcome.ok) {
    metricsOf(app).providerErrors.inc({
      channel_type: channelRow.type,
      retryable: String(outcome.retryable),
    });
    // A refused token or an unreachable provider is the channel's problem (a 429 is only a wait).
    if (outcome.tokenRefused || TOKEN_REFUSED.test(outcome.error))
      await recordChannelProblem(app, channelRow, 'token_refused', outcome.error);
    else if (outcome.retryable && !outcome.retryAfterMs)
      await recordChannelProblem(app, channelRow, 'unreachable', outcome.error);
  } else await resolveChannelProblems(app, channelRow, ['token_refused', 'unreachable']);
  return outcome;
}

const CHANNEL_GONE = { ok: false, retryable: false, error: 'channel deleted' } as const;
const MESSAGE_GONE = { ok: false, retryable: false, error: 'message gone' } as const;

/**
 * Delivers an outbox row through its channel's adapter: the message is read as it is now and rendered by the
 * adapter into the provider's call. A deleted channel or message cannot be delivered (final).
 */
export const channelOutbox: OutboxHandler = {
  async send(app, row) {
    const channelRow = await Q.findChannelById(app.db, row.channel_id);
    if (!channelRow) return CHANNEL_GONE;
    const message = await outboundMessage(app, row.message_id);
    if (!message) return MESSAGE_GONE;
    return sendThrough(app, channelRow, message, row);
  },
  /** Many rows (a mailing's chunk): their channels and messages read once, then every send in parallel. */
  async sendMany(app, rows) {
    const channels = new Map(
      await Promise.all(
        [...new Set(rows.map((r) => r.channel_id))].map(
          async (id) => [id, await Q.findChannelById(app.db, id)] as const,
        ),
      ),
    );
    const messages = await outboundMessages(
      app,
      rows.map((r) => r.message_id),
    );
    return rows.map((row) => {
      const channelRow = channels.get(row.channel_id);
      const message = messages.get(row.message_id);
      if (!channelRow) return Promise.resolve(CHANNEL_GONE);
      if (!message) return Promise.resolve(MESSAGE_GONE);
      return sendThrough(app, channelRow, message, row);
    });
  },
  settle: (tx, row, result) => settleOutbound(tx, row.message_id, result),
  settleSent: (tx, sent) =>
    settleManySent(
      tx,
      sent.map(({ row, externalId }) => ({ messageId: row.message_id, externalId })),
    ),
};
