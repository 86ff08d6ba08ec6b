import {
  cursorSaver,
  LONG_POLL_HOLD_S,
  NOT_POLLED_IDLE_MS,
  pause,
  pollHealth,
  REFUSED_AGAIN_MS,
} from '../long-poll.ts';
import type { AdapterChannel, AdapterContext, ParsedEvent, PollSession } from '../types.ts';
import { type BotAnswer, callBot } from './bot-api.ts';
import { ALLOWED_UPDATES } from './connect.ts';
import { parseTelegramUpdate } from './parse.ts';

/**
 * getUpdates long polling (https://core.telegram.org/bots/api#getupdates), for a channel whose updates come by
 * polling (`updatesVia: 'polling'`: an installation without a public address). Telegram holds each request open
 * until an update arrives or `timeout` seconds pass.
 */
export const TELEGRAM_POLL = {
  /** Updates per request: a batch is committed before the next is asked for. */
  limit: 20,
  /** An answer of 20 updates stays far below this (a message is at most 4096 characters). */
  maxAnswerBytes: 8 * 1024 * 1024,
  /** After a 409 conflict, the claim is looked at this much later (an edit taking the channel to webhooks settles). */
  conflictWaitMs: 1_000,
} as const;

type Update = { update_id?: unknown };

const cursorOf = (offset: number | undefined, session: PollSession) =>
  offset === undefined ? session.cursor : { ...session.cursor, offset };

/**
 * One session: asks for the updates after the stored offset, hands each batch to ingest and only then moves the
 * offset past it (the next request confirms the batch to Telegram), until the session ends. The offset is stored at
 * most once a second (cursorSaver); after a crash Telegram sends again what was not confirmed, which ingest dedupes. A webhook set meanwhile (by another program, or left over) is deleted, since this
 * channel reads by polling; a refused token is the channel's problem; 429 waits as Telegram says; network failures
 * and 5xx back off and go on.
 */
export async function pollTelegram(
  ctx: AdapterContext,
  channel: AdapterChannel,
  session: PollSession,
): Promise<{ againInMs: number }> {
  if (channel.settings.updatesVia !== 'polling') return { againInMs: NOT_POLLED_IDLE_MS };
  const token = channel.secrets.token ?? '';
  let offset = typeof session.cursor.offset === 'number' ? session.cursor.offset : undefined;
  const health = pollHealth(session);
  const saver = cursorSaver(session);
  // The first request of a session answers at once (what waits, and whether the token still works: a problem
  // ends as soon as Telegram answers); the next ones are long polls.
  let hold = 0;
  try {
    while (!session.signal.aborted) {
      let res: BotAnswer<unknown>;
      try {
        res = await callBot<unknown>(
          ctx,
          token,
          'getUpdates',
          {
            ...(offset !== undefined ? { offset } : {}),
            limit: TELEGRAM_POLL.limit,
            timeout: hold,
            allowed_updates: ALLOWED_UPDATES,
          },
          { heldMs: hold * 1000, signal: session.signal, maxBytes: TELEGRAM_POLL.maxAnswerBytes },
        );
      } catch (err) {
        if (session.signal.aborted) break;
        await health.failed(`getUpdates: ${(err as Error).message}`);
        continue;
      }
      if (!res.ok) {
        if (res.status === 401 || res.status === 404) {
          await session.problem('token_refused', res.description);
          return { againInMs: REFUSED_AGAIN_MS };
        }
        if (res.status === 429 && res.retryAfter) {
          await pause(res.retryAfter * 1000, session.signal);
          continue;
        }
        if (res.status === 409) {
          // A webhook set, or another getUpdates: when the channel changed meanwhile (it takes a webhook now, was
          // deactivated) or another instance took its poll over, this session has lost its claim and simply ends.
          // The claim is looked at a moment later: an edit sets the webhook just before it takes the claim back.
          await pause(TELEGRAM_POLL.conflictWaitMs, session.signal);
          if (session.signal.aborted || !(await saver.save(cursorOf(offset, session), true))) break;
          // This channel polls: the webhook (another program's, or left over) goes.
          if (/webhook/i.test(res.description)) {
            const deleted = await callBot<boolean>(ctx, token, 'deleteWebhook').catch(() => null);
            if (deleted?.ok) continue;
          }
        }
        // 5xx, or 409 'terminated by other getUpdates request': another program reads this bot's updates.
        await health.failed(`getUpdates: ${res.description}`);
        continue;
      }
      hold = LONG_POLL_HOLD_S;
      await health.answered();
      const updates: Update[] = Array.isArray(res.result) ? res.result : [];
      if (!updates.length) continue;
      const events: ParsedEvent[] = updates.flatMap((u) => parseTelegramUpdate(u));
      await session.receive(events);
      const ids = updates.map((u) => u.update_id).filter((id): id is number => Number.isSafeInteger(id));
      // An answer of updates without a single id cannot be confirmed: asked again, it would come back forever.
      if (!ids.length) throw new Error('getUpdates answered updates without update_id');
      offset = Math.max(...ids) + 1;
      if (!(await saver.save(cursorOf(offset, session)))) break;
    }
    return { againInMs: 0 };
  } finally {
    await saver.flush();
  }
}
