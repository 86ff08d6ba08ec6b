import { byIdOrder, isAfter } from '../marketplace.ts';
import type { AdapterChannel, AdapterContext, InboundEvent } from '../types.ts';
import { callYaMarket, credentialsOf } from './api.ts';
import { type ChatContext, chatInfo, historyEvent, PENDING_TEXT } from './parse.ts';

/**
 * What a notification does not carry (docs/providers/yandex-market.md §6.2: no text, no sender, no order): the
 * enrich step reads the message (`GET …/chats/message`) and, once per chat, its context (`GET …/chat`, as Yandex
 * recommends, §2.2), remembered a day per process; the poll remembers the contexts it lists too.
 */

const TTL_MS = 24 * 3600_000;
const MAX = 20_000;
const CONTEXTS = new Map<string, { context: ChatContext | null; until: number }>();
const keyOf = (channelId: string, chatId: string) => `${channelId}:${chatId}`;

/** Remembers a chat's context (the poll's list and history answers carry it). */
export function rememberContext(channelId: string, chatId: string, context: ChatContext | null | undefined) {
  if (CONTEXTS.size >= MAX) {
    // The oldest tenth goes: a Map keeps insertion order.
    let n = MAX / 10;
    for (const k of CONTEXTS.keys()) {
      CONTEXTS.delete(k);
      if (--n <= 0) break;
    }
  }
  CONTEXTS.set(keyOf(channelId, chatId), { context: context ?? null, until: Date.now() + TTL_MS });
}

async function contextOf(ctx: AdapterContext, channel: AdapterChannel, chatId: string) {
  const hit = CONTEXTS.get(keyOf(channel.id, chatId));
  if (hit && hit.until > Date.now()) return hit.context;
  const got = await callYaMarket<unknown>(ctx, credentialsOf(channel), {
    method: 'GET',
    path: '/chat',
    query: { chatId },
  });
  if (!got.ok) throw new Error(got.message);
  const chat = chatInfo.safeParse(got.result);
  const context = chat.success ? (chat.data.context ?? null) : null;
  rememberContext(channel.id, chatId, context);
  return context;
}

/** Where the poll stands in a chat (its cursor, poll.ts): the last message id it read, if any. */
async function placeOf(ctx: AdapterContext, channelId: string, chatId: string): Promise<string | undefined> {
  const rows = await ctx.db.query<{ last: string | null }>(
    `select cursor -> 'chats' -> $2::text ->> 'last' as last from channel_polls
      where channel_id = $1 and kind = 'inbound'`,
    [channelId, chatId],
  );
  const last = rows[0]?.last;
  return last && /^\d{1,20}$/.test(last) ? last : undefined;
}

/** History pages a pushed message may read back to the poll's place; farther, the poll catches up. */
const PUSH_HISTORY_PAGES = 3;

/**
 * A chat's buyer messages after the poll's place up to `upTo` (the newest pushed), in Market's order (by id): a
 * notification that overtook an earlier one (or one Market dropped) brings the earlier message first, so the chat
 * keeps Market's order; ingest stores each once, whichever of the poll, the push and its retries comes first.
 * Pushed messages the history does not hold yet are read one by one (`GET …/chats/message`, §3.2).
 */
async function readPushed(
  ctx: AdapterContext,
  channel: AdapterChannel,
  chatId: string,
  pushed: string[],
): Promise<InboundEvent[]> {
  const creds = credentialsOf(channel);
  const context = await contextOf(ctx, channel, chatId);
  const from = await placeOf(ctx, channel.id, chatId);
  const upTo = pushed.reduce((a, b) => (isAfter(b, a) ? b : a));
  const found = new Map<string, unknown>();
  let page: string | undefined;
  for (let i = 0; i < PUSH_HISTORY_PAGES; i++) {
    const got = await callYaMarket<{ messages?: unknown[]; paging?: { nextPageToken?: unknown } }>(
      ctx,
      creds,
      {
        method: 'POST',
        path: '/chats/history',
        query: { chatId, limit: 100, pageToken: page },
        body: from ? `{"messageIdFrom":${from}}` : {},
      },
    );
    if (!got.ok) throw new Error(got.message);
    for (const m of got.result.messages ?? []) {
      const id = String((m as { messageId?: unknown } | null)?.messageId ?? '');
      if (isAfter(id, from) && !isAfter(id, upTo)) found.set(id, m);
    }
    const next = got.result.paging?.nextPageToken;
    if (typeof next !== 'string' || !next || next === page || !got.result.messages?.length) break;
    page = next;
  }
  for (const id of pushed) {
    if (found.has(id)) continue;
    const got = await callYaMarket<unknown>(ctx, creds, {
      method: 'GET',
      path: '/chats/message',
      query: { chatId, messageId: id },
    });
    if (got.ok) found.set(id, got.result);
  }
  const out: InboundEvent[] = [];
  for (const id of [...found.keys()].sort(byIdOrder)) {
    const read = historyEvent(chatId, context, found.get(id));
    if (read.kind === 'message') out.push(read);
  }
  return out;
}

/**
 * The adapter's `enrich`: the pushed messages (PENDING_TEXT) of each chat read from Market, with the chat's buyer
 * and order. A chat Market does not answer for now (420/429, 5xx, out of reach) loses its pushed events, never
 * stored empty: the push is still acknowledged and the poll, which reads every chat that changed, stores them. Our
 * own and Market's messages are left.
 */
export async function yaMarketEnrich(
  ctx: AdapterContext,
  channel: AdapterChannel,
  events: InboundEvent[],
): Promise<InboundEvent[]> {
  const out: InboundEvent[] = [];
  const pushed = new Map<string, string[]>();
  for (const e of events) {
    if (e.kind !== 'message' || e.message.text !== PENDING_TEXT) {
      out.push(e);
      continue;
    }
    const chatId = e.message.client.externalId;
    const ids = pushed.get(chatId) ?? [];
    ids.push(e.message.externalMessageId.slice(chatId.length + 1));
    pushed.set(chatId, ids);
  }
  for (const [chatId, ids] of pushed) {
    const read = await readPushed(ctx, channel, chatId, ids).catch(() => []);
    out.push(...read);
  }
  return out;
}
