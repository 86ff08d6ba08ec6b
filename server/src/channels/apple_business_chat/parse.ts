import { gunzipSync } from 'node:zlib';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { InboundMessage, MediaRef, ParsedEvent, RawRequest } from '../types.ts';
import { providerId, read, storable, unreadableMessage } from '../unreadable.ts';
import { attachmentRef } from './media.ts';

// Apple's message dictionary (docs/providers/apple-business.md "Inbound"), as schemas: the fields we use are checked,
// the others let through.
const str = z.string().optional();
const size = z
  .union([
    z.number().int().nonnegative(),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ])
  .optional();
const attachment = z
  .looseObject({
    name: z.string().max(255).optional(),
    mimeType: z.string().max(255).optional(),
    size,
    key: z.string().max(100),
    url: z.string().min(1).max(2048),
    owner: z.string().min(1).max(2048),
    signature: z.string().max(1024).optional(),
    'signature-base64': z.string().max(1024).optional(),
  })
  .refine((a) => a.signature || a['signature-base64'], 'signature missing');
const item = z.looseObject({ identifier: z.union([z.string(), z.number()]).transform(String), title: str });
const interactiveData = z.looseObject({
  bid: str,
  data: z
    .looseObject({
      listPicker: z
        .looseObject({ sections: z.array(z.looseObject({ items: z.array(item).optional() })).optional() })
        .optional(),
      replyMessage: z.looseObject({ title: str }).optional(),
    })
    .optional(),
  receivedMessage: z.looseObject({ title: str }).optional(),
  replyMessage: z.looseObject({ title: str }).optional(),
});
const envelope = z.looseObject({
  id: providerId,
  type: z.string().min(1).max(100),
  sourceId: providerId.optional(),
});
const textMessage = z.looseObject({
  body: z.string().optional(),
  attachments: z.array(attachment).max(100).optional(),
});
const interactiveMessage = z.looseObject({
  interactiveData: interactiveData.optional(),
  interactiveDataRef: z.looseObject({}).optional(),
});

/** The largest decompressed body we read (a message's JSON; files travel apart): our choice. */
const BODY_MAX_BYTES = 4 * 1024 * 1024;
/** Apple marks where an attachment sits in the text with U+FFFC (its sample's body "Here's the attachment: \uFFFC"). */
const OBJECT_REPLACEMENT = /\uFFFC/g;

/** A malformed request: answered 400, nothing stored (Apple's own samples answer 400 for a body they cannot read). */
const malformed = (reason: string) =>
  new AppError('validationException', { _: M.incorrectValue }, { reason: `Apple: ${reason}` });

/** The body Apple sent: gzip-compressed JSON (its samples gunzip every request), plain JSON accepted too. */
function bodyOf(req: RawRequest): unknown {
  const raw = req.rawBody;
  if (raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b) {
    let text: string;
    try {
      text = gunzipSync(raw, { maxOutputLength: BODY_MAX_BYTES }).toString('utf8');
    } catch {
      throw malformed('body: not gzip, or too large');
    }
    try {
      return JSON.parse(text);
    } catch {
      throw malformed('body: not JSON');
    }
  }
  if (req.body !== undefined) return req.body;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw malformed('body: not JSON');
  }
}

const header = (req: RawRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/** The client as far as Apple tells: an opaque id and no name (by design), so a short stand-in of the id. */
const clientOf = (id: string) => ({ externalId: id, name: `Apple client ${id.slice(0, 8)}` });

/**
 * One request from Apple as events. A text message (its files fetched and decrypted through fetchMedia), a list
 * picker reply (a postback: the selected item's identifier is our button's payload), `close` (the client closed the
 * conversation: our pipeline has no client-side end, so it is a visible notice), typing as the client's typing signal,
 * unknown types ignored.
 * The envelope unreadable (no id, type or sender, not gzip or JSON) is a 400 and stores nothing; a readable message
 * whose content is not is a notice in the client's dialog.
 */
export function parseApple(req: RawRequest): ParsedEvent[] {
  const body = storable(bodyOf(req));
  const env = read(envelope, body);
  if (!env.ok) throw malformed(env.reason);
  const { id, type } = env.data;
  const sourceId = env.data.sourceId ?? header(req, 'source-id');
  const sender = providerId.safeParse(sourceId);
  if (!sender.success) throw malformed('sourceId: missing');
  const client = clientOf(sender.data);
  switch (type) {
    case 'text': {
      const m = read(textMessage, body);
      if (!m.ok) return [unreadableMessage('Apple', m.reason, id, client)];
      const media: MediaRef[] = (m.data.attachments ?? []).map((a) => ({
        ref: attachmentRef({
          url: a.url,
          owner: a.owner,
          signature: a['signature-base64'] || a.signature || '',
          key: a.key,
        }),
        name: a.name || 'file',
        ...(a.mimeType ? { contentType: a.mimeType } : {}),
        ...(a.size !== undefined ? { size: a.size } : {}),
      }));
      let text = (m.data.body ?? '').replace(OBJECT_REPLACEMENT, '').trim();
      if (!text && !media.length) text = '[Apple: empty message]';
      const message: InboundMessage = { externalMessageId: id, client, text, attachments: [], media };
      return [{ kind: 'message', message }];
    }
    case 'interactive':
      return interactive(body, id, client);
    case 'close':
      return [
        {
          kind: 'message',
          message: {
            externalMessageId: id,
            client,
            text: '[Apple: the client closed the conversation]',
            attachments: [],
          },
        },
      ];
    case 'typing_start':
    case 'typing_end':
      return [{ kind: 'typing', client: { externalId: client.externalId }, active: type === 'typing_start' }];
    default:
      return [{ kind: 'ignored', what: type }];
  }
}

/** An interactive reply: a list picker's selection is a postback; other kinds are shown by their reply's title. */
function interactive(body: unknown, id: string, client: InboundMessage['client']): ParsedEvent[] {
  const m = read(interactiveMessage, body);
  if (!m.ok) return [unreadableMessage('Apple', m.reason, id, client)];
  const data = m.data.interactiveData;
  if (!data) {
    // A large reply comes encrypted by reference (interactiveDataRef): reading it needs Apple's decodePayload,
    // whose answer is not documented (brief "Interactive replies").
    const text = m.data.interactiveDataRef
      ? '[Apple: interactive reply too large to show]'
      : '[Apple: interactive message]';
    return [{ kind: 'message', message: { externalMessageId: id, client, text, attachments: [] } }];
  }
  const selected = (data.data?.listPicker?.sections ?? []).flatMap((s) => s.items ?? []);
  const first = selected[0];
  if (first) {
    const text = selected.map((i) => i.title || i.identifier).join(', ');
    return [
      {
        kind: 'postback',
        data: first.identifier,
        message: { externalMessageId: id, client, text, attachments: [] },
      },
    ];
  }
  const title = data.data?.replyMessage?.title || data.replyMessage?.title || data.receivedMessage?.title;
  const text = title ? `[Apple: ${title}]` : '[Apple: interactive message]';
  return [{ kind: 'message', message: { externalMessageId: id, client, text, attachments: [] } }];
}
