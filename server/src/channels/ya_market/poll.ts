import { afterFailedPass } from '../long-poll.ts';
import { byIdOrder, isAfter, must, PollFailure } from '../marketplace.ts';
import type { AdapterChannel, AdapterContext, ParsedEvent, PollSession } from '../types.ts';
import { callYaMarket, credentialsOf, type YaMarketCall } from './api.ts';
import { rememberContext } from './chat.ts';
import { type ChatContext, type ChatInfo, chatContext, chatInfo, historyEvent } from './parse.ts';

/** docs/providers/yandex-market.md §8: how the chats are read. */
export const YA_MARKET_POLL = {
  /** A pass every 30 s (§8: 30–60 s; about 120 list calls an hour of the 5 000 allowed). */
  intervalMs: 30_000,
  /** Every this many passes (10 minutes) the list is read without its status filter (§8 step 4). */
  sweepEvery: 20,
  /** Chats per list page (its maximum, §2.1). */
  listLimit: 20,
  /** At most this many list pages a pass (2 000 chats). */
  listPagesMax: 100,
  /** Messages per history page (its maximum, §3.1). */
  historyLimit: 100,
  /** At most this many history pages of one chat a pass; the rest is read by the next pass. */
  historyPagesMax: 10,
  maxAnswerBytes: 16 * 1024 * 1024,
} as const;

/** The chats needing the seller's answer (§2: `WAITING_FOR_PARTNER`, and new ones): what most passes list. */
const WAITING = ['NEW', 'WAITING_FOR_PARTNER'];

type ListAnswer = { chats?: unknown[]; paging?: { nextPageToken?: unknown } };
type HistoryAnswer = { context?: unknown; messages?: unknown[]; paging?: { nextPageToken?: unknown } };

/**
 * Where a chat stands: `last` the newest message id read, `at` its `updatedAt` (the time of its last message, §2.1)
 * when it was read to the end. A chat only noted (the channel's first pass) has `at` alone.
 */
type Known = { last?: string; at?: string };
/** The poll's cursor: the business it reads, each chat's place, the passes made and the failures in a row. */
type Cursor = { businessId?: string; chats?: Record<string, Known>; pass?: number; failures?: number };

const idOf = (m: unknown) => {
  const id = (m as { messageId?: unknown } | null)?.messageId;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
};
const tokenOf = (paging: { nextPageToken?: unknown } | undefined) =>
  typeof paging?.nextPageToken === 'string' && paging.nextPageToken ? paging.nextPageToken : undefined;

/**
 * One pass over the seller's chats (§8): lists the chats waiting for the seller (`NEW`, `WAITING_FOR_PARTNER`; every
 * 20th pass all of them, which catches replies made in the Market cabinet and chats that moved on), all pages by
 * `pageToken`, and reads the history of each chat whose `updatedAt` differs from the one stored: from the last
 * message read (`messageIdFrom`; whether that one comes again, and in which order messages come, is not documented:
 * ids not after it are dropped and the rest sorted by id), all pages. The channel's first pass reads only the chats
 * waiting for an answer and notes where the others stand (our choice, as Ozon's: connecting does not import a
 * seller's whole past); a noted chat's next messages are those after the time noted. Buyer messages go to ingest;
 * the chat's place is stored once they are committed, so a crash reads them again and ingest dedupes them.
 *
 * A refused key (401/403) is the channel's problem (tried again 5 minutes later); 420 (Market's rate limit, §7) and
 * 429 wait as long as Market says, network failures and 5xx back off from 1 s doubling to a minute, and are the
 * channel's 'unreachable' problem only once they last (problems.ts). The place reached stays stored: nothing is lost.
 */
