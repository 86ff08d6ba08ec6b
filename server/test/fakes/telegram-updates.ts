// Telegram Bot API objects (https://core.telegram.org/bots/api#available-types) and builders of the
// Update objects Telegram POSTs to a webhook, shared by the fake server in telegram.ts.

export type TgUser = {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
};
export type TgChat = {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
};
export type TgFileRef = { file_id: string; file_unique_id: string; file_size: number };
export type TgPhotoSize = TgFileRef & { width: number; height: number };
export type TgDocument = TgFileRef & { file_name?: string; mime_type?: string };
export type TgInlineButton = { text: string; callback_data?: string; url?: string };
export type TgReplyMarkup = { inline_keyboard: TgInlineButton[][] };
export type TgMessage = {
  message_id: number;
  from?: TgUser;
  sender_chat?: TgChat;
  chat: TgChat;
  date: number;
  edit_date?: number;
  text?: string;
  entities?: { offset: number; length: number; type: string }[];
  caption?: string;
  photo?: TgPhotoSize[];
  document?: TgDocument;
  voice?: TgFileRef & { duration: number; mime_type: string };
  video?: TgFileRef & { width: number; height: number; duration: number; mime_type: string };
  sticker?: TgFileRef & {
    type: 'regular';
    width: number;
    height: number;
    is_animated: boolean;
    is_video: boolean;
    emoji?: string;
  };
  location?: { latitude: number; longitude: number };
  contact?: { phone_number: string; first_name: string; last_name?: string; user_id?: number };
  reply_markup?: TgReplyMarkup;
};
export type TgChatMember = { status: 'member' | 'kicked'; user: TgUser; until_date?: number };
export type TgCallbackQuery = {
  id: string;
  from: TgUser;
  message: TgMessage;
  chat_instance: string;
  data: string;
};
export type TgUpdate = {
  update_id: number;
  message?: TgMessage;
  edited_message?: TgMessage;
  channel_post?: TgMessage;
  callback_query?: TgCallbackQuery;
  my_chat_member?: {
    chat: TgChat;
    from: TgUser;
    date: number;
    old_chat_member: TgChatMember;
    new_chat_member: TgChatMember;
  };
};

export type StoredFile = TgFileRef & {
  file_path: string;
  bytes: Buffer;
  fileName?: string;
  mimeType?: string;
};
export type AddFileOptions = { filePath?: string; fileSize?: number; fileName?: string; mimeType?: string };
/** Without filePath the store names the file `<folder>/file_<n>.<extension>`, as Telegram does. */
export type StoreFileOptions = AddFileOptions & { folder?: string; extension?: string };

/** What the builders need from the fake: its bot, its file store, its per-chat message ids and state. */
export type UpdateContext = {
  bot: TgUser;
  storeFile(bytes: Uint8Array, options?: StoreFileOptions): StoredFile;
  nextMessageId(chatId: number): number;
  rememberChat(chat: TgChat): void;
  callbackQueries: Set<string>;
  setBlocked(chatId: number, blocked: boolean): void;
};

/** A private chat partner: a chat id, or the user's fields (id required). */
export type UserRef = number | (Partial<TgUser> & { id: number });
/** A group or channel: a (negative) chat id, or its fields. */
export type ChatRef = number | (Partial<TgChat> & { id: number });
type MediaOptions = { caption?: string; bytes?: Uint8Array; fileName?: string; mimeType?: string };

export const unixNow = (): number => Math.floor(Date.now() / 1000);

export function userOf(ref: UserRef): TgUser {
  const { id, ...fields } = typeof ref === 'number' ? { id: ref } : ref;
  return {
    id,
    is_bot: false,
    first_name: 'Ada',
    last_name: 'Lovelace',
    username: `ada_${id}`,
    language_code: 'en',
    ...fields,
  };
}

export function privateChatOf(user: TgUser): TgChat {
  const { id, first_name, last_name, username } = user;
  return { id, first_name, last_name, username, type: 'private' };
}

function groupOf(ref: ChatRef, type: TgChat['type']): TgChat {
  const { id, ...fields } = typeof ref === 'number' ? { id: ref } : ref;
  return { id, title: type === 'channel' ? 'News channel' : 'Support group', type, ...fields };
}

/** Telegram sends several sizes of one photo, smallest first; each is its own downloadable file. */
export function photoSizes(ctx: UpdateContext, bytes: Uint8Array): TgPhotoSize[] {
  const sizes: [number, number, number][] = [
    [90, 68, 16],
    [320, 240, 4],
    [800, 600, 1],
  ];
  return sizes.map(([width, height, fraction]) => {
    const part = bytes.subarray(0, Math.max(1, Math.ceil(bytes.length / fraction)));
    const { file_id, file_unique_id, file_size } = ctx.storeFile(part, {
      folder: 'photos',
      extension: 'jpg',
    });
    return { file_id, file_unique_id, file_size, width, height };
  });
}

const FAKE_JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');

