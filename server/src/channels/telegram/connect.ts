import { randomBytes, timingSafeEqual } from 'node:crypto';
import { addressTakesWebhooks, FIELD_MESSAGES as M, type TelegramUpdatesVia } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { AdapterChannel, AdapterContext, Connected, InboundEvent, RawRequest } from '../types.ts';
import { callBot } from './bot-api.ts';

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
/** The updates we act on; others (group joins, polls, ...) are not sent to us at all. */
export const ALLOWED_UPDATES = ['message', 'edited_message', 'callback_query', 'my_chat_member'];

/**
 * The provider said no (§8 'channel creation error'): `reason` is a code the web words in the user's language
 * (unreachable, token, webhook), `provider` the provider's own text for support.
 */
const refusal = (reason: 'unreachable' | 'token' | 'webhook', provider?: string) =>
  new AppError('channelCreationException', undefined, { reason, ...(provider ? { provider } : {}) });

/**
 * How a channel's updates come: as asked; else as before (channels made before polling existed used the webhook);
 * else, for a new channel, by webhook when our public address looks reachable from the internet, by polling when not.
 */
export const updatesViaOf = (
  ctx: AdapterContext,
  input: Record<string, unknown>,
  current?: AdapterChannel,
): TelegramUpdatesVia =>
  (input.updatesVia as TelegramUpdatesVia | undefined) ??
  (current
    ? ((current.settings.updatesVia as TelegramUpdatesVia | undefined) ?? 'webhook')
    : addressTakesWebhooks(ctx.publicUrl)
      ? 'webhook'
      : 'polling');

/**
 * Checks the bot token with getMe (a refused token is the field error 'Incorrect token/ID specified'; §5: the
 * bot's username must end in 'bot'), then registers our webhook with a secret of our own that every update must
 * carry, or, for a channel that polls, deletes any webhook (getUpdates refuses to work beside one). Re-run with the
 * stored token when the channel is activated again or its way of receiving changes.
 */
export async function connectTelegram(
  ctx: AdapterContext,
  channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const token = (input.token as string | undefined) ?? current?.secrets.token;
  if (!token) throw new AppError('validationException', { token: M.tokenIncorrect });
  const me = await callBot<{ id: number; username?: string; is_bot?: boolean }>(ctx, token, 'getMe').catch(
    () => {
      throw refusal('unreachable');
    },
  );
  if (!me.ok) {
    if (me.status === 401 || me.status === 404)
      throw new AppError('validationException', { token: M.tokenIncorrect });
    throw refusal('token', me.description);
  }
  // §8 'token not from current bot': an edited channel keeps its bot; its clients and chats belong to that bot.
  const currentBot = current?.settings.botId;
  if (currentBot != null && currentBot !== me.result.id)
    throw new AppError('tokenNotFromCurrentBotException', { token: M.tokenNotFromCurrentBot });
  const username = me.result.username ?? '';
  if (!username.toLowerCase().endsWith('bot'))
    throw new AppError('validationException', { token: M.botUsernameIncorrect });
  const secretToken = current?.secrets.secretToken ?? randomBytes(32).toString('base64url');
  const updatesVia = updatesViaOf(ctx, input, current);
  const settings = { botId: me.result.id, username, updatesVia };
  if (updatesVia === 'polling') {
    // Updates kept while no one read them stay: the first poll reads them.
    const deleted = await callBot<boolean>(ctx, token, 'deleteWebhook').catch(() => {
      throw refusal('unreachable');
    });
    if (!deleted.ok) throw refusal('webhook', deleted.description);
    return { settings, secrets: { token, secretToken } };
  }
  const hook = await callBot<boolean>(ctx, token, 'setWebhook', {
    url: `${ctx.publicUrl}/api/webhooks/telegram/${channel.id}`,
    secret_token: secretToken,
    allowed_updates: ALLOWED_UPDATES,
  }).catch(() => {
    throw refusal('unreachable');
  });
  if (!hook.ok) throw refusal('webhook', hook.description);
  return { settings, secrets: { token, secretToken } };
}

/** Lets go of the webhook (deactivated or deleted channel); Telegram then keeps updates for a while. */
export async function disconnectTelegram(ctx: AdapterContext, channel: AdapterChannel): Promise<void> {
  const token = channel.secrets.token;
  if (!token) return;
  const res = await callBot<boolean>(ctx, token, 'deleteWebhook');
  if (!res.ok) throw new Error(`deleteWebhook: ${res.description}`);
}

/** Every update carries our secret in X-Telegram-Bot-Api-Secret-Token. */
export function verifyTelegram(channel: AdapterChannel, req: RawRequest): boolean {
  const given = req.headers[SECRET_HEADER];
  const expected = channel.secrets.secretToken;
  if (typeof given !== 'string' || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A pressed button keeps spinning in the client until the press is answered: answer each once it is stored. */
export async function answerCallbacks(ctx: AdapterContext, channel: AdapterChannel, events: InboundEvent[]) {
  for (const e of events)
    if (e.kind === 'postback' && e.ackRef)
      await callBot(ctx, channel.secrets.token ?? '', 'answerCallbackQuery', { callback_query_id: e.ackRef });
}
