import { z } from 'zod';
import type { AdapterChannel, InboundMessage, MediaRef, ParsedEvent, RawRequest } from '../types.ts';
import { providerId, read, storable, unreadable, unreadableMessage } from '../unreadable.ts';
import { knownChat } from './chat.ts';

// The v3 webhook's body (docs/providers/avito.md "Payload of a new message (v3)"), as schemas: the fields we use
// are checked, the others let through; every content key is nullable.
const str = z.string().nullish();
const num = z.number().nullish();
/** Avito's ids are int64 numbers in JSON; a string is accepted too. */
const anyId = z.union([z.number(), z.string()]);
const sizes = z.record(z.string(), z.string()).nullish();
const content = z
  .looseObject({
    text: str,
    image: z.looseObject({ sizes }).nullish(),
    link: z.looseObject({ text: str, url: str }).nullish(),
    item: z.looseObject({ title: str, price_string: str, item_url: str }).nullish(),
    location: z.looseObject({ lat: num, lon: num, title: str, text: str }).nullish(),
    call: z.looseObject({ status: str }).nullish(),
    voice: z.looseObject({ voice_id: str }).nullish(),
    flow_id: str,
  })
  .nullish();
const value = z.looseObject({
  id: providerId,
  chat_id: providerId,
  direction: str,
  user_id: anyId.nullish(),
  author_id: anyId.nullish(),
  type: z.string(),
  chat_type: str,
  content,
  item_id: anyId.nullish(),
});
type Value = z.output<typeof value>;
const envelope = z.looseObject({ id: str, payload: z.looseObject({ type: z.string(), value: z.unknown() }) });
/** What names a client's message when the rest cannot be read. */
const messageKey = z.looseObject({ id: providerId, chat_id: providerId });

/** A voice message's media ref: this prefix and Avito's voice_id. */
export const AVITO_VOICE_REF = 'avito-voice:';

/** The largest `WxH` of an image's sizes. */
function largest(s: Record<string, string> | null | undefined): string | undefined {
  const area = (k: string) => k.split('x').reduce((a, b) => a * (Number(b) || 0), 1);
  const best = Object.keys(s ?? {})
    .filter((k) => /^https?:\/\//.test(s?.[k] ?? ''))
    .sort((a, b) => area(b) - area(a))[0];
  return best ? s?.[best] : undefined;
}

/** The message's text and files; content we cannot show becomes a visible notice, as other adapters do. */
function contentOf(v: Value): { text: string; media: MediaRef[] } {
  const c = v.content ?? {};
  const media: MediaRef[] = [];
  let text = '';
  switch (v.type) {
    case 'text':
      text = c.text ?? '';
      break;
    case 'image': {
      const url = largest(c.image?.sizes);
      if (url) media.push({ ref: url, name: 'image.jpg', contentType: 'image/jpeg' });
      else text = '[Avito: image]';
      break;
    }
    case 'link':
      text = [c.link?.text, c.link?.url].filter(Boolean).join('\n') || '[Avito: link]';
      break;
    case 'item':
      text =
        `[Avito: listing] ${[c.item?.title, c.item?.price_string, c.item?.item_url].filter(Boolean).join(' · ')}`.trim();
      break;
    case 'location': {
      const where = c.location;
      const at = where?.lat != null && where.lon != null ? `📍 ${where.lat}, ${where.lon}` : '📍';
      text = [at, where?.title, where?.text].filter(Boolean).join('\n');
      break;
    }
    case 'call':
      text = c.call?.status === 'missed' ? '[Avito: missed call]' : '[Avito: call]';
      break;
    case 'deleted':
      text = '[Avito: message deleted]';
      break;
    case 'voice': {
      // The file's link is asked for when it is downloaded (getVoiceFiles; each link lives an hour): media.ts.
      const id = c.voice?.voice_id;
      if (id) media.push({ ref: `${AVITO_VOICE_REF}${id}`, name: 'voice.mp4', contentType: 'audio/mp4' });
      else text = '[Avito: voice]';
      break;
    }
    default:
      // appCall, file, video (the API gives `{}`), and types not documented.
      text = `[Avito: ${v.type || 'message'}]`;
  }
  if (!text && !media.length) text = '[Avito: empty message]';
  return { text, media };
}

/**
 * One webhook request as events (only `payload.type = "message"` is documented; other types are ignored; the
 * subscribe check's empty body is answered with nothing stored). The client is the Avito chat (our choice: `client.externalId` is the chat id, since a reply
 * needs it and a chat has one customer; the same person asking about two listings is two clients). The chat's
 * name and listing come from chat.ts.
 */
export function parseAvito(channel: AdapterChannel, req: RawRequest): ParsedEvent[] {
  const body = storable(req.body);
  // Avito checks a new URL with an empty JSON body (brief "Subscribe"): answered, nothing stored.
  if (body === undefined || body === null || (typeof body === 'object' && !Object.keys(body).length))
    return [];
  const env = read(envelope, body);
  if (!env.ok) return [unreadable('Avito', env.reason)];
  if (env.data.payload.type !== 'message') return [{ kind: 'ignored', what: env.data.payload.type }];
  return avitoMessage(channel, env.data.payload.value);
}

/**
 * One Avito message as an event: the webhook's `payload.value`, or a message of the history read by the
 * reconciling poll (poll.ts gives it the chat's id). Skipped: messages of another account, our own account's messages
 * (Avito echoes what we and the account's managers send: brief "Behaviour not covered by the docs", not documented;
 * the history marks them `direction: out`), and Avito's chat-bot messages (`system`).
 */
export function avitoMessage(channel: AdapterChannel, raw: unknown): ParsedEvent[] {
  const full = read(value, raw);
  if (!full.ok) {
    const key = read(messageKey, raw);
    if (!key.ok) return [unreadable('Avito', `payload.value.${full.reason}`)];
    const client = { externalId: key.data.chat_id, name: `Avito ${key.data.chat_id}`.slice(0, 100) };
    return [unreadableMessage('Avito', full.reason, key.data.id, client)];
  }
  const v = full.data;
  const own = String(channel.settings.userId ?? '');
  if (v.user_id != null && own && String(v.user_id) !== own) return [];
  if (v.author_id != null && String(v.author_id) === own) return [];
  if (v.direction === 'out') return [];
  if (v.type === 'system') return [{ kind: 'ignored', what: 'message:system' }];
  const { text, media } = contentOf(v);
  const known = knownChat(channel.id, v.chat_id);
  const message: InboundMessage = {
    externalMessageId: v.id,
    client: known?.name
      ? { externalId: v.chat_id, name: known.name }
      : // The webhook names no one: the chat tells the name (clientNames); a stand-in meanwhile.
        { externalId: v.chat_id, name: 'Avito client', nameUnknown: !known },
    text,
    attachments: [],
    ...(media.length ? { media } : {}),
  };
  if (known?.topic) message.topic = { ...known.topic };
  return [{ kind: 'message', message }];
}
