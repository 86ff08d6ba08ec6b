import type { Attachment, MessageDto } from '@smartconnect/contracts';
import { adapterFor } from '../../channels/registry.ts';
import {
  type AdapterChannel,
  type ChannelAdapter,
  type InboundEvent,
  type InboundMessage,
  MediaError,
  type RawRequest,
  type ReceivedEvent,
} from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { recordProviderStatus } from '../chats/delivery-status.ts';
import { editInbound, inboundKnown, optOut } from '../chats/inbound-events.ts';
import { type IngestResult, ingestInbound } from '../chats/ingest.ts';
import { saveFile } from '../files/service.ts';
import { withClientNames } from './client-names.ts';
import type { ChannelRow } from './queries.ts';
import { adapterContext, inboundChannel } from './service.ts';
import { setAsideUnreadable } from './unreadable.ts';

export type Received = { event: InboundEvent['kind']; result: IngestResult | MessageDto | null };

type Target = { app: AppContext; row: ChannelRow; adapter: ChannelAdapter; channel: AdapterChannel };

/**
 * The provider's files of a message, fetched into our storage (their links expire) and attached. A file the
 * provider will never give (too big, gone) becomes a visible notice in the text; one it cannot give now refuses
 * the whole request (503), so the provider retries it later.
 */
async function withMedia(t: Target, msg: InboundMessage): Promise<InboundMessage> {
  if (msg.files?.length) msg = { ...msg, ...(await withFiles(t, msg)) };
  if (!msg.media?.length || !t.adapter.fetchMedia) return msg;
  const attachments: Attachment[] = [...msg.attachments];
  const notices: string[] = [];
  for (const ref of msg.media) {
    try {
      const file = await t.adapter.fetchMedia(adapterContext(t.app), t.channel, ref);
      const key = await t.app.db.tx((q) =>
        saveFile(t.app, q, t.row.organisation_id, file.data, file.contentType),
      );
      attachments.push({
        url: `/api/files/${key}`,
        name: file.name ?? ref.name,
        contentType: file.contentType,
        size: file.data.length,
      });
    } catch (err) {
      if (!(err instanceof MediaError) || err.retryable) {
        t.app.log.warn({ err, channel: t.row.id }, 'provider file not fetched; the provider will retry');
        throw new AppError('providerUnavailableException');
      }
      notices.push(`[${ref.name ?? 'file'}: not available (${err.message})]`);
    }
  }
  const text = [msg.text, ...notices].filter(Boolean).join('\n');
  return { ...msg, text, attachments, media: undefined };
}

/** Files that came with the message (an e-mail's attachments) into our storage, attached in their order. */
async function withFiles(
  t: Target,
  msg: InboundMessage,
): Promise<Pick<InboundMessage, 'attachments' | 'files'>> {
  const attachments: Attachment[] = [...msg.attachments];
  for (const file of msg.files ?? []) {
    const key = await t.app.db.tx((q) =>
      saveFile(t.app, q, t.row.organisation_id, file.data, file.contentType),
    );
    attachments.push({
      url: `/api/files/${key}`,
      name: file.name,
      contentType: file.contentType,
      size: file.data.length,
    });
  }
  return { attachments, files: undefined };
}

async function act(t: Target, e: InboundEvent): Promise<Received> {
  const { app, row } = t;
  switch (e.kind) {
    case 'message':
    case 'postback': {
      // A retry of a stored message needs no second download.
      const known =
        (e.message.media?.length || e.message.files?.length) &&
        (await inboundKnown(app, row.id, e.message.externalMessageId));
      const message = known
        ? { ...e.message, media: undefined, files: undefined }
        : await withMedia(t, e.message);
      // A pressed button's payload rides on the message (the bot runtime reads it).
      const pressed = e.kind === 'postback' ? { ...message, payload: e.data } : message;
      return { event: e.kind, result: await ingestInbound(app, row, pressed) };
    }
    case 'edit':
      return {
        event: e.kind,
        result: await editInbound(app, row, e.message.externalMessageId, e.message.text),
      };
    case 'status':
      return { event: e.kind, result: await recordProviderStatus(app, row, e) };
    case 'opt_out':
      await optOut(app, row, e.client.externalId);
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
  const parsed = await setAsideUnreadable(app, row, adapter.parse(channel, req));
  const events = await withClientNames(
    app,
    row,
    adapter.clientNames &&
      (async (ids) => (await adapter.clientNames?.(adapterContext(app), channel, ids)) ?? {}),
    parsed,
  );
  const t = { app, row, adapter, channel };
  const out: Received[] = [];
  for (const e of events) out.push(await act(t, e));
  if (adapter.afterReceive && events.length)
    await adapter.afterReceive(adapterContext(app), channel, events).catch((err) => {
      app.log.warn({ err, channel: channelId }, 'after-receive step failed');
    });
  return out;
}

/**
 * Events a pull channel read (a mailbox), acted on like a webhook's, one after the other, each committed before
 * the next: answers what each became (the stored message, or null for events that store none).
 */
export async function receivePolled(
  app: AppContext,
  row: ChannelRow,
  channel: AdapterChannel,
  events: InboundEvent[],
): Promise<ReceivedEvent[]> {
  const t = { app, row, adapter: adapterFor(row.type), channel };
  const out: ReceivedEvent[] = [];
  for (const e of events) {
    const { result } = await act(t, e);
    out.push(
      result && 'chatId' in result && 'messageId' in result
        ? { messageId: result.messageId, chatId: result.chatId, duplicate: result.duplicate }
        : null,
    );
  }
  return out;
}
