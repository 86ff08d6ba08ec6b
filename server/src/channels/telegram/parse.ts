import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { InboundEvent, InboundMessage, MediaRef, RawRequest } from '../types.ts';

// The parts of the Bot API's Update we read (https://core.telegram.org/bots/api#update).
type User = { id: number; first_name?: string; last_name?: string; username?: string };
type Chat = { id: number; type: string; first_name?: string; last_name?: string; username?: string };
type File = { file_id: string; file_size?: number; file_name?: string; mime_type?: string };
type Message = {
  message_id: number;
  from?: User;
  chat: Chat;
  text?: string;
  caption?: string;
  photo?: (File & { width: number; height: number })[];
  document?: File;
  audio?: File;
  voice?: File;
  video?: File;
  video_note?: File;
  animation?: File;
  sticker?: File & { emoji?: string; is_animated?: boolean; is_video?: boolean };
  location?: { latitude: number; longitude: number };
  contact?: { phone_number: string; first_name?: string; last_name?: string };
  reply_markup?: { inline_keyboard?: { text?: string; callback_data?: string }[][] };
};
type Update = {
  update_id: number;
  message?: Message;
  edited_message?: Message;
  callback_query?: { id: string; from: User; data?: string; message?: Message };
  my_chat_member?: { chat: Chat; new_chat_member?: { status?: string } };
};

const nameOf = (u: { first_name?: string; last_name?: string; username?: string; id: number }) =>
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
  if (m.location) text = `📍 ${m.location.latitude}, ${m.location.longitude}`;
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

/**
 * One Telegram update as events. Only private chats are customer dialogs: group and channel posts give nothing.
 * A callback query from our buttons is a postback; `my_chat_member` 'kicked' means the client blocked the bot.
 */
export function parseTelegram(req: RawRequest): InboundEvent[] {
  const u = req.body as Update | undefined;
  if (!u || typeof u !== 'object' || typeof u.update_id !== 'number')
    throw new AppError('validationException', { _: M.incorrectValue });
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
  return [];
}
