import { z } from 'zod';
import type { AdapterChannel, InboundMessage, MediaRef, ParsedEvent, RawRequest } from '../types.ts';
import { numericId, read, storable, unreadable, unreadableMessage } from '../unreadable.ts';

// The Callback API's objects we read (https://dev.vk.com/ru/api/community-events/json-schema), as schemas: the
// fields we use are checked, the others let through.
const str = z.string().optional();
const size = z.looseObject({
  type: str,
  url: str,
  width: z.number().optional(),
  height: z.number().optional(),
});
type Size = z.output<typeof size>;
const attachment = z.looseObject({
  type: z.string(),
  photo: z.looseObject({ sizes: z.array(size).optional() }).optional(),
  doc: z.looseObject({ title: str, size: z.number().optional(), ext: str, url: str }).optional(),
  audio_message: z.looseObject({ link_ogg: str, link_mp3: str }).optional(),
  sticker: z.looseObject({ images: z.array(size).optional() }).optional(),
});
const message = z.looseObject({
  id: numericId.optional(),
  from_id: numericId,
  peer_id: numericId.optional(),
  text: str,
  payload: str,
  attachments: z.array(attachment).optional(),
});
type Message = z.output<typeof message>;
const messageNew = z.looseObject({ event_id: str, object: z.looseObject({ message }) });
/** What names a client's message when the rest cannot be read. */
const messageKey = z.looseObject({
  event_id: str,
  object: z.looseObject({
    message: z.looseObject({ id: numericId.optional(), from_id: numericId, peer_id: numericId.optional() }),
  }),
});
const messageReply = z.looseObject({ object: z.looseObject({ id: numericId }) });
const messageRead = z.looseObject({ object: z.looseObject({ read_message_id: numericId }) });
const messageDeny = z.looseObject({ object: z.looseObject({ user_id: numericId }) });

/** Our buttons' payloads ride in the keyboard as `{"sc": payload}`; a press comes back with it. */
export const payloadOf = (data: string) => JSON.stringify({ sc: data });
function pressed(m: Message): string | undefined {
  if (!m.payload) return undefined;
  try {
    const p = JSON.parse(m.payload) as { sc?: unknown };
    return typeof p.sc === 'string' ? p.sc : undefined;
  } catch {
    return undefined;
  }
}

const largest = (sizes: Size[] | undefined) =>
  [...(sizes ?? [])]
    .filter((s) => s.url)
    .sort((a, b) => (b.width ?? 0) * (b.height ?? 0) - (a.width ?? 0) * (a.height ?? 0))[0];

const DOC_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  zip: 'application/zip',
};

function content(m: Message): { text: string; media: MediaRef[] } {
  const media: MediaRef[] = [];
  const notices: string[] = [];
  for (const a of m.attachments ?? []) {
    if (a.type === 'photo' && a.photo) {
      const s = largest(a.photo.sizes);
      if (s?.url) media.push({ ref: s.url, name: 'photo.jpg', contentType: 'image/jpeg' });
      else notices.push('[VK: photo]');
    } else if (a.type === 'doc' && a.doc?.url) {
      const ext = (a.doc.ext ?? '').toLowerCase();
      const title = a.doc.title ?? 'document';
      media.push({
        ref: a.doc.url,
        name: ext && !title.toLowerCase().endsWith(`.${ext}`) ? `${title}.${ext}` : title,
        contentType: DOC_TYPES[ext] ?? 'application/octet-stream',
        size: a.doc.size,
      });
    } else if (a.type === 'audio_message' && (a.audio_message?.link_ogg || a.audio_message?.link_mp3)) {
      const ogg = a.audio_message.link_ogg;
      media.push(
        ogg
          ? { ref: ogg, name: 'voice.ogg', contentType: 'audio/ogg' }
          : { ref: a.audio_message.link_mp3 ?? '', name: 'voice.mp3', contentType: 'audio/mpeg' },
      );
    } else if (a.type === 'sticker' && a.sticker) {
      const s = largest(a.sticker.images);
      if (s?.url) media.push({ ref: s.url, name: 'sticker.png', contentType: 'image/png' });
      else notices.push('[VK: sticker]');
    } else notices.push(`[VK: ${a.type || 'attachment'}]`);
  }
  let text = [m.text ?? '', ...notices].filter(Boolean).join('\n');
  if (!text && !media.length) text = '[VK: empty message]';
  return { text, media };
}

