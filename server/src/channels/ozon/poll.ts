import { afterFailedPass } from '../long-poll.ts';
import { PollFailure as Failure, must } from '../marketplace.ts';
import type { AdapterChannel, AdapterContext, ParsedEvent, PollSession } from '../types.ts';
import { callOzon, credentialsOf } from './api.ts';
import { historyEvent, idOrder, isAfter, isBuyerChat } from './parse.ts';

/** docs/providers/ozon.md §8: how the chats are read. */
export const OZON_POLL = {
  /** A pass every 20 s (§8 suggests 20–60 s). */
  intervalMs: 20_000,
  /** Chats per /v3/chat/list page (its maximum, §2.1). */
  listLimit: 100,
  /** At most this many list pages a pass (10 000 chats). */
  listPagesMax: 100,
  /** Messages per /v3/chat/history page (its maximum, §3). */
  historyLimit: 1_000,
  /** At most this many history pages of one chat a pass; the rest is read by the next pass. */
  historyPagesMax: 10,
  /** A chat never seen is read back this many messages (§8 step 2: backfill from the newest). */
  backfill: 50,
  maxAnswerBytes: 16 * 1024 * 1024,
} as const;

type ListItem = {
  chat?: { chat_id?: unknown; chat_type?: unknown };
  last_message_id?: unknown;
  unread_count?: unknown;
};
type ListAnswer = { chats?: ListItem[]; cursor?: unknown; has_next?: unknown };
type HistoryAnswer = { messages?: unknown[]; has_next?: unknown };
type Chat = { chatId: string; lastId: string; unread: number };

/** The poll's cursor: the last message id read of each chat, and the failures in a row (for the backoff). */
type Cursor = { chats?: Record<string, string>; failures?: number };

const idOfItem = (m: unknown) => {
  const id = (m as { message_id?: unknown } | null)?.message_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
};

/**
 * One pass over the seller's chats (§8; Ozon keeps no per-seller event feed to poll): lists every chat
 * (/v3/chat/list, all pages, not `unread_only`, which misses chats read in the Ozon cabinet or by our read marks),
 * keeps the buyer chats (§2.1) whose `last_message_id` differs from the one stored, and reads their new messages
 * (/v3/chat/history `Forward` from the stored id, oldest first; whether that id itself comes again is not
 * documented, so ids not after it are dropped). A chat never seen is read `Backward` from its newest message
 * (`backfill` messages). The very first pass of a channel only notes where each chat stands, reading back the unread
 * ones alone (our choice: connecting does not import a seller's whole past). Buyer messages go to ingest; the
 * chat's position is stored once they are committed, so a crash reads them again and ingest dedupes them.
 *
 * A refused key is the channel's problem (tried again 5 minutes later); 429 waits as long as Ozon says (a second
 * when it says nothing), network failures and 5xx back off from 1 s doubling to a minute, and are the channel's
 * 'unreachable' problem only once they last (problems.ts). The position reached stays stored: nothing is lost.
 */
