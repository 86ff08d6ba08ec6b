import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { AdapterChannel, InboundEvent, InboundMessage, MediaRef, RawRequest } from '../types.ts';

// The Callback API's objects we read (https://dev.vk.com/ru/api/community-events/json-schema).
type Size = { type?: string; url?: string; width?: number; height?: number };
type Attachment = {
  type: string;
  photo?: { id?: number; sizes?: Size[] };
  doc?: { title?: string; size?: number; ext?: string; url?: string };
  audio_message?: { duration?: number; link_ogg?: string; link_mp3?: string };
  sticker?: { sticker_id?: number; images?: Size[] };
};
type Message = {
  id?: number;
  conversation_message_id?: number;
  from_id?: number;
  peer_id?: number;
  text?: string;
  payload?: string;
  attachments?: Attachment[];
};
type Callback = {
  type?: string;
  event_id?: string;
  group_id?: number;
  object?: { message?: Message; user_id?: number; read_message_id?: number } & Message;
};

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
 * One Callback API request as events: message_new (a press of our keyboard is a postback), message_reply (the echo
 * of a message we sent: Delivered), message_read (the client read our messages up to one: Read), message_deny (the
 * client forbade the community's messages: marked). confirmation, message_allow and other events store nothing.
 */
export function parseVkBot(req: RawRequest): InboundEvent[] {
  const c = req.body as Callback | undefined;
  if (!c || typeof c !== 'object' || typeof c.type !== 'string')
    throw new AppError('validationException', { _: M.incorrectValue });
  switch (c.type) {
    case 'message_new': {
      const m = c.object?.message;
      if (!m || typeof m.from_id !== 'number' || m.from_id <= 0) return [];
      // A conversation the community was added to (peer_id 2000000000+) is not a customer dialog.
      if (typeof m.peer_id === 'number' && m.peer_id !== m.from_id) return [];
      // A community dialog's message has its own id; the event id names it otherwise (a retry has the same).
      const externalMessageId = m.id ? String(m.id) : `event:${c.event_id ?? ''}`;
      // The event names no one: users.get tells the name (clientNames), `id123` stands in meanwhile.
      const client = { externalId: String(m.from_id), name: `id${m.from_id}`, nameUnknown: true };
      const data = pressed(m);
      if (data !== undefined)
        return [
          {
            kind: 'postback',
            data,
            message: { externalMessageId, client, text: m.text ?? data, attachments: [] },
          },
        ];
      const { text, media } = content(m);
      const message: InboundMessage = { externalMessageId, client, text, attachments: [], media };
      return [{ kind: 'message', message }];
    }
    case 'message_reply': {
      // Our own message's echo: it is in the dialog (an admin's reply written in VK is not ours: nothing found).
      const id = c.object?.id;
      return typeof id === 'number' && id > 0
        ? [{ kind: 'status', externalId: String(id), status: 'delivered' }]
        : [];
    }
    case 'message_read': {
      const id = c.object?.read_message_id;
      return typeof id === 'number' && id > 0
        ? [{ kind: 'status', externalId: String(id), status: 'read' }]
        : [];
    }
    case 'message_deny':
      return typeof c.object?.user_id === 'number'
        ? [{ kind: 'opt_out', client: { externalId: String(c.object.user_id) } }]
        : [];
    default:
      return [];
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
