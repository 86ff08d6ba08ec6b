import { createHash } from 'node:crypto';
import {
  ATTACHMENT_LIMITS,
  type Attachment,
  type ChannelType,
  MESSAGE_TEXT_MAX,
  sanitizeStrings,
} from '@smartconnect/contracts';
import type { InboundEvent, InboundMessage, MediaRef } from './types.ts';

/**
 * The longest text each field from outside may have once it is ours (characters). Every inbound event of every
 * channel passes through `boundEvent` once, where it enters (modules/channels/receive.ts), so no provider, mailbox or
 * visitor can hand the database, its indexes or the workspace a name of 200,000 letters (issue 29). Each field keeps
 * its own length: a message's text is long, a name is not.
 */
export type InboundBounds = {
  /** A client's display name (clients.name, contacts.name: the name index reads it). */
  name: number;
  /** A client's handle at the provider (a Telegram @username). */
  username: number;
  /** Ids the provider gives (client, message): kept unique past the bound by a hash suffix, never cut. */
  externalId: number;
  /** A message's text, captions and an e-mail's subject and body included. */
  text: number;
  /** A file's name. */
  fileName: number;
  contentType: number;
  /** A file's address (a link the provider or integrator gives). */
  url: number;
  /** A pressed button's payload: ours are at most 64 bytes, anything longer can never match a button. */
  payload: number;
  /** Why the provider says a message was not delivered. */
  reason: number;
};

export const INBOUND_BOUNDS: InboundBounds = {
  name: 255,
  username: 64,
  externalId: 255,
  text: MESSAGE_TEXT_MAX,
  fileName: ATTACHMENT_LIMITS.nameMax,
  contentType: 255,
  url: ATTACHMENT_LIMITS.urlMax,
  payload: 256,
  reason: 500,
};

/**
 * Where a provider documents a tighter field, its own bound (the rest are the defaults above). Telegram: first and
 * last name of up to 64 characters each, usernames of 5-32 characters.
 */
const PROVIDER_BOUNDS: Partial<Record<ChannelType, Partial<InboundBounds>>> = {
  telegram: { name: 129, username: 32 },
};

export function boundsOf(type: ChannelType): InboundBounds {
  return { ...INBOUND_BOUNDS, ...PROVIDER_BOUNDS[type] };
}

/** The text cut to `max` characters, the cut marked with '…' (never half of a surrogate pair). */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

/**
 * An id the provider gives, at most `max` characters and still unique: a longer one keeps its beginning and ends in
 * a hash of the whole (so two long ids that share a beginning stay two clients, and a retry maps to the same id).
 */
export function boundId(id: string, max: number): string {
  if (id.length <= max) return id;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 32);
  return `${id.slice(0, max - hash.length - 1)}~${hash}`;
}

function boundAttachment(a: Attachment, b: InboundBounds): Attachment {
  return {
    ...a,
    url: a.url.length <= b.url ? a.url : a.url.slice(0, b.url),
    ...(a.name !== undefined && { name: cut(a.name, b.fileName) }),
    ...(a.contentType !== undefined && { contentType: a.contentType.slice(0, b.contentType) }),
  };
}

function boundMedia(m: MediaRef, b: InboundBounds): MediaRef {
  return {
    ...m,
    ...(m.name !== undefined && { name: cut(m.name, b.fileName) }),
    ...(m.contentType !== undefined && { contentType: m.contentType.slice(0, b.contentType) }),
  };
}

/**
 * A name that holds more than its bound is cut there, and what was cut is kept where it belongs: at the end of the
 * message's text (within the text's own bound), so nothing the client sent is silently dropped.
 */
export function boundMessage(type: ChannelType, raw: InboundMessage): InboundMessage {
  const b = boundsOf(type);
  const msg = sanitizeStrings(raw);
  const name = cut(msg.client.name, b.name);
  const cutName = name === msg.client.name ? '' : `\n[Name: ${msg.client.name}]`;
  return {
    ...msg,
    externalMessageId: boundId(msg.externalMessageId, b.externalId),
    client: {
      ...msg.client,
      externalId: boundId(msg.client.externalId, b.externalId),
      name,
      ...(msg.client.username !== undefined && { username: cut(msg.client.username, b.username) }),
    },
    text: cut(cutName ? `${msg.text}${cutName}`.replace(/^\n/, '') : msg.text, b.text),
    attachments: msg.attachments.map((a) => boundAttachment(a, b)),
    ...(msg.media && { media: msg.media.map((m) => boundMedia(m, b)) }),
    ...(msg.files && {
      files: msg.files.map((f) => ({
        ...f,
        contentType: f.contentType.slice(0, b.contentType),
        ...(f.name !== undefined && { name: cut(f.name, b.fileName) }),
      })),
    }),
    ...(msg.payload !== undefined && { payload: msg.payload.slice(0, b.payload) }),
  };
}

/** Every field of an inbound event within its bound (see INBOUND_BOUNDS); NUL and lone surrogates made storable. */
export function boundEvent(type: ChannelType, e: InboundEvent): InboundEvent {
  const b = boundsOf(type);
  switch (e.kind) {
    case 'message':
    case 'edit':
      return { ...e, message: boundMessage(type, e.message) };
    case 'postback':
      return {
        ...e,
        message: boundMessage(type, e.message),
        data: sanitizeStrings(e.data).slice(0, b.payload),
      };
    case 'status': {
      const s = sanitizeStrings(e);
      return {
        ...s,
        ...(s.externalId !== undefined && { externalId: boundId(s.externalId, b.externalId) }),
        ...(s.reason !== undefined && { reason: cut(s.reason, b.reason) }),
        ...(s.watermark !== undefined && {
          watermark: {
            ...s.watermark,
            clientExternalId: boundId(s.watermark.clientExternalId, b.externalId),
          },
        }),
      };
    }
    case 'opt_out':
    case 'typing':
      return { ...e, client: { externalId: boundId(sanitizeStrings(e.client.externalId), b.externalId) } };
    case 'moved':
      return {
        ...e,
        client: { externalId: boundId(sanitizeStrings(e.client.externalId), b.externalId) },
        newExternalId: boundId(sanitizeStrings(e.newExternalId), b.externalId),
      };
  }
}
