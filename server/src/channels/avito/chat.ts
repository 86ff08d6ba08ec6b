import type { AdapterChannel, AdapterContext, ChatTopic, InboundEvent } from '../types.ts';
import { type AvitoChat, getChat } from './api.ts';

/**
 * What a chat's webhook does not carry (docs/providers/avito.md "Payload of a new message"): the customer's name and
 * the listing's title and link are read from the chat (getChatByIdV2), once a day per chat in this process:
 * - a chat already read gives parse its name and topic at once;
 * - otherwise parse marks the client `nameUnknown`; the server's `clientNames` step reads the chat (remembered here),
 *   and its `enrich` step then gives each message without a topic its chat's listing. When the chat cannot be read
 *   the message keeps a stand-in name and no topic (the chat's stored topic, if any, is left as it is).
 */

type Known = { name: string | null; topic: ChatTopic | null; until: number };
/** Kept as long as the server's cache of client names (a day), so a name found there means a chat known here. */
const TTL_MS = 24 * 3600_000;
const MAX = 20_000;
const CHATS = new Map<string, Known>();
const keyOf = (channelId: string, chatId: string) => `${channelId}:${chatId}`;

function bounded<V>(map: Map<string, V>) {
  if (map.size < MAX) return;
  let n = MAX / 10;
  for (const k of map.keys()) {
    map.delete(k);
    if (--n <= 0) break;
  }
}

/** The chat as read before, while fresh. */
export function knownChat(channelId: string, chatId: string): Known | null {
  const hit = CHATS.get(keyOf(channelId, chatId));
  return hit && hit.until > Date.now() ? hit : null;
}

/** The customer's name and the listing of one chat object (users: the entry that is not our account). */
export function readChat(
  chat: AvitoChat,
  ownUserId: string,
): { name: string | null; topic: ChatTopic | null } {
  const other = (chat.users ?? []).find((u) => String(u.id ?? '') !== ownUserId && u.name);
  const v = chat.context?.type === 'item' ? chat.context.value : undefined;
  const topic: ChatTopic | null =
    v?.id !== undefined && v.id !== null
      ? {
          kind: 'listing',
          id: String(v.id),
          title: (v.title ?? '').trim() || `#${v.id}`,
          url: typeof v.url === 'string' && /^https?:\/\//.test(v.url) ? v.url : null,
        }
      : null;
  return { name: other?.name?.trim() || null, topic };
}

/** Remembers the name and listing of a chat object read from Avito (one chat, or a page of the chat list). */
export function rememberChat(channelId: string, chat: AvitoChat, ownUserId: string): Known {
  const entry = { ...readChat(chat, ownUserId), until: Date.now() + TTL_MS };
  bounded(CHATS);
  if (chat.id) CHATS.set(keyOf(channelId, chat.id), entry);
  return entry;
}

/** Reads a chat (getChatByIdV2) and remembers its name and listing; null when Avito does not tell. */
async function readAndRemember(ctx: AdapterContext, channel: AdapterChannel, chatId: string) {
  const got = await getChat(ctx, channel, chatId);
  if (!got.ok) return null;
  return rememberChat(channel.id, { ...got.result, id: chatId }, String(channel.settings.userId ?? ''));
}

/**
 * The adapter's `clientNames`: the client's external id is the Avito chat id (parse.ts), so each chat is read once
 * and remembered. Throws when Avito is out of reach for the first chat (the server keeps the stand-in names); later
 * failures leave those chats unnamed.
 */
export async function avitoClientNames(
  ctx: AdapterContext,
  channel: AdapterChannel,
  chatIds: string[],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [i, chatId] of chatIds.entries()) {
    const known = await readAndRemember(ctx, channel, chatId).catch((err: Error) => {
      if (i === 0) throw err;
      return null;
    });
    if (known?.name) out[chatId] = known.name;
  }
  return out;
}

/**
 * The adapter's `enrich`: each message without a topic gets its chat's listing, from the chat remembered by
 * `clientNames` (or read now). A chat that cannot be read leaves its messages as they are.
 */
export async function avitoEnrich(
  ctx: AdapterContext,
  channel: AdapterChannel,
  events: InboundEvent[],
): Promise<InboundEvent[]> {
  const out: InboundEvent[] = [];
  for (const e of events) {
    if ((e.kind !== 'message' && e.kind !== 'postback') || e.message.topic) {
      out.push(e);
      continue;
    }
    const chatId = e.message.client.externalId;
    const known =
      knownChat(channel.id, chatId) ?? (await readAndRemember(ctx, channel, chatId).catch(() => null));
    out.push(known?.topic ? { ...e, message: { ...e.message, topic: { ...known.topic } } } : e);
  }
  return out;
}
