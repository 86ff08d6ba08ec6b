import { z } from 'zod';
import type { InboundMessage, MediaRef, ParsedEvent, RawRequest } from '../types.ts';
import {
  nameFrom,
  numericId,
  providerId,
  read,
  storable,
  unreadable,
  unreadableMessage,
} from '../unreadable.ts';

// The parts of the Bot API's Update we read (https://core.telegram.org/bots/api#update), as schemas: the fields we
// use are checked, every other field is let through (Telegram adds fields over time).
const str = z.string().optional();
const user = z.looseObject({ id: numericId, first_name: str, last_name: str, username: str });
const chat = z.looseObject({
  id: numericId,
  type: z.string(),
  first_name: str,
  last_name: str,
  username: str,
});
const file = z.looseObject({
  file_id: providerId,
  file_size: z.number().optional(),
  file_name: str,
  mime_type: str,
});
const message = z.looseObject({
  message_id: numericId,
  from: user.optional(),
  chat,
  text: str,
  caption: str,
  photo: z.array(file.extend({ width: z.number(), height: z.number() })).optional(),
  document: file.optional(),
  audio: file.optional(),
  voice: file.optional(),
  video: file.optional(),
  video_note: file.optional(),
  animation: file.optional(),
  sticker: file
    .extend({ emoji: str, is_animated: z.boolean().optional(), is_video: z.boolean().optional() })
    .optional(),
  location: z.looseObject({ latitude: z.number(), longitude: z.number() }).optional(),
  // A place: its own location, title and address (the message carries `location` too).
  venue: z
    .looseObject({
      location: z.looseObject({ latitude: z.number(), longitude: z.number() }).optional(),
      title: str,
      address: str,
    })
    .optional(),
  contact: z.looseObject({ phone_number: z.string(), first_name: str, last_name: str }).optional(),
  reply_markup: z
    .looseObject({
      inline_keyboard: z.array(z.array(z.looseObject({ text: str, callback_data: str }))).optional(),
    })
    .optional(),
});
const update = z.looseObject({
  update_id: numericId,
  message: message.optional(),
  edited_message: message.optional(),
  callback_query: z
    .looseObject({ id: providerId, from: user, data: str, message: message.optional() })
    .optional(),
  my_chat_member: z
    .looseObject({ chat, new_chat_member: z.looseObject({ status: str }).optional() })
    .optional(),
});
type User = z.output<typeof user>;
type Message = z.output<typeof message>;
type File = z.output<typeof file>;

/** What names a client's message when the rest of it cannot be read: the private chat and the message id. */
const messageKey = z.looseObject({
  message_id: numericId,
  chat: z.looseObject({ id: numericId, type: z.string() }),
});
/** What names a button press when the rest cannot be read: its id and who pressed. */
const callbackKey = z.looseObject({ id: providerId, from: z.looseObject({ id: numericId }) });

const nameOf = (u: Pick<User, 'first_name' | 'last_name' | 'username' | 'id'>) =>
  [u.first_name, u.last_name].filter(Boolean).join(' ').trim() || u.username || String(u.id);

/** The largest photo size: the one worth keeping. */
const largest = (sizes: NonNullable<Message['photo']>) =>
  [...sizes].sort((a, b) => (a.file_size ?? a.width * a.height) - (b.file_size ?? b.width * b.height)).at(-1);

/** What a private message carries: its text (or caption), the provider files to fetch, and a notice for the rest. */
function content(m: Message): { text: string; media: MediaRef[] } {
  const media: MediaRef[] = [];
  const file = (f: File | undefined, name: string, contentType: string) => {
    if (f)
      media.push({
        ref: f.file_id,
        name: f.file_name ?? name,
        contentType: f.mime_type ?? contentType,
        size: f.file_size,
      });
  };
  const photo = m.photo?.length ? largest(m.photo) : undefined;
  if (photo)
    media.push({ ref: photo.file_id, name: 'photo.jpg', contentType: 'image/jpeg', size: photo.file_size });
  file(m.document, 'document', 'application/octet-stream');
  file(m.audio, 'audio.mp3', 'audio/mpeg');
  file(m.voice, 'voice.ogg', 'audio/ogg');
  file(m.video, 'video.mp4', 'video/mp4');
  file(m.video_note, 'video-note.mp4', 'video/mp4');
  file(m.animation, 'animation.mp4', 'video/mp4');
  const s = m.sticker;
  if (s)
    file(
      s,
      'sticker.webp',
      s.is_animated ? 'application/x-tgsticker' : s.is_video ? 'video/webm' : 'image/webp',
    );
  let text = m.text ?? m.caption ?? '';
  const place = m.venue?.location ?? m.location;
  // As WhatsApp's locations read: the coordinates, then the place's name and address when it is a venue.
  if (place)
    text = [`📍 ${place.latitude}, ${place.longitude}`, m.venue?.title, m.venue?.address]
      .filter(Boolean)
      .join('\n');
  if (m.contact)
    text =
      `👤 ${[m.contact.first_name, m.contact.last_name].filter(Boolean).join(' ')} ${m.contact.phone_number}`.trim();
  if (!text && s?.emoji) text = s.emoji;
  // A kind of message we do not render (a poll, a dice, a game...) is kept as a visible notice, never dropped.
  if (!text && !media.length) {
    const kinds = Object.keys(m).filter(
      (k) => !['message_id', 'from', 'chat', 'date', 'entities'].includes(k),
    );
    text = `[Telegram: ${kinds[0] ?? 'empty message'}]`;
  }
  return { text, media };
}

