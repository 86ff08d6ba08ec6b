import type { MessageDto } from '@smartconnect/contracts';
import type { InboundEvent, RawRequest } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { recordChannelDelivery } from '../chats/delivery-status.ts';
import { type IngestResult, ingestInbound } from '../chats/ingest.ts';
import type { ChannelRow } from './queries.ts';
import { inboundChannel } from './service.ts';

export type Received = { event: InboundEvent['kind']; result: IngestResult | MessageDto | null };

async function act(app: AppContext, row: ChannelRow, e: InboundEvent): Promise<Received> {
  switch (e.kind) {
    case 'message':
      return { event: e.kind, result: await ingestInbound(app, row, e.message) };
    case 'status':
      return e.messageId && e.status !== 'undelivered'
        ? {
            event: e.kind,
            result: await recordChannelDelivery(app, row, { messageId: e.messageId, status: e.status }),
          }
        : { event: e.kind, result: null };
    default:
      // Edits, postbacks and opt-outs are acted on as their channels arrive (issue: channel platform).
      app.log.info({ channel: row.id, kind: e.kind }, 'inbound event not acted on yet');
      return { event: e.kind, result: null };
  }
}

/**
 * One provider request to one channel: verified by the channel's adapter (401), refused while the channel or its
 * organisation is inactive (nothing stored), parsed into events, and each acted on; the caller answers after
 * every event is committed, so a provider that does not hear back retries and the dedupe keys make that harmless.
 */
export async function receiveWebhook(
  app: AppContext,
  channelId: string,
  req: RawRequest,
  type?: string,
): Promise<Received[]> {
  const { row, adapter, channel } = await inboundChannel(app, channelId, req, type);
  const events = adapter.parse(channel, req);
  const out: Received[] = [];
  for (const e of events) out.push(await act(app, row, e));
  return out;
}
