import type { TgUpdate } from './telegram-updates.ts';

/**
 * The Bot API's getUpdates (https://core.telegram.org/bots/api#getupdates) over a queue of updates the bot has not
 * confirmed yet, as documented:
 * - `offset`: updates with a lower update_id are confirmed and forgotten; a negative offset keeps only the last
 *   -offset updates; without it the earliest unconfirmed update comes first.
 * - `limit` 1-100 (default 100), `timeout` in seconds (default 0: short polling); a long poll is answered as soon as
 *   an update arrives.
 * - `allowed_updates`: the kinds of updates wanted, kept for later calls when not given again; updates of other
 *   kinds are not queued.
 * - 409 'Conflict: can't use getUpdates method while webhook is active' while a webhook is set; a request still
 *   waiting is answered 409 'Conflict: terminated by other getUpdates request' when another one comes, and
 *   'Conflict: terminated by setWebhook request' when a webhook is set.
 */
export type UpdateQueue = {
  push(update: TgUpdate): void;
  /** The updates not confirmed yet. */
  readonly pending: readonly TgUpdate[];
  /** Whether a getUpdates call is waiting for updates now (a long poll in progress). */
  readonly waiting: boolean;
  /** A webhook was set: a getUpdates still waiting is answered 409 'Conflict: terminated by setWebhook request'. */
  webhookSet(): void;
  getUpdates(
    params: Record<string, unknown>,
    webhookSet: boolean,
    /** Called when the caller hung up: the long poll stops waiting. */
    onHangUp: (stop: () => void) => void,
  ): Promise<PollAnswer>;
};
export type PollAnswer =
  | { ok: true; result: TgUpdate[] }
  | { ok: false; status: number; description: string; malformed?: string };

const KINDS = [
  'message',
  'edited_message',
  'channel_post',
  'edited_channel_post',
  'business_connection',
  'business_message',
  'edited_business_message',
  'deleted_business_messages',
  'message_reaction',
  'message_reaction_count',
  'inline_query',
  'chosen_inline_result',
  'callback_query',
  'shipping_query',
  'pre_checkout_query',
  'purchased_paid_media',
  'poll',
  'poll_answer',
  'my_chat_member',
  'chat_member',
  'chat_join_request',
  'chat_boost',
  'removed_chat_boost',
];
/** Telegram's default leaves these out unless asked for by name. */
const NOT_BY_DEFAULT = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

const intParam = (value: unknown): number | null | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(n) ? n : null;
};

export function createUpdateQueue(): UpdateQueue {
  let pending: TgUpdate[] = [];
  let allowed: Set<string> | null = null;
  let waiter: { answer: (a: PollAnswer) => void } | null = null;
  const kindOf = (u: TgUpdate) => KINDS.find((k) => k in u) ?? 'unknown';
  const wanted = (u: TgUpdate) => {
    const kind = kindOf(u);
    return allowed ? allowed.has(kind) : !NOT_BY_DEFAULT.has(kind);
  };
  return {
    push(update) {
      if (!wanted(update)) return;
      pending.push(update);
      pending.sort((a, b) => a.update_id - b.update_id);
      waiter?.answer({ ok: true, result: pending.slice(0, 100) });
    },
    get pending() {
      return pending;
    },
    get waiting() {
      return waiter !== null;
    },
    webhookSet() {
      waiter?.answer({ ok: false, status: 409, description: 'Conflict: terminated by setWebhook request' });
    },
    async getUpdates(params, webhookSet, onHangUp) {
      if (webhookSet)
        return {
          ok: false,
          status: 409,
          description:
            "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        };
      const offset = intParam(params.offset);
      const limitParam = intParam(params.limit);
      const timeout = intParam(params.timeout);
      if (offset === null || limitParam === null || timeout === null)
        return {
          ok: false,
          status: 400,
          description: 'Bad Request: invalid parameters',
          malformed: 'getUpdates with a non-integer offset, limit or timeout',
        };
      if (params.allowed_updates !== undefined) {
        let list = params.allowed_updates;
        if (typeof list === 'string') {
          try {
            list = JSON.parse(list);
          } catch {
            return { ok: false, status: 400, description: "Bad Request: can't parse allowed updates" };
          }
        }
        if (!Array.isArray(list) || !list.every((k) => typeof k === 'string'))
          return {
            ok: false,
            status: 400,
            description: "Bad Request: can't parse allowed updates",
            malformed: 'allowed_updates is not an array of strings',
          };
        // An empty list means every kind but the ones left out by default.
        allowed = list.length ? new Set(list as string[]) : null;
      }
      if (offset !== undefined)
        pending = offset < 0 ? pending.slice(offset) : pending.filter((u) => u.update_id >= offset);
      const limit = Math.min(Math.max(limitParam ?? 100, 1), 100);
      // A newer request ends the one still waiting.
      waiter?.answer({
        ok: false,
        status: 409,
        description:
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      });
      if (pending.length || !timeout || timeout <= 0) return { ok: true, result: pending.slice(0, limit) };
      return new Promise<PollAnswer>((resolve) => {
        const timer = setTimeout(() => me.answer({ ok: true, result: [] }), Math.min(timeout, 50) * 1000);
        const me = {
          answer: (a: PollAnswer) => {
            clearTimeout(timer);
            if (waiter === me) waiter = null;
            resolve(a.ok ? { ok: true, result: a.result.slice(0, limit) } : a);
          },
        };
        waiter = me;
        onHangUp(() => {
          clearTimeout(timer);
          if (waiter === me) waiter = null;
        });
      });
    },
  };
}
