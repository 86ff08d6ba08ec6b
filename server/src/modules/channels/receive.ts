import type { Attachment, MessageDto } from '@smartconnect/contracts';
import { boundEvent, boundMessage } from '../../channels/bounds.ts';
import { adapterFor, channelCapabilities } from '../../channels/registry.ts';
import {
  type AdapterChannel,
  type ChannelAdapter,
  type InboundEvent,
  type InboundMessage,
  MediaError,
  type ParsedEvent,
  type RawRequest,
  type ReceivedEvent,
} from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { clientTyping } from '../chats/typing.ts';
import { recordProviderStatus } from '../conversation/delivery-status.ts';
import {
  editInbound,
  inboundKnown,
  moveContact,
  openChatOfContact,
  optOut,
  pressedLabel,
} from '../conversation/inbound-events.ts';
import { type IngestResult, ingestInbound } from '../conversation/ingest.ts';
import {
  FileTooLargeError,
  keepDownload,
  StorageFullError,
  storageLeft,
  underDownloadCap,
} from '../files/inbound.ts';
import { removeFile, saveFile } from '../files/service.ts';
import { receivedType, SNIFF_BYTES } from '../files/sniff.ts';
import { withClientNames } from './client-names.ts';
import type { ChannelRow } from './queries.ts';
import { adapterContext, inboundChannel, ownInboundChannel } from './service.ts';
import { setAsideUnreadable } from './unreadable.ts';

export type Received = { event: InboundEvent['kind']; result: IngestResult | MessageDto | null };

type Target = { app: AppContext; row: ChannelRow; adapter: ChannelAdapter; channel: AdapterChannel };

/**
 * The provider's files of a message, streamed into our storage (their links expire) and attached. A file the
 * provider will never give (gone), or one past the type's limit (`mediaMaxBytes`), becomes a visible notice in the
 * text, as a mail too large to receive does; one it cannot give now refuses the whole request (503), so the
 * provider retries it later. Downloads run under the server's cap (MEDIA_DOWNLOAD_CONCURRENCY).
 */
async function withMedia(t: Target, msg: InboundMessage): Promise<InboundMessage> {
  if (msg.files?.length) msg = { ...msg, ...(await withFiles(t, msg)) };
  const fetchMedia = t.adapter.fetchMedia;
  if (!msg.media?.length || !fetchMedia) return msg;
  const maxBytes =
    t.adapter.mediaMaxBytes ?? channelCapabilities(t.row.type, t.channel.settings).attachments.maxBytes;
  const attachments: Attachment[] = [...msg.attachments];
  const notices: string[] = [];
  const keys: string[] = [];
  for (const ref of msg.media) {
    const name = ref.name ?? 'file';
    if (ref.size !== undefined && ref.size > maxBytes) {
      notices.push(tooLargeNotice(name, new FileTooLargeError(maxBytes, ref.size)));
      continue;
    }
    try {
      const { file, kept } = await underDownloadCap(t.app, async () => {
        const file = await fetchMedia(adapterContext(t.app), t.channel, ref);
        return { file, kept: await keepDownload(t.app, t.row.organisation_id, file, maxBytes) };
      });
      keys.push(kept.key);
      attachments.push({
        url: `/api/files/${kept.key}`,
        name: file.name ?? ref.name,
        contentType: kept.contentType,
        size: kept.size,
      });
    } catch (err) {
      if (err instanceof FileTooLargeError) {
        notices.push(tooLargeNotice(name, err));
        continue;
      }
      if (err instanceof StorageFullError) {
        t.app.log.warn(
          { channel: t.row.id },
          "a provider file was not kept: the organisation's storage is full",
        );
        notices.push(`[${name}: not kept, the file storage of this organisation is full]`);
        continue;
      }
      if (!(err instanceof MediaError) || err.retryable) {
        t.app.log.warn({ err, channel: t.row.id }, 'provider file not fetched; the provider will retry');
        // The retry downloads the message's files again: those kept so far would belong to nothing.
        for (const key of keys) await removeFile(t.app, t.app.db, key);
        throw new AppError('providerUnavailableException');
      }
      notices.push(`[${name}: not available (${err.message})]`);
    }
  }
  const text = [msg.text, ...notices].filter(Boolean).join('\n');
  return { ...msg, text, attachments, media: undefined };
}

/** What stands for a file past the limit, worded as the e-mail channel's notice of a mail too large to receive. */
const tooLargeNotice = (name: string, err: FileTooLargeError) =>
  err.size === undefined
    ? `[${name} of more than ${Math.floor(err.maxBytes / 1048576)} MB: too large to receive]`
    : `[${name} of ${Math.ceil(err.size / 1048576)} MB: too large to receive]`;

/**
 * Files that came with the message (an e-mail's attachments) into our storage, attached in their order, each under
 * the type its content bears out (files/sniff.ts).
 */