function inbound(m: Message): InboundMessage {
  const { text, media } = content(m);
  return {
    // Message ids are counted per chat: the chat makes them unique for the bot.
    externalMessageId: `${m.chat.id}:${m.message_id}`,
    client: {
      externalId: String(m.chat.id),
      name: nameOf(m.from ?? m.chat),
      username: (m.from ?? m.chat).username,
    },
    text,
    attachments: [],
    media,
  };
}

/** The label of the pressed button: the original message's keyboard holds it under the same callback_data. */
function pressedLabel(m: Message | undefined, data: string): string | undefined {
  const rows = m?.reply_markup?.inline_keyboard;
  if (!Array.isArray(rows) || !data) return undefined;
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    const b = row.find((x) => x && typeof x === 'object' && x.callback_data === data);
    if (typeof b?.text === 'string' && b.text.trim()) return b.text;
  }
  return undefined;
}

/** A webhook's request: one Update. */
export const parseTelegram = (req: RawRequest): ParsedEvent[] => parseTelegramUpdate(req.body);

/**
 * One Telegram update as events, as our webhook receives it or getUpdates answers it in a list. Only private chats
 * are customer dialogs: group and channel posts give nothing. A callback query from our buttons is a postback;
 * `my_chat_member` 'kicked' means the client blocked the bot.
 */
export function parseTelegramUpdate(raw: unknown): ParsedEvent[] {
  const body = storable(raw);
  const parsed = read(update, body);
  if (!parsed.ok) return unreadableUpdate(body, parsed.reason);
  const u = parsed.data;
  const m = u.message ?? u.edited_message;
  if (m) {
    if (m.chat?.type !== 'private') return [];
    return [{ kind: u.message ? 'message' : 'edit', message: inbound(m) }];
  }
  const cb = u.callback_query;
  if (cb) {
    if (cb.message && cb.message.chat.type !== 'private') return [];
    const data = cb.data ?? '';
    // The client saw the label and pressed it: that is the visible text; the payload stays in `data`.
    const text = pressedLabel(cb.message, data) ?? data;
    return [
      {
        kind: 'postback',
        data,
        ackRef: cb.id,
        message: {
          externalMessageId: `callback:${cb.id}`,
          client: {
            externalId: String(cb.message?.chat.id ?? cb.from.id),
            name: nameOf(cb.from),
            username: cb.from.username,
          },
          text,
          attachments: [],
        },
      },
    ];
  }
  const member = u.my_chat_member;
  if (member?.chat.type === 'private' && member.new_chat_member?.status === 'kicked')
    return [{ kind: 'opt_out', client: { externalId: String(member.chat.id) } }];
  if (member) return [];
  // A channel post, a poll, an inline query...: updates a customer dialog has nothing to do with.
  const what = Object.keys(u).find((k) => k !== 'update_id');
  return [{ kind: 'ignored', what: what ?? 'empty update' }];
}

/**
 * An update of the wrong shape: a notice in the client's dialog when it is their message or button press and says
 * whose (under the message's own id, so a redelivery is a duplicate); otherwise recorded on the channel.
 */
function unreadableUpdate(body: unknown, reason: string): ParsedEvent[] {
  const u = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  for (const field of ['message', 'edited_message'] as const) {
    const key = messageKey.safeParse(u[field]);
    if (!key.success) continue;
    const m = u[field] as Record<string, Record<string, unknown> | undefined>;
    // Only private chats are customer dialogs.
    if (key.data.chat.type !== 'private') return [];
    const who = m.from && typeof m.from === 'object' ? m.from : (m.chat ?? {});
    const notice = unreadableMessage('Telegram', reason, `${key.data.chat.id}:${key.data.message_id}`, {
      externalId: String(key.data.chat.id),
      name: nameFrom([who.first_name, who.last_name], String(key.data.chat.id)),
    });
    return [field === 'message' ? notice : { ...notice, kind: 'edit' }];
  }
  const cb = callbackKey.safeParse(u.callback_query);
  if (cb.success) {
    const from = (u.callback_query as { from: Record<string, unknown> }).from;
    const chatId = messageKey.safeParse((u.callback_query as { message?: unknown }).message);
    if (chatId.success && chatId.data.chat.type !== 'private') return [];
    return [
      unreadableMessage('Telegram', reason, `callback:${cb.data.id}`, {
        externalId: String(chatId.success ? chatId.data.chat.id : cb.data.from.id),
        name: nameFrom([from.first_name, from.last_name], String(cb.data.from.id)),
      }),
    ];
  }
  return [unreadable('Telegram', reason)];
}