export async function pollOzon(
  ctx: AdapterContext,
  channel: AdapterChannel,
  session: PollSession,
): Promise<{ againInMs: number }> {
  const creds = credentialsOf(channel);
  const cursor = session.cursor as Cursor;
  const first = !cursor.chats || typeof cursor.chats !== 'object';
  const known: Record<string, string> = { ...(first ? {} : cursor.chats) };
  const failures = Number(cursor.failures) || 0;
  const opts = { signal: session.signal, maxBytes: OZON_POLL.maxAnswerBytes };
  const call = <T>(path: string, body: Record<string, unknown>) =>
    callOzon<T>(ctx, creds, path, body, opts).then(must, (err: Error) => {
      throw err instanceof Failure ? err : new Failure(err.message);
    });
  let stored = true;
  const save = async (extra: Cursor = {}) => {
    stored = await session.saveCursor({ ...session.cursor, chats: known, failures: 0, ...extra });
    return stored;
  };
  try {
    const chats: Chat[] = [];
    let page: string | undefined;
    for (let i = 0; i < OZON_POLL.listPagesMax && !session.signal.aborted; i++) {
      const list = await call<ListAnswer>('/v3/chat/list', {
        limit: OZON_POLL.listLimit,
        ...(page ? { cursor: page } : {}),
      });
      for (const item of list.chats ?? []) {
        const chatId = item.chat?.chat_id;
        if (typeof chatId !== 'string' || !chatId || !isBuyerChat(item.chat?.chat_type)) continue;
        const lastId = item.last_message_id == null ? '' : String(item.last_message_id);
        chats.push({ chatId, lastId, unread: Number(item.unread_count) || 0 });
      }
      if (i === 0) await session.working();
      page = typeof list.cursor === 'string' && list.cursor ? list.cursor : undefined;
      if (list.has_next !== true || !page) break;
    }
    // Positions noted without a batch (the first pass, chats that had nothing new) are stored at the end.
    let dirty = first || failures > 0;
    for (const chat of chats) {
      if (session.signal.aborted) break;
      const from = known[chat.chatId];
      if (!chat.lastId || chat.lastId === from) continue;
      if (first && !chat.unread) {
        known[chat.chatId] = chat.lastId;
        dirty = true;
        continue;
      }
      const items = await readNew(call, chat, from, first);
      const events: ParsedEvent[] = items.map((m) => historyEvent(chat.chatId, m));
      if (events.some((e) => e.kind !== 'ignored')) await session.receive(events);
      let newest = items.map(idOfItem).reduce<string | undefined>((a, b) => (isAfter(b, a) ? b : a), from);
      // Nothing newer in the history (a removed message), or a chat read back: it stands at its last message.
      if (!items.length || from === undefined) newest = isAfter(chat.lastId, newest) ? chat.lastId : newest;
      if (newest === undefined || newest === from) continue;
      known[chat.chatId] = newest;
      if (!items.length) {
        dirty = true;
        continue;
      }
      if (!(await save())) return { againInMs: 0 };
      dirty = false;
    }
    if (dirty && !(await save())) return { againInMs: 0 };
    return { againInMs: OZON_POLL.intervalMs };
  } catch (err) {
    return afterFailedPass(session, err, failures, (n) =>
      stored ? save({ failures: n }) : Promise.resolve(),
    );
  }
}

/**
 * The chat's messages after `from`, oldest first: `Forward` pages from the stored id, or, for a chat never seen,
 * one `Backward` page from the newest (only its unread messages on the channel's first pass).
 */
async function readNew(
  call: <T>(path: string, body: Record<string, unknown>) => Promise<T>,
  chat: Chat,
  from: string | undefined,
  first: boolean,
): Promise<unknown[]> {
  const byId = (a: unknown, b: unknown) => {
    const x = idOrder(idOfItem(a)) ?? 0n;
    const y = idOrder(idOfItem(b)) ?? 0n;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  if (from === undefined) {
    const limit = first ? Math.min(Math.max(chat.unread, 1), OZON_POLL.backfill) : OZON_POLL.backfill;
    const got = await call<HistoryAnswer>('/v3/chat/history', {
      chat_id: chat.chatId,
      direction: 'Backward',
      limit,
    });
    return [...(got.messages ?? [])].sort(byId);
  }
  const out: unknown[] = [];
  let after = from;
  for (let i = 0; i < OZON_POLL.historyPagesMax; i++) {
    const got = await call<HistoryAnswer>('/v3/chat/history', {
      chat_id: chat.chatId,
      direction: 'Forward',
      // A string: a JavaScript number would round a 64-bit id (§3).
      from_message_id: after,
      limit: OZON_POLL.historyLimit,
    });
    const page = (got.messages ?? []).filter((m) => isAfter(idOfItem(m), after)).sort(byId);
    out.push(...page);
    const last = page.at(-1);
    if (got.has_next !== true || !last) break;
    after = idOfItem(last);
  }
  return out;
}
