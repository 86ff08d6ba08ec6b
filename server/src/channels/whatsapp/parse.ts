import { z } from 'zod';
import { nameForType } from '../download.ts';
import type { AdapterChannel, InboundMessage, MediaRef, ParsedEvent, RawRequest } from '../types.ts';
import { at, providerId, read, storable, unreadable, unreadableMessage } from '../unreadable.ts';

// The parts of the Cloud API's webhook we read
// (https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components), as schemas: the fields we use
// are checked, the others let through. Each message and status is read on its own: one of the wrong shape does not
// cost the others.
const str = z.string().optional();
const media = z.looseObject({
  id: providerId,
  mime_type: str,
  caption: str,
  filename: str,
  voice: z.boolean().optional(),
});
type Media = z.output<typeof media>;
const waError = z.looseObject({
  code: z.number().optional(),
  title: str,
  message: str,
  error_data: z.looseObject({ details: str }).optional(),
});
type WaError = z.output<typeof waError>;
const reply = z.looseObject({ id: z.string(), title: z.string() });
const waMessage = z.looseObject({
  from: providerId,
  id: providerId,
  type: z.string(),
  text: z.looseObject({ body: str }).optional(),
  image: media.optional(),
  document: media.optional(),
  audio: media.optional(),
  video: media.optional(),
  sticker: media.extend({ animated: z.boolean().optional() }).optional(),
  location: z
    .looseObject({ latitude: z.number(), longitude: z.number(), name: str, address: str })
    .optional(),
  contacts: z
    .array(
      z.looseObject({
        name: z.looseObject({ formatted_name: str }).optional(),
        phones: z.array(z.looseObject({ phone: str, wa_id: str })).optional(),
      }),
    )
    .optional(),
  interactive: z
    .looseObject({ type: z.string(), button_reply: reply.optional(), list_reply: reply.optional() })
    .optional(),
  button: z.looseObject({ payload: str, text: str }).optional(),
  reaction: z.looseObject({ message_id: str, emoji: str }).optional(),
  // A change of the client's number or identity, in WhatsApp's words (`body`); `new_wa_id` (older: `wa_id`) the new id.
  system: z.looseObject({ body: str, type: str, new_wa_id: str, wa_id: str }).optional(),
  order: z
    .looseObject({
      catalog_id: str,
      text: str,
      product_items: z
        .array(
          z.looseObject({
            product_retailer_id: str,
            quantity: z.union([z.number(), z.string()]).optional(),
            item_price: z.union([z.number(), z.string()]).optional(),
            currency: str,
          }),
        )
        .optional(),
    })
    .optional(),
  // The client changed (`edit`: the new content in `message`) or deleted (`revoke`) one of their messages.
  edit: z.looseObject({ original_message_id: providerId, message: z.unknown().optional() }).optional(),
  revoke: z.looseObject({ original_message_id: str }).optional(),
  errors: z.array(waError).optional(),
});
type WaMessage = z.output<typeof waMessage>;
/** What names a client's message when the rest cannot be read. */
const messageKey = z.looseObject({ from: providerId, id: providerId });
const waStatus = z.looseObject({ id: providerId, status: z.string(), errors: z.array(waError).optional() });
const contacts = z.array(z.looseObject({ wa_id: str, profile: z.looseObject({ name: str }).optional() }));
const value = z.looseObject({
  metadata: z.looseObject({ phone_number_id: str }).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
});
const payload = z.looseObject({
  entry: z.array(z.looseObject({ changes: z.array(z.looseObject({ field: str })).optional() })),
});

const MEDIA_DEFAULTS: Record<string, { name: string; contentType: string }> = {
  image: { name: 'image.jpg', contentType: 'image/jpeg' },
  document: { name: 'document', contentType: 'application/octet-stream' },
  audio: { name: 'audio.ogg', contentType: 'audio/ogg' },
  video: { name: 'video.mp4', contentType: 'video/mp4' },
  sticker: { name: 'sticker.webp', contentType: 'image/webp' },
};

