import { cursorSaver, LONG_POLL_HOLD_S, pollHealth, REFUSED_AGAIN_MS } from '../long-poll.ts';
import type { AdapterChannel, AdapterContext, ParsedEvent, PollSession } from '../types.ts';
import { VK_ERROR } from '../vk_bot/api.ts';
import { parseVkEvent } from '../vk_bot/parse.ts';
import { type LongPollServer, longPollServer } from './connect.ts';

/** A Long Poll answer's size bound: VK sends at most a few hundred events a request. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** What a Long Poll server answers (https://dev.vk.com/ru/api/bots-long-poll/getting-started). */
type Check = { ts?: unknown; updates?: unknown; failed?: unknown };

/**
 * One session of the Bots Long Poll API: gets the community's Long Poll server and key (groups.getLongPollServer),
 * then asks it for events after the stored `ts` (`act=a_check`), acts on each answer's events as on Callback API
 * requests and only then stores the new `ts` (at most once a second: cursorSaver), until the session ends. A crash
 * reads the events after the stored `ts` again; ingest dedupes them. VK's own failures: `failed: 1` (some history
 * lost) goes on from the `ts` it gives, `failed: 2` (the key expired) gets a new key and keeps `ts`, `failed: 3`
 * (everything lost) starts over from the new server's `ts`. The key is kept only in memory (a session starts with a new one); the cursor holds `ts`.
 */
export async function pollVk(
  ctx: AdapterContext,
  channel: AdapterChannel,
  session: PollSession,
): Promise<{ againInMs: number }> {
  const token = channel.secrets.token ?? '';
  const groupId = String(channel.settings.groupId ?? '');
  let ts = typeof session.cursor.ts === 'string' ? session.cursor.ts : undefined;
  let server: Omit<LongPollServer, 'ts'> | null = null;
  const health = pollHealth(session);
  const saver = cursorSaver(session);
  // The first request of a session answers at once (a problem ends as soon as VK answers); the next ones wait.
  let wait = 0;
  try {
    while (!session.signal.aborted) {
      if (!server) {
        const got = await longPollServer(ctx, token, groupId).catch((err: Error) => err);
        if (session.signal.aborted) break;
        if (got instanceof Error) {
          await health.failed(`groups.getLongPollServer: ${got.message}`);
          continue;
        }
        if (!got.ok) {
          if (got.code === VK_ERROR.authFailed || got.httpStatus === 401) {
            await session.problem('token_refused', `${got.code}: ${got.message}`);
            return { againInMs: REFUSED_AGAIN_MS };
          }
          // Long Poll turned off in the community's settings, rights taken away, VK's limits: tried again.
          await health.failed(`groups.getLongPollServer: ${got.code}: ${got.message}`);
          continue;
        }
        server = { server: got.result.server, key: got.result.key };
        ts ??= String(got.result.ts);
      }
      const url = new URL(server.server);
      url.searchParams.set('act', 'a_check');
      url.searchParams.set('key', server.key);
      url.searchParams.set('ts', ts ?? '');
      url.searchParams.set('wait', String(wait));
      let answer: Check;
      try {
        const res = await ctx.outbound.fetch(url.toString(), {
          heldMs: wait * 1000,
          signal: session.signal,
          maxBytes: MAX_ANSWER_BYTES,
        });
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        answer = JSON.parse(res.body.toString('utf8')) as Check;
        if (!answer || typeof answer !== 'object') throw new Error('not an object');
      } catch (err) {
        if (session.signal.aborted) break;
        await health.failed(`Long Poll: ${(err as Error).message}`);
        continue;
      }
      wait = LONG_POLL_HOLD_S;
      await health.answered();
      if (answer.failed !== undefined) {
        const code = Number(answer.failed);
        if (code === 1 && answer.ts !== undefined) ts = String(answer.ts);
        else if (code === 2) server = null;
        else {
          server = null;
          ts = undefined;
        }
        continue;
      }
      const updates = Array.isArray(answer.updates) ? answer.updates : [];
      if (updates.length) {
        const events: ParsedEvent[] = updates.flatMap((u) => parseVkEvent(u));
        await session.receive(events);
      }
      if (answer.ts === undefined) throw new Error('Long Poll answered without ts');
      const next = String(answer.ts);
      if (next !== ts) {
        ts = next;
        if (!(await saver.save({ ...session.cursor, ts }))) break;
      }
    }
    return { againInMs: 0 };
  } finally {
    await saver.flush();
  }
}