async function withFiles(
  t: Target,
  msg: InboundMessage,
): Promise<Pick<InboundMessage, 'attachments' | 'files' | 'text'>> {
  const attachments: Attachment[] = [...msg.attachments];
  const notices: string[] = [];
  for (const file of msg.files ?? []) {
    // The organisation's quota (STORAGE_QUOTA_MB) holds for a mail's attachments too.
    if (file.data.length > (await storageLeft(t.app, t.row.organisation_id))) {
      notices.push(`[${file.name ?? 'file'}: not kept, the file storage of this organisation is full]`);
      continue;
    }
    const partial = file.data.length > SNIFF_BYTES;
    const contentType = await receivedType(file.data.subarray(0, SNIFF_BYTES), file.contentType, partial);
    const key = await t.app.db.tx((q) => saveFile(t.app, q, t.row.organisation_id, file.data, contentType));
    attachments.push({
      url: `/api/files/${key}`,
      name: file.name,
      contentType,
      size: file.data.length,
    });
  }
  return { attachments, files: undefined, text: [msg.text, ...notices].filter(Boolean).join('\n') };
}

async function act(t: Target, event: InboundEvent): Promise<Received> {
  const { app, row } = t;
  // Every text from outside within its field's bound, here where it enters (channels/bounds.ts).
  const e = boundEvent(row.type, event);
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
      // A pressed button's payload rides on the message (the bot runtime reads it). When the provider did not tell
      // the button's label (VK's callback events, a Telegram message too old to come with its keyboard), the
      // client's text is the label of our button with that payload, as the client saw it.
      const pressed =
        e.kind === 'postback'
          ? {
              ...message,
              payload: e.data,
              text:
                message.text === e.data
                  ? ((await pressedLabel(app, row, message.client.externalId, e.data)) ?? message.text)
                  : message.text,
            }
          : message;
      // Bounded again: the names of fetched files came with the download.
      return { event: e.kind, result: await ingestInbound(app, row, boundMessage(row.type, pressed)) };
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
    case 'moved':
      await moveContact(app, row, e.client.externalId, e.newExternalId);
      return { event: e.kind, result: null };
    case 'typing': {
      // A signal for who sees the open chat (the operators' typing line fades by itself: an end needs no signal).
      const chatId = e.active ? await openChatOfContact(app, row, e.client.externalId) : undefined;
      if (chatId) await clientTyping(app, row.organisation_id, chatId);
      return { event: e.kind, result: null };
    }
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
  return actOnAll({ app, row, adapter, channel }, adapter.parse(channel, req));
}

/**
 * Events our own code made in process for a channel of `type` (the site widget's visitor: its route identified
 * them and built the events), acted on exactly as a verified and parsed webhook's are, without a request: refused
 * while the channel or its organisation is inactive, each event bounded, its files kept, deduped and stored by the
 * ingest. Answers what each became, as receiveWebhook does.
 */
export async function receiveOwnEvents(
  app: AppContext,
  channelId: string,
  type: string,
  events: InboundEvent[],
): Promise<Received[]> {
  const { row, adapter, channel } = await ownInboundChannel(app, channelId, type);
  return actOnAll({ app, row, adapter, channel }, events);
}

/** A request's events after the adapter read them: the unreadable set aside, client names found, each acted on. */
async function actOnAll(t: Target, parsedEvents: ParsedEvent[]): Promise<Received[]> {
  const { app, row, adapter, channel } = t;
  const parsed = await setAsideUnreadable(app, row, parsedEvents);
  const named = await withClientNames(
    app,
    row,
    adapter.clientNames &&
      (async (ids) => (await adapter.clientNames?.(adapterContext(app), channel, ids)) ?? {}),
    parsed,
  );
  // What the update lacks (a marketplace chat's topic); without it the events go on as they are.
  const events = adapter.enrich
    ? await adapter.enrich(adapterContext(app), channel, named).catch((err) => {
        app.log.warn({ err, channel: row.id }, 'inbound events not enriched');
        return named;
      })
    : named;
  const out: Received[] = [];
  for (const e of events) out.push(await act(t, e));
  if (adapter.afterReceive && events.length)
    await adapter.afterReceive(adapterContext(app), channel, events).catch((err) => {
      app.log.warn({ err, channel: row.id }, 'after-receive step failed');
    });
  return out;
}

/**
 * Events a pull channel read (a mailbox, a bot's getUpdates), acted on exactly as a webhook's: the unreadable and
 * ignored set aside, client names found, each committed before the next, then the adapter's after-receive step
 * (answering button presses). Answers what each acted-on event became, in order (the stored message, or null for
 * events that store none).
 */
export async function receivePolled(
  app: AppContext,
  row: ChannelRow,
  channel: AdapterChannel,
  events: ParsedEvent[],
): Promise<ReceivedEvent[]> {
  const received = await actOnAll({ app, row, adapter: adapterFor(row.type), channel }, events);
  return received.map(({ result }) =>
    result && 'chatId' in result && 'messageId' in result
      ? { messageId: result.messageId, chatId: result.chatId, duplicate: result.duplicate }
      : null,
  );
}
