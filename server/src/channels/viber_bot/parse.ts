import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { AdapterChannel, InboundEvent, InboundMessage, MediaRef, RawRequest } from '../types.ts';
import { parseViberJson } from './api.ts';

// The callbacks we read (https://developers.viber.com/docs/api/rest-bot-api/#callbacks).
type User = { id: string; name?: string };
type Message = {
  type: string;
  text?: string;
  media?: string;
  file_name?: string;
  size?: number;
  sticker_id?: number;
  location?: { lat: number; lon: number };
  contact?: { name?: string; phone_number?: string };
  tracking_data?: string;
};
type Callback = {
  event?: string;
  message_token?: string;
  user?: User;
  sender?: User;
  user_id?: string;
  message?: Message;
  desc?: string;
};

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
export function parseViberBot(req: RawRequest): InboundEvent[] {
  let c: Callback;
  try {
    c = parseViberJson(req.rawBody) as Callback;
  } catch {
    throw new AppError('validationException', { _: M.incorrectValue });
  }
  if (!c || typeof c !== 'object' || typeof c.event !== 'string')
    throw new AppError('validationException', { _: M.incorrectValue });
  const token = c.message_token !== undefined ? String(c.message_token) : undefined;
  switch (c.event) {
    case 'message': {
      if (!c.sender?.id || !c.message || !token) return [];
      const client = { externalId: c.sender.id, name: c.sender.name?.trim() || c.sender.id };
      const label = pressedLabel(c.message);
      if (label !== undefined)
        return [
          {
            kind: 'postback',
            data: c.message.text ?? '',
            message: { externalMessageId: token, client, text: label, attachments: [] },
          },
        ];
      const { text, media } = content(c.message);
      const message: InboundMessage = { externalMessageId: token, client, text, attachments: [], media };
      return [{ kind: 'message', message }];
    }
    case 'delivered':
    case 'seen':
      return token
        ? [{ kind: 'status', externalId: token, status: c.event === 'seen' ? 'read' : 'delivered' }]
        : [];
    case 'failed':
      return token
        ? [{ kind: 'status', externalId: token, status: 'undelivered', reason: c.desc ?? 'failed' }]
        : [];
    case 'unsubscribed':
      return c.user_id ? [{ kind: 'opt_out', client: { externalId: c.user_id } }] : [];
    default:
      return [];
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