export async function pollYaMarket(
  ctx: AdapterContext,
  channel: AdapterChannel,
  session: PollSession,
): Promise<{ againInMs: number }> {
  const creds = credentialsOf(channel);
  const cursor = session.cursor as Cursor;
  // Another business (the channel was edited) is read afresh.
  const first = !cursor.chats || typeof cursor.chats !== 'object' || cursor.businessId !== creds.businessId;
  const known: Record<string, Known> = { ...(first ? {} : cursor.chats) };
  const pass = first ? 0 : (Number(cursor.pass) || 0) + 1;
  const sweep = pass % YA_MARKET_POLL.sweepEvery === 0;
  const failures = Number(cursor.failures) || 0;
  const call = <T>(c: YaMarketCall) =>
    callYaMarket<T>(ctx, creds, {
      ...c,
      signal: session.signal,
      maxBytes: YA_MARKET_POLL.maxAnswerBytes,
    }).then(must, (err: Error) => {
      throw err instanceof PollFailure ? err : new PollFailure(err.message);
    });
  let stored = true;
  const save = async (extra: Cursor = {}) => {
    stored = await session.saveCursor({
      ...session.cursor,
      businessId: creds.businessId,
      chats: known,
      pass,
      failures: 0,
      ...extra,
    });
    return stored;
  };
  try {
    const chats: ChatInfo[] = [];
    const seen = new Set<string>();
    let page: string | undefined;
    for (let i = 0; i < YA_MARKET_POLL.listPagesMax && !session.signal.aborted; i++) {
      const list = await call<ListAnswer>({
        method: 'POST',
        path: '/chats',
        query: { limit: YA_MARKET_POLL.listLimit, pageToken: page },
        body: sweep ? {} : { statuses: WAITING },
      });
      for (const raw of list.chats ?? []) {
        const chat = chatInfo.safeParse(raw);
        if (!chat.success || seen.has(chat.data.chatId)) continue;
        seen.add(chat.data.chatId);
        chats.push(chat.data);
        rememberContext(channel.id, chat.data.chatId, chat.data.context);
      }
      if (i === 0) await session.working();
      const next = tokenOf(list.paging);
      if (!next || next === page || !list.chats?.length) break;
      page = next;
    }
    // Places noted without a batch (chats only noted, the pass count) are stored at the end.
    let dirty = true;
    for (const chat of chats) {
      if (session.signal.aborted) break;
      const place = known[chat.chatId];
      if (place?.at !== undefined && place.at === chat.updatedAt) continue;
      if (first && !WAITING.includes(chat.status ?? '')) {
        known[chat.chatId] = { at: chat.updatedAt ?? '' };
        continue;
      }
      const read = await readNew(call, chat.chatId, place);
      const context = read.context ?? chat.context;
      const events: ParsedEvent[] = read.items.map((m) => historyEvent(chat.chatId, context, m));
      if (events.some((e) => e.kind !== 'ignored')) await session.receive(events);
      // A chat read only in part stays unfinished (no `at`): the next pass reads on from its last message.
      known[chat.chatId] = {
        ...(read.last ? { last: read.last } : {}),
        ...(read.more ? {} : { at: chat.updatedAt ?? '' }),
      };
      if (!(await save())) return { againInMs: 0 };
      dirty = false;
    }
    if (dirty && !(await save())) return { againInMs: 0 };
    return { againInMs: YA_MARKET_POLL.intervalMs };
  } catch (err) {
    return afterFailedPass(session, err, failures, (n) =>
      stored ? save({ failures: n, pass: Number(cursor.pass) || 0 }) : Promise.resolve(),
    );
  }
}

/**
 * The chat's messages after its place, oldest first: from `messageIdFrom` (the last read) or, for a chat only noted,
 * from the start keeping those written after the time noted; at most `historyPagesMax` pages (`more` when Market has
 * more). `last` is the newest id read, whatever its sender; `context` the chat's, as the history tells it.
 */
async function readNew(
  call: <T>(c: YaMarketCall) => Promise<T>,
  chatId: string,
  place: Known | undefined,
): Promise<{ items: unknown[]; last?: string; more: boolean; context?: ChatContext }> {
  const from = place?.last;
  const since = from === undefined && place?.at ? Date.parse(place.at) : Number.NaN;
  const byId = new Map<string, unknown>();
  let context: ChatContext | undefined;
  let page: string | undefined;
  let more = false;
  for (let i = 0; ; i++) {
    if (i === YA_MARKET_POLL.historyPagesMax) {
      more = true;
      break;
    }
    const got = await call<HistoryAnswer>({
      method: 'POST',
      path: '/chats/history',
      query: { chatId, limit: YA_MARKET_POLL.historyLimit, pageToken: page },
      // The id written as Market wrote it: a 64-bit id as a JavaScript number would be rounded.
      body: from && /^\d{1,20}$/.test(from) ? `{"messageIdFrom":${from}}` : {},
    });
    const read = chatContext.safeParse(got.context);
    if (read.success && got.context) context = read.data;
    for (const m of got.messages ?? []) {
      const id = idOf(m);
      if (id && isAfter(id, from)) byId.set(id, m);
    }
    const next = tokenOf(got.paging);
    if (!next || next === page || !got.messages?.length) break;
    page = next;
  }
  const ids = [...byId.keys()].sort(byIdOrder);
  const last = ids.at(-1) ?? from;
  const items = ids
    .map((id) => byId.get(id))
    .filter((m) => {
      if (Number.isNaN(since)) return true;
      const at = Date.parse(String((m as { createdAt?: unknown }).createdAt ?? ''));
      return Number.isNaN(at) || at > since;
    });
  return { items, ...(last ? { last } : {}), more, ...(context ? { context } : {}) };
}
