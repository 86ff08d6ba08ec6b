import { z } from 'zod';
import type { AdapterChannel, InboundMessage, MediaRef, ParsedEvent, RawRequest } from '../types.ts';
import {
  nameFrom,
  numericId,
  providerId,
  read,
  storable,
  unreadable,
  unreadableMessage,
} from '../unreadable.ts';
import { parseViberJson } from './api.ts';

// The callbacks we read (https://developers.viber.com/docs/api/rest-bot-api/#callbacks), as schemas: the fields
// we use are checked, the others let through. message_token is a 64-bit number (parseViberJson makes it a string).
const str = z.string().optional();
const token = z.union([providerId, numericId]).transform(String);
const user = z.looseObject({ id: providerId, name: str });
const message = z.looseObject({
  type: z.string(),
  text: str,
  media: str,
  file_name: str,
  size: z.number().optional(),
  location: z.looseObject({ lat: z.number(), lon: z.number() }).optional(),
  contact: z.looseObject({ name: str, phone_number: str }).optional(),
  tracking_data: str,
});
type Message = z.output<typeof message>;
const messageEvent = z.looseObject({ message_token: token, sender: user, message });
/** What names a client's message when the rest cannot be read. */
const messageKey = z.looseObject({ message_token: token, sender: z.looseObject({ id: providerId }) });
const statusEvent = z.looseObject({ message_token: token, desc: str });
const unsubscribedEvent = z.looseObject({ user_id: providerId });

/** The labels of the keyboard we last sent this client, kept in tracking_data: a press comes back as its payload. */
export const trackingOf = (buttons: Record<string, string>) => JSON.stringify({ sc: buttons });
function pressedLabel(m: Message): string | undefined {
  if (!m.tracking_data || m.type !== 'text' || m.text === undefined) return undefined;
  try {
    const t = JSON.parse(m.tracking_data) as { sc?: Record<string, string> };
    return t.sc && Object.hasOwn(t.sc, m.text) ? t.sc[m.text] : undefined;
  } catch {
    return undefined;
  }
}

const MEDIA: Record<string, { name: string; contentType: string }> = {
  picture: { name: 'picture.jpg', contentType: 'image/jpeg' },
  video: { name: 'video.mp4', contentType: 'video/mp4' },
  file: { name: 'file', contentType: 'application/octet-stream' },
  sticker: { name: 'sticker.png', contentType: 'image/png' },
};

function content(m: Message): { text: string; media: MediaRef[] } {
  const media: MediaRef[] = [];
  let text = m.text ?? '';
  const kind = MEDIA[m.type];
  if (kind && m.media)
    media.push({ ref: m.media, name: m.file_name ?? kind.name, contentType: kind.contentType, size: m.size });
  if (m.type === 'location' && m.location) text = `📍 ${m.location.lat}, ${m.location.lon}`;
  if (m.type === 'contact' && m.contact)
    text = `👤 ${m.contact.name ?? ''} ${m.contact.phone_number ?? ''}`.trim();
  if (m.type === 'url' && m.media) text = m.media;
  if (!text && !media.length) text = `[Viber: ${m.type || 'empty message'}]`;
  return { text, media };
}

/**
 * One Viber callback as events: a message (a press of our keyboard is a postback), delivered / seen / failed
 * reports on ours (by message_token), unsubscribed (the client is marked). webhook, subscribed and
 * conversation_started carry nothing to store.
 */
export function parseViberBot(req: RawRequest): ParsedEvent[] {
  let body: unknown;
  try {
    body = storable(parseViberJson(req.rawBody));
  } catch {
    return [unreadable('Viber', 'body: not JSON')];
  }
  const event = read(z.looseObject({ event: z.string() }), body);
  if (!event.ok) return [unreadable('Viber', event.reason)];
  switch (event.data.event) {
    case 'message': {
      const c = read(messageEvent, body);
      if (!c.ok) {
        const key = messageKey.safeParse(body);
        if (!key.success) return [unreadable('Viber', c.reason)];
        const sender = (body as { sender: Record<string, unknown> }).sender;
        return [
          unreadableMessage('Viber', c.reason, key.data.message_token, {
            externalId: key.data.sender.id,
            name: nameFrom([sender.name], key.data.sender.id),
          }),
        ];
      }
      const { sender, message_token: id } = c.data;
      const client = { externalId: sender.id, name: sender.name?.trim() || sender.id };
      const label = pressedLabel(c.data.message);
      if (label !== undefined)
        return [
          {
            kind: 'postback',
            data: c.data.message.text ?? '',
            message: { externalMessageId: id, client, text: label, attachments: [] },
          },
        ];
      const { text, media } = content(c.data.message);
      const message: InboundMessage = { externalMessageId: id, client, text, attachments: [], media };
      return [{ kind: 'message', message }];
    }
    case 'delivered':
    case 'seen':
    case 'failed': {
      const c = read(statusEvent, body);
      if (!c.ok) return [unreadable('Viber', c.reason)];
      const id = c.data.message_token;
      if (event.data.event === 'failed')
        return [{ kind: 'status', externalId: id, status: 'undelivered', reason: c.data.desc ?? 'failed' }];
      return [{ kind: 'status', externalId: id, status: event.data.event === 'seen' ? 'read' : 'delivered' }];
    }
    case 'unsubscribed': {
      const c = read(unsubscribedEvent, body);
      if (!c.ok) return [unreadable('Viber', c.reason)];
      return [{ kind: 'opt_out', client: { externalId: c.data.user_id } }];
    }
    case 'webhook':
    case 'subscribed':
    case 'conversation_started':
      // Nothing to store.
      return [];
    default:
      return [{ kind: 'ignored', what: String(event.data.event) }];
  }
}

/**
 * The welcome message answering conversation_started (the client opened the bot's chat; Viber shows the answer
 * body as the bot's message, the only way to write before they subscribe), when the channel has one.
 */
export function welcomeAnswer(channel: AdapterChannel, req: RawRequest): Record<string, unknown> | null {
  const text = channel.settings.welcomeMessage;
  if (typeof text !== 'string' || !text.trim()) return null;
  const event = (req.body as { event?: unknown } | undefined)?.event;
  if (event !== 'conversation_started') return null;
  return {
    sender: { name: String(channel.settings.name ?? 'SmartConnect').slice(0, 28) },
    type: 'text',
    text,
  };
}