/** A file name for a media object: the document's own, else by kind and type (`voice.ogg`, `image.png`). */
function mediaName(kind: string, m: Media): string {
  if (m.filename) return m.filename;
  const base = kind === 'audio' && m.voice ? 'voice' : kind;
  return nameForType(base, m.mime_type) ?? MEDIA_DEFAULTS[kind]?.name ?? kind;
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
  const file = Object.hasOwn(MEDIA_DEFAULTS, kind)
    ? ((m as Record<string, unknown>)[kind] as Media | undefined)
    : undefined;
  if (file?.id) {
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
  else if (kind === 'system' && m.system && (m.system.body || m.system.type))
    text = `[WhatsApp: ${m.system.body || m.system.type}]`;
  else if (kind === 'order' && m.order) text = orderText(m.order);
  if (!text && !media.length) {
    const reason = errorReason(m.errors);
    text = `[WhatsApp: ${kind || 'empty message'}${reason ? ` (${reason})` : ''}]`;
  }
  return { text, media };
}

/** An order from the catalog: its items one a line (retailer id, quantity, price), then the client's note. */
function orderText(o: NonNullable<WaMessage['order']>): string {
  const items = o.product_items ?? [];
  const lines = items.map((i) => {
    const price = i.item_price !== undefined ? `, ${i.item_price}${i.currency ? ` ${i.currency}` : ''}` : '';
    return `• ${i.product_retailer_id ?? '?'} × ${i.quantity ?? 1}${price}`;
  });
  return [`[WhatsApp: order of ${items.length} item${items.length === 1 ? '' : 's'}]`, ...lines, o.text]
    .filter(Boolean)
    .join('\n');
}

/**
 * One webhook POST as events. Only the `messages` field of changes for this channel's phone number counts:
 * messages (a button or list reply, or a template's quick-reply button, is a postback), and statuses of our
 * messages (by the wamid we kept when sending; failed carries the reason).
 */
export function parseWhatsApp(channel: AdapterChannel, req: RawRequest): ParsedEvent[] {
  const p = read(payload, storable(req.body));
  if (!p.ok) return [unreadable('WhatsApp', p.reason)];
  const events: ParsedEvent[] = [];
  for (const [e, entry] of p.data.entry.entries()) {
    for (const [c, change] of (entry.changes ?? []).entries()) {
      if (change.field !== 'messages') {
        events.push({ kind: 'ignored', what: `field ${change.field ?? '(none)'}` });
        continue;
      }
      const where = `entry.${e}.changes.${c}.value`;
      const v = read(value, change.value);
      if (!v.ok) {
        events.push(unreadable('WhatsApp', at(where, v.reason)));
        continue;
      }
      const phoneNumberId = v.data.metadata?.phone_number_id;
      if (phoneNumberId && phoneNumberId !== channel.settings.phoneNumberId) continue;
      // The senders' profiles only name them: of the wrong shape, the messages are kept under their numbers.
      const profiles = read(contacts, (change.value as { contacts?: unknown }).contacts ?? []);
      if (!profiles.ok) events.push(unreadable('WhatsApp', at(`${where}.contacts`, profiles.reason)));
      const known = profiles.ok ? profiles.data : [];
      for (const [i, item] of (v.data.messages ?? []).entries()) {
        const m = read(waMessage, item);
        const key = m.ok ? m : read(messageKey, item);
        if (!key.ok) {
          events.push(unreadable('WhatsApp', at(`${where}.messages.${i}`, m.ok ? key.reason : m.reason)));
          continue;
        }
        const from = key.data.from;
        const profile = known.find((k) => k.wa_id === from) ?? known[0];
        const client = { externalId: from, name: profile?.profile?.name?.trim() || `+${from}` };
        if (!m.ok) {
          events.push(unreadableMessage('WhatsApp', at(`messages.${i}`, m.reason), key.data.id, client));
          continue;
        }
        events.push(...messageEvents(m.data, client));
      }
      for (const [i, item] of (v.data.statuses ?? []).entries()) {
        const st = read(waStatus, item);
        if (!st.ok) {
          events.push(unreadable('WhatsApp', at(`${where}.statuses.${i}`, st.reason)));
          continue;
        }
        const s = st.data;
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
        else if (s.status !== 'sent') events.push({ kind: 'ignored', what: `status ${s.status}` });
      }
    }
  }
  return events;
}

/**
 * A readable message as its events: a button or list reply, or a template's quick-reply button, is a postback; an
 * edit changes the message it names; a revoke (the client deleted a message) stores nothing, as Messenger's deleted
 * messages; a number change is a visible notice, and the contact follows the new number.
 */
function messageEvents(m: WaMessage, client: InboundMessage['client']): ParsedEvent[] {
  if (m.type === 'revoke') return [];
  if (m.type === 'edit' && m.edit) {
    const inner = read(waMessage, {
      ...(typeof m.edit.message === 'object' && m.edit.message),
      from: m.from,
      id: m.edit.original_message_id,
    });
    if (!inner.ok) return [unreadable('WhatsApp', at('edit.message', inner.reason))];
    const { text } = content(inner.data);
    const message = { externalMessageId: m.edit.original_message_id, client, text, attachments: [] };
    return [{ kind: 'edit', message }];
  }
  const event = messageEvent(m, client);
  const moved = m.type === 'system' ? (m.system?.new_wa_id ?? m.system?.wa_id) : undefined;
  if (!moved || moved === m.from) return [event];
  return [event, { kind: 'moved', client: { externalId: m.from }, newExternalId: moved }];
}

function messageEvent(m: WaMessage, client: InboundMessage['client']): ParsedEvent {
  const base: Omit<InboundMessage, 'text'> = { externalMessageId: m.id, client, attachments: [] };
  const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
  if (m.type === 'interactive' && reply)
    return { kind: 'postback', data: reply.id, message: { ...base, text: reply.title } };
  if (m.type === 'button' && m.button) {
    const label = m.button.text ?? m.button.payload ?? '';
    return { kind: 'postback', data: m.button.payload ?? label, message: { ...base, text: label } };
  }
  const { text, media } = content(m);
  return { kind: 'message', message: { ...base, text, media } };
}
