import { afterFailedPass, PollFailure } from '../long-poll.ts';
import type { AdapterChannel, AdapterContext, ParsedEvent, PollSession } from '../types.ts';
import { type AvitoChat, callAvito, credsOf } from './api.ts';
import { rememberChat } from './chat.ts';
import { avitoMessage } from './parse.ts';

/** docs/providers/avito.md "Retries, ordering, delivery guarantees" and "Errors and limits": the reconciling poll. */
export const AVITO_POLL = {
  /** The webhook brings messages at once; this pass only catches what it missed, so every 2 minutes is enough. */
  intervalMs: 120_000,
  /** Chats per list page (its maximum). */
  listLimit: 100,
  /** The list's `offset` stops at 1000 (so about 1,100 chats are reachable). */
  offsetMax: 1_000,
  /** Messages read of a changed chat (its maximum; the newest, by our sort). */
  historyLimit: 100,
  /** Messages up to this much older than the position are read again (clocks, a chat listed twice in a second). */
  graceSeconds: 300,
} as const;

type ListedChat = AvitoChat & { updated?: unknown };
type Message = Record<string, unknown> & { created?: unknown; id?: unknown };
/** The poll's cursor: the newest chat `updated` (Unix seconds) read, and the failures in a row. */
type Cursor = { since?: number; failures?: number };

const secondsOf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * One reconciling pass (the brief: Avito documents no retries or ordering for its webhook, and integrations keep a
 * fallback poller): lists the account's customer chats (u2i and u2u, every page up to Avito's offset limit) and reads
 * the messages of those updated since the last pass, handing the customer's to ingest, which stores each Avito id
 * once (the webhook usually got there first). The first pass only notes where the chats stand (connecting does not
 * import the account's past). The position moves on once the messages read are committed.
 *
 * A refused token is the channel's problem (tried again 5 minutes later); a 429 waits as long as Avito says (api.ts:
 * a minute when it says nothing); network failures and 5xx back off from 1 s doubling to a minute and are the
 * channel's 'unreachable' problem only once they last. Nothing read is lost: the position stays where it was.
 */
export async function pollAvito(
  ctx: AdapterContext,
  channel: AdapterChannel,
  session: PollSession,
): Promise<{ againInMs: number }> {
  const cursor = session.cursor as Cursor;
  const failures = Number(cursor.failures) || 0;
  const since = typeof cursor.since === 'number' ? cursor.since : undefined;
  const own = String(channel.settings.userId ?? '');
  const call = async <T>(path: string): Promise<T> => {
    const got = await callAvito<T>(ctx, channel.id, credsOf(channel), path).catch((err: Error) => {
      throw new PollFailure(err.message);
    });
    if (got.ok) return got.result;
    throw new PollFailure(got.message, got.tokenRefused === true, got.retryAfterMs ?? 0);
  };
  try {
    const chats: ListedChat[] = [];
    for (let offset = 0; offset <= AVITO_POLL.offsetMax && !session.signal.aborted; ) {
      const page = await call<{ chats?: ListedChat[] }>(
        `/messenger/v2/accounts/${own}/chats?chat_types=u2i,u2u&limit=${AVITO_POLL.listLimit}&offset=${offset}`,
      );
      if (offset === 0) await session.working();
      const got = Array.isArray(page.chats) ? page.chats : [];
      chats.push(...got);
      if (got.length < AVITO_POLL.listLimit) break;
      offset += got.length;
    }
    const newest = chats.reduce((max, c) => Math.max(max, secondsOf(c.updated)), since ?? 0);
    if (since === undefined) {
      // Avito's clock, as its chats tell it; our own when the account has no chat yet.
      const start = newest || Math.floor(Date.now() / 1000);
      return (await session.saveCursor({ since: start, failures: 0 }))
        ? { againInMs: AVITO_POLL.intervalMs }
        : { againInMs: 0 };
    }
    for (const chat of chats) {
      if (session.signal.aborted) return { againInMs: 0 };
      if (typeof chat.id !== 'string' || !chat.id || secondsOf(chat.updated) < since) continue;
      // The list carries the customer and the listing: no chat read for the names and topics of what follows.
      rememberChat(channel.id, chat, own);
      const answer = await call<Message[] | { messages?: Message[] }>(
        `/messenger/v3/accounts/${own}/chats/${encodeURIComponent(chat.id)}/messages/?limit=${AVITO_POLL.historyLimit}`,
      );
      // The document says an array; clients in the wild read `{messages: [...]}` (the brief: accept both).
      const listed = (Array.isArray(answer) ? answer : (answer.messages ?? [])).filter(
        (m) => m && typeof m === 'object',
      );
      // The order is not documented: oldest first, as they were written. Within one second only the list's order
      // tells, read as newest first unless its ends say otherwise.
      const newestFirst = secondsOf(listed[0]?.created) >= secondsOf(listed.at(-1)?.created);
      const messages = (newestFirst ? listed.reverse() : listed)
        .filter((m) => secondsOf(m.created) >= since - AVITO_POLL.graceSeconds)
        .sort((a, b) => secondsOf(a.created) - secondsOf(b.created));
      const events: ParsedEvent[] = messages.flatMap((m) =>
        avitoMessage(channel, { ...m, chat_id: chat.id }),
      );
      if (events.some((e) => e.kind !== 'ignored')) await session.receive(events);
    }
    const saved = await session.saveCursor({ since: newest, failures: 0 });
    return { againInMs: saved ? AVITO_POLL.intervalMs : 0 };
  } catch (err) {
    return afterFailedPass(session, err, failures, (n) => session.saveCursor({ ...cursor, failures: n }));
  }
}