/**
 * One Callback API request (or Long Poll update) as events: message_new (a press of our keyboard is a postback), message_reply (the echo
 * of a message we sent: Delivered), message_read (the client read our messages up to one: Read), message_deny (the
 * client forbade the community's messages: marked). confirmation, message_allow and other events store nothing.
 */
export const parseVkBot = (req: RawRequest): ParsedEvent[] => parseVkEvent(req.body);

/** One community event, as the Callback API posts it or the Bots Long Poll API answers it in a list. */
export function parseVkEvent(raw: unknown): ParsedEvent[] {
  const body = storable(raw);
  const type = read(z.looseObject({ type: z.string() }), body);
  if (!type.ok) return [unreadable('VK', type.reason)];
  switch (type.data.type) {
    case 'message_new': {
      const c = read(messageNew, body);
      const key = c.ok ? c : read(messageKey, body);
      if (!key.ok) return [unreadable('VK', c.ok ? key.reason : c.reason)];
      const { event_id: eventId, object } = key.data;
      const m = object.message;
      if (m.from_id <= 0) return [];
      // A conversation the community was added to (peer_id 2000000000+) is not a customer dialog.
      if (m.peer_id !== undefined && m.peer_id !== m.from_id) return [];
      // A community dialog's message has its own id; the event id names it otherwise (a retry has the same).
      const externalMessageId = m.id ? String(m.id) : `event:${eventId ?? ''}`;
      // The event names no one: users.get tells the name (clientNames), `id123` stands in meanwhile.
      const client = { externalId: String(m.from_id), name: `id${m.from_id}`, nameUnknown: true };
      if (!c.ok) return [unreadableMessage('VK', c.reason, externalMessageId, client)];
      const full = c.data.object.message;
      const data = pressed(full);
      if (data !== undefined)
        return [
          {
            kind: 'postback',
            data,
            message: { externalMessageId, client, text: full.text ?? data, attachments: [] },
          },
        ];
      const { text, media } = content(full);
      const message: InboundMessage = { externalMessageId, client, text, attachments: [], media };
      return [{ kind: 'message', message }];
    }
    case 'message_reply': {
      // Our own message's echo: it is in the dialog (an admin's reply written in VK is not ours: nothing found).
      const c = read(messageReply, body);
      if (!c.ok) return [unreadable('VK', c.reason)];
      const id = c.data.object.id;
      return id > 0 ? [{ kind: 'status', externalId: String(id), status: 'delivered' }] : [];
    }
    case 'message_read': {
      const c = read(messageRead, body);
      if (!c.ok) return [unreadable('VK', c.reason)];
      const id = c.data.object.read_message_id;
      return id > 0 ? [{ kind: 'status', externalId: String(id), status: 'read' }] : [];
    }
    case 'message_deny': {
      const c = read(messageDeny, body);
      if (!c.ok) return [unreadable('VK', c.reason)];
      return [{ kind: 'opt_out', client: { externalId: String(c.data.object.user_id) } }];
    }
    case 'confirmation':
    case 'message_allow':
      return [];
    default:
      return [{ kind: 'ignored', what: type.data.type }];
  }
}

/**
 * VK reads our answer: the confirmation string to a `confirmation` request, `ok` (plain text) to every other one
 * (once its events are committed); anything else makes VK retry.
 */
export function vkAnswer(channel: AdapterChannel, req: RawRequest): string {
  const type = (req.body as { type?: unknown } | undefined)?.type;
  if (type === 'confirmation') return String(channel.settings.confirmation ?? '');
  return 'ok';
}