/** Builders of realistic Update objects; every call takes the next update_id. */
export function createUpdateBuilders(ctx: UpdateContext) {
  let updateId = 350_000_000;
  let callbackSeq = 0;
  const fileRef = (bytes: Uint8Array, folder: string, extension: string): TgFileRef => {
    const { file_id, file_unique_id, file_size } = ctx.storeFile(bytes, { folder, extension });
    return { file_id, file_unique_id, file_size };
  };
  const message = (from: TgUser | undefined, chat: TgChat, fields: Partial<TgMessage>): TgMessage => {
    ctx.rememberChat(chat);
    return {
      message_id: ctx.nextMessageId(chat.id),
      ...(from ? { from } : {}),
      chat,
      date: unixNow(),
      ...fields,
    };
  };
  const update = (fields: Omit<TgUpdate, 'update_id'>): TgUpdate => ({ update_id: ++updateId, ...fields });
  const inPrivate = (ref: UserRef, fields: Partial<TgMessage>): TgUpdate => {
    const user = userOf(ref);
    return update({ message: message(user, privateChatOf(user), fields) });
  };
  const commandEntities = (text: string) => {
    const command = /^\/\w+(@\w+)?/.exec(text);
    return command ? { entities: [{ offset: 0, length: command[0].length, type: 'bot_command' }] } : {};
  };

  return {
    text: (from: UserRef, text: string) => inPrivate(from, { text, ...commandEntities(text) }),
    photo: (from: UserRef, options: MediaOptions = {}) =>
      inPrivate(from, {
        photo: photoSizes(ctx, options.bytes ?? FAKE_JPEG),
        ...(options.caption ? { caption: options.caption } : {}),
      }),
    document: (from: UserRef, options: MediaOptions = {}) =>
      inPrivate(from, {
        document: {
          file_name: options.fileName ?? 'invoice.pdf',
          mime_type: options.mimeType ?? 'application/pdf',
          ...fileRef(options.bytes ?? Buffer.from('%PDF-1.4\n%%EOF\n'), 'documents', 'pdf'),
        },
        ...(options.caption ? { caption: options.caption } : {}),
      }),
    voice: (from: UserRef, options: MediaOptions & { duration?: number } = {}) =>
      inPrivate(from, {
        voice: {
          duration: options.duration ?? 3,
          mime_type: 'audio/ogg',
          ...fileRef(options.bytes ?? Buffer.from('OggS'), 'voice', 'oga'),
        },
      }),
    video: (from: UserRef, options: MediaOptions & { duration?: number } = {}) =>
      inPrivate(from, {
        video: {
          width: 1280,
          height: 720,
          duration: options.duration ?? 5,
          mime_type: 'video/mp4',
          ...fileRef(options.bytes ?? Buffer.from('....ftypmp42'), 'videos', 'mp4'),
        },
        ...(options.caption ? { caption: options.caption } : {}),
      }),
    sticker: (from: UserRef, emoji = '👍') =>
      inPrivate(from, {
        sticker: {
          type: 'regular',
          width: 512,
          height: 512,
          is_animated: false,
          is_video: false,
          emoji,
          ...fileRef(Buffer.from('RIFF....WEBP'), 'stickers', 'webp'),
        },
      }),
    location: (from: UserRef, latitude: number, longitude: number) =>
      inPrivate(from, { location: { latitude, longitude } }),
    contact: (from: UserRef, phoneNumber: string, firstName = 'Grace', lastName?: string) =>
      inPrivate(from, {
        contact: {
          phone_number: phoneNumber,
          first_name: firstName,
          ...(lastName ? { last_name: lastName } : {}),
        },
      }),
    /** The edited_message Telegram sends when the user edits an earlier message (same message_id). */
    edited: (original: TgUpdate | TgMessage, text: string): TgUpdate => {
      const earlier = 'update_id' in original ? original.message : original;
      if (!earlier) throw new Error('edited() needs an update carrying a message');
      const { entities: _stale, ...kept } = earlier;
      const { photo, document, video, caption } = earlier;
      const media = photo || document || video || caption !== undefined;
      const content = media ? { caption: text } : { text, ...commandEntities(text) };
      return update({ edited_message: { ...kept, ...content, edit_date: unixNow() } });
    },
    /** A button press on one of the bot's messages (by default a fresh one with that button). */
    callback: (from: UserRef, data: string, onMessage?: TgMessage): TgUpdate => {
      const user = userOf(from);
      const chat = privateChatOf(user);
      const pressed =
        onMessage ??
        message(ctx.bot, chat, {
          text: 'Choose an option',
          reply_markup: { inline_keyboard: [[{ text: data, callback_data: data }]] },
        });
      const id = `${4_400_000_000_000_000 + ++callbackSeq}`;
      ctx.callbackQueries.add(id);
      return update({
        callback_query: { id, from: user, message: pressed, chat_instance: `-${8_800_000 + chat.id}`, data },
      });
    },
    groupText: (chat: ChatRef, from: UserRef, text: string) =>
      update({ message: message(userOf(from), groupOf(chat, 'group'), { text, ...commandEntities(text) }) }),
    channelPost: (chat: ChatRef, text: string) => {
      const channel = groupOf(chat, 'channel');
      return update({ channel_post: message(undefined, channel, { sender_chat: channel, text }) });
    },
    /** The user blocked ('kicked') or restarted ('member') the bot; the fake's send* methods follow it. */
    myChatMember: (from: UserRef, status: 'kicked' | 'member') => {
      const user = userOf(from);
      const chat = privateChatOf(user);
      ctx.rememberChat(chat);
      ctx.setBlocked(chat.id, status === 'kicked');
      const member = (s: TgChatMember['status']): TgChatMember =>
        s === 'kicked' ? { status: s, user: ctx.bot, until_date: 0 } : { status: s, user: ctx.bot };
      return update({
        my_chat_member: {
          chat,
          from: user,
          date: unixNow(),
          old_chat_member: member(status === 'kicked' ? 'member' : 'kicked'),
          new_chat_member: member(status),
        },
      });
    },
  };
}

export type UpdateBuilders = ReturnType<typeof createUpdateBuilders>;
