import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { AdapterChannel, InboundEvent, InboundMessage, MediaRef, RawRequest } from '../types.ts';

// The parts of the Cloud API's webhook we read
// (https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components).
type Media = { id: string; mime_type?: string; caption?: string; filename?: string; voice?: boolean };
type WaError = { code?: number; title?: string; message?: string; error_data?: { details?: string } };
type WaMessage = {
  from: string;
  id: string;
  timestamp?: string;
  type: string;
  text?: { body?: string };
  image?: Media;
  document?: Media;
  audio?: Media;
  video?: Media;
  sticker?: Media & { animated?: boolean };
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contacts?: { name?: { formatted_name?: string }; phones?: { phone?: string; wa_id?: string }[] }[];
  interactive?: {
    type: string;
    button_reply?: { id: string; title: string };
    list_reply?: { id: string; title: string; description?: string };
  };
  button?: { payload?: string; text?: string };
  reaction?: { message_id?: string; emoji?: string };
  errors?: WaError[];
};
type WaStatus = {
  id: string;
  status: string;
  recipient_id?: string;
  errors?: WaError[];
};
type Value = {
  messaging_product?: string;
  metadata?: { phone_number_id?: string };
  contacts?: { wa_id?: string; profile?: { name?: string } }[];
  messages?: WaMessage[];
  statuses?: WaStatus[];
};
type Payload = { object?: string; entry?: { id?: string; changes?: { field?: string; value?: Value }[] }[] };

const MEDIA_DEFAULTS: Record<string, { name: string; contentType: string }> = {
  image: { name: 'image.jpg', contentType: 'image/jpeg' },
  document: { name: 'document', contentType: 'application/octet-stream' },
  audio: { name: 'audio.ogg', contentType: 'audio/ogg' },
  video: { name: 'video.mp4', contentType: 'video/mp4' },
  sticker: { name: 'sticker.webp', contentType: 'image/webp' },
};

const EXT: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'audio/amr': 'amr',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
};

/** A file name for a media object: the document's own, else by kind and type (`voice.ogg`, `image.png`). */
function mediaName(kind: string, m: Media): string {
  if (m.filename) return m.filename;
  const mime = (m.mime_type ?? '').split(';')[0]?.trim() ?? '';
  const base = kind === 'audio' && m.voice ? 'voice' : kind;
  const ext = EXT[mime];
  return ext ? `${base}.${ext}` : (MEDIA_DEFAULTS[kind]?.name ?? kind);
}

/** Why a WhatsApp error happened, in the provider's words: title, then message or details. */
export const errorReason = (errors: WaError[] | undefined): string | undefined => {
  const e = errors?.[0];
  if (!e) return undefined;
  const more = e.error_data?.details ?? e.message;
  return [e.code ? `${e.code}` : '', e.title, more && more !== e.title ? more : '']
    .filter(Boolean)
    .join(': ');
};

/** What one message carries: its text, the provider files to fetch; anything odd is a visible notice. */
function content(m: WaMessage): { text: string; media: MediaRef[] } {
  const media: MediaRef[] = [];
  let text = '';
  const kind = m.type;
  const file = (m as Record<string, unknown>)[kind] as Media | undefined;
  if (kind in MEDIA_DEFAULTS && file?.id) {
    media.push({
      ref: file.id,
      name: mediaName(kind, file),
      contentType: (file.mime_type ?? MEDIA_DEFAULTS[kind]?.contentType)?.split(';')[0]?.trim(),
    });
    text = file.caption ?? '';
  } else if (kind === 'text') text = m.text?.body ?? '';
  else if (kind === 'location' && m.location) {
    const l = m.location;
    text = [`📍 ${l.latitude}, ${l.longitude}`, l.name, l.address].filter(Boolean).join('\n');
  } else if (kind === 'contacts' && m.contacts?.length)
    text = m.contacts
      .map((c) =>
        `👤 ${c.name?.formatted_name ?? ''} ${(c.phones ?? []).map((p) => p.phone ?? p.wa_id).join(', ')}`.trim(),
      )
      .join('\n');
  else if (kind === 'reaction' && m.reaction)
    text = m.reaction.emoji ? `[WhatsApp: reaction ${m.reaction.emoji}]` : '[WhatsApp: reaction removed]';
  if (!text && !media.length) {
    const reason = errorReason(m.errors);
    text = `[WhatsApp: ${kind || 'empty message'}${reason ? ` (${reason})` : ''}]`;
  }
  return { text, media };
}

/**
 * One webhook POST as events. Only the `messages` field of changes for this channel's phone number counts:
 * messages (a button or list reply, or a template's quick-reply button, is a postback), and statuses of our
 * messages (by the wamid we kept when sending; failed carries the reason).
 */
export function parseWhatsApp(channel: AdapterChannel, req: RawRequest): InboundEvent[] {
  const p = req.body as Payload | undefined;
  if (!p || typeof p !== 'object' || !Array.isArray(p.entry))
    throw new AppError('validationException', { _: M.incorrectValue });
  const events: InboundEvent[] = [];
  for (const entry of p.entry) {
    for (const change of entry?.changes ?? []) {
      const v = change?.value;
      if (change?.field !== 'messages' || !v) continue;
      if (v.metadata?.phone_number_id && v.metadata.phone_number_id !== channel.settings.phoneNumberId)
        continue;
      for (const m of v.messages ?? []) {
        if (!m || typeof m.id !== 'string' || typeof m.from !== 'string') continue;
        const profile = v.contacts?.find((c) => c.wa_id === m.from) ?? v.contacts?.[0];
        const client = { externalId: m.from, name: profile?.profile?.name?.trim() || `+${m.from}` };
        const base: Omit<InboundMessage, 'text'> = { externalMessageId: m.id, client, attachments: [] };
        const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
        if (m.type === 'interactive' && reply) {
          events.push({ kind: 'postback', data: reply.id, message: { ...base, text: reply.title } });
          continue;
        }
        if (m.type === 'button' && m.button) {
          const label = m.button.text ?? m.button.payload ?? '';
          events.push({
            kind: 'postback',
            data: m.button.payload ?? label,
            message: { ...base, text: label },
          });
          continue;
        }
        const { text, media } = content(m);
        events.push({ kind: 'message', message: { ...base, text, media } });
      }
      for (const s of v.statuses ?? []) {
        if (!s || typeof s.id !== 'string') continue;
        if (s.status === 'delivered' || s.status === 'read')
          events.push({ kind: 'status', externalId: s.id, status: s.status });
        else if (s.status === 'failed')
          events.push({
            kind: 'status',
            externalId: s.id,
            status: 'undelivered',
            reason: errorReason(s.errors) ?? 'failed',
          });
        // 'sent' is what our send already recorded.
      }
    }
  }
  return events;
}
