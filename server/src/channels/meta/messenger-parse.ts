import { z } from 'zod';
import type { AdapterChannel, InboundMessage, MediaRef, ParsedEvent, RawRequest } from '../types.ts';
import { at, providerId, read, storable, unreadable, unreadableMessage } from '../unreadable.ts';

/** Instagram or Facebook Messenger: what tells the two apart on the Messenger Platform. */
export type MessengerKind = {
  type: 'instagram' | 'facebook';
  /** The webhook's `object`. */
  object: 'instagram' | 'page';
  /** How notices name the provider. */
  label: string;
  scope: string;
};

// The parts of the Messenger Platform webhook we read
// (https://developers.facebook.com/docs/messenger-platform/reference/webhook-events), as schemas: the fields we use
// are checked, the others let through. Each messaging item is read on its own.
const str = z.string().optional();
const bool = z.boolean().optional();
const attachment = z.looseObject({
  type: str,
  payload: z.looseObject({ url: str, title: str }).nullish(),
});
const messaging = z.looseObject({
  sender: z.looseObject({ id: providerId }).optional(),
  timestamp: z.number().optional(),
  message: z
    .looseObject({
      mid: providerId.optional(),
      text: str,
      is_echo: bool,
      is_deleted: bool,
      is_unsupported: bool,
      quick_reply: z.looseObject({ payload: str }).optional(),
      attachments: z.array(attachment).optional(),
      reply_to: z
        .looseObject({ mid: str, story: z.looseObject({ url: str, id: str }).optional() })
        .optional(),
    })
    .optional(),
  postback: z.looseObject({ mid: providerId.optional(), title: str, payload: str }).optional(),
  // message_deliveries (Messenger): `mids` when the client app tells them, `watermark` always (epoch ms).
  delivery: z
    .looseObject({ mids: z.array(providerId).optional(), watermark: z.number().optional() })
    .optional(),
  // message_reads (Messenger): `watermark`; messaging_seen (Instagram): `mid`, the last message seen.
  read: z.looseObject({ mid: providerId.optional(), watermark: z.number().optional() }).optional(),
});
/** What names a client's message when the rest cannot be read. */
const messagingKey = z.looseObject({
  sender: z.looseObject({ id: providerId }),
  message: z.looseObject({ mid: providerId }),
});
const payloadSchema = z.looseObject({
  object: str,
  entry: z.array(z.looseObject({ id: str, messaging: z.array(z.unknown()).optional() })),
});

const MEDIA_KINDS: Record<string, { name: string; contentType: string }> = {
  image: { name: 'image.jpg', contentType: 'image/jpeg' },
  video: { name: 'video.mp4', contentType: 'video/mp4' },
  audio: { name: 'audio.mp4', contentType: 'audio/mp4' },
  file: { name: 'file', contentType: 'application/octet-stream' },
  ig_reel: { name: 'reel.mp4', contentType: 'video/mp4' },
};

type Marks = z.infer<typeof messaging>;

/**
 * Messenger's delivery (`mids` one by one, and the `watermark`: every message sent before it) and read
 * (`watermark`: every message sent at or before it) marks, and Instagram's seen mark (`mid`: that message and the
 * ones before it), as status reports.
 */
function marks(client: string, delivery: Marks['delivery'], seen: Marks['read']): ParsedEvent[] {
  const out: ParsedEvent[] = [];
  for (const mid of delivery?.mids ?? []) out.push({ kind: 'status', externalId: mid, status: 'delivered' });
  if (delivery?.watermark !== undefined)
    out.push({
      kind: 'status',
      status: 'delivered',
      watermark: { clientExternalId: client, at: delivery.watermark },
    });
  if (seen?.mid) out.push({ kind: 'status', externalId: seen.mid, status: 'read', upTo: true });
  else if (seen?.watermark !== undefined)
    out.push({ kind: 'status', status: 'read', watermark: { clientExternalId: client, at: seen.watermark } });
  return out;
}

/**
 * One webhook POST as events: messages to this channel's account (text, attachments fetched into our storage,
 * story replies and story mentions as visible lines), quick replies and postbacks as button presses, delivery and
 * read marks as status reports. Echoes of what the page sent, and deleted messages, are not a customer's messages;
 * Messenger's other events (reactions, referrals...) are ignored by name.
 */
export function parse(kind: MessengerKind, channel: AdapterChannel, req: RawRequest): ParsedEvent[] {
  const p = read(payloadSchema, storable(req.body));
  if (!p.ok) return [unreadable(kind.label, p.reason)];
  if (p.data.object !== kind.object) return [];
  const events: ParsedEvent[] = [];
  const mine = new Set([channel.settings.pageId, channel.settings.accountId].filter(Boolean));
  for (const [e, entry] of p.data.entry.entries()) {
    if (entry.id && !mine.has(entry.id)) continue;
    for (const [i, item] of (entry.messaging ?? []).entries()) {
      const read_ = read(messaging, item);
      if (!read_.ok) {
        const key = messagingKey.safeParse(item);
        const where = `entry.${e}.messaging.${i}`;
        if (!key.success) events.push(unreadable(kind.label, at(where, read_.reason)));
        else if (!mine.has(key.data.sender.id))
          events.push(
            unreadableMessage(kind.label, read_.reason, key.data.message.mid, {
              externalId: key.data.sender.id,
              name: `${kind.label} ${key.data.sender.id}`,
              nameUnknown: true,
            }),
          );
        continue;
      }
      const m = read_.data;
      const from = m.sender?.id;
      if (!from || mine.has(from)) continue;
      // Delivery and read marks on our messages, as the client's app reports them.
      if (m.delivery || m.read) {
        events.push(...marks(from, m.delivery, m.read));
        continue;
      }
      // Webhooks name no one: the user profile tells the name (clientNames); the id stands in meanwhile.
      const client = { externalId: from, name: `${kind.label} ${from}`, nameUnknown: true };
      if (m.postback) {
        const id = m.postback.mid ?? `postback-${from}-${m.timestamp ?? ''}`;
        const label = m.postback.title ?? m.postback.payload ?? '';
        events.push({
          kind: 'postback',
          data: m.postback.payload ?? label,
          message: { externalMessageId: id, client, text: label, attachments: [] },
        });
        continue;
      }
      const msg = m.message;
      if (!msg) {
        // A reaction, a referral, an opt-in, a handover...: Messenger's other events.
        const what = Object.keys(item as object).find(
          (k) => !['sender', 'recipient', 'timestamp'].includes(k),
        );
        events.push({ kind: 'ignored', what: what ?? 'empty event' });
        continue;
      }
      if (!msg.mid || msg.is_echo || msg.is_deleted) continue;
      const base: Omit<InboundMessage, 'text'> = { externalMessageId: msg.mid, client, attachments: [] };
      if (msg.quick_reply?.payload) {
        events.push({
          kind: 'postback',
          data: msg.quick_reply.payload,
          message: { ...base, text: msg.text ?? msg.quick_reply.payload },
        });
        continue;
      }
      const lines: string[] = [];
      const media: MediaRef[] = [];
      const story = msg.reply_to?.story;
      if (story) lines.push(`[${kind.label}: reply to your story${story.url ? ` ${story.url}` : ''}]`);
      for (const a of msg.attachments ?? []) {
        const url = a?.payload?.url;
        if (a?.type === 'story_mention')
          lines.push(`[${kind.label}: mentioned you in a story${url ? ` ${url}` : ''}]`);
        else if (a?.type && url && Object.hasOwn(MEDIA_KINDS, a.type)) {
          const d = MEDIA_KINDS[a.type] as { name: string; contentType: string };
          media.push({ ref: url, name: d.name, contentType: d.contentType });
        } else if (a?.type === 'fallback' || a?.type === 'share')
          lines.push(`[${kind.label}: ${a.payload?.title ?? 'shared link'}${url ? ` ${url}` : ''}]`);
        else lines.push(`[${kind.label}: ${a?.type ?? 'attachment'}]`);
      }
      if (msg.text) lines.push(msg.text);
      if (!lines.length && !media.length)
        lines.push(`[${kind.label}: ${msg.is_unsupported ? 'unsupported message' : 'empty message'}]`);
      events.push({ kind: 'message', message: { ...base, text: lines.join('\n'), media } });
    }
  }
  return events;
}
