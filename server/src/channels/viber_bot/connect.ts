import { createHmac, timingSafeEqual } from 'node:crypto';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../http/errors.ts';
import type { AdapterChannel, AdapterContext, Connected, RawRequest } from '../types.ts';
import { callViber, VIBER_STATUS } from './api.ts';

const refusal = (reason: 'unreachable' | 'token' | 'webhook', provider?: string) =>
  new AppError('channelCreationException', undefined, { reason, ...(provider ? { provider } : {}) });

/** The callbacks we act on (Viber always sends subscribed, unsubscribed, conversation_started, webhook and message). */
const EVENT_TYPES = ['delivered', 'seen', 'failed', 'subscribed', 'unsubscribed', 'conversation_started'];

/**
 * Checks the token with get_account_info (a refused one is 'Incorrect token/ID specified'; on an edited channel, one
 * of another bot is 'token not from current bot').
 */
export async function connectViberBot(
  ctx: AdapterContext,
  channel: { id: string; organisationId: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const token = (input.token as string | undefined) ?? current?.secrets.token;
  if (!token) throw new AppError('validationException', { token: M.tokenIncorrect });
  const info = await callViber<{ id?: string; name?: string; uri?: string }>(
    ctx,
    token,
    'get_account_info',
  ).catch(() => {
    throw refusal('unreachable');
  });
  if (!info.ok) {
    if (info.status === VIBER_STATUS.invalidAuthToken || info.httpStatus === 401)
      throw new AppError('validationException', { token: M.tokenIncorrect });
    throw refusal('token', info.message);
  }
  // §8 'token not from current bot': an edited channel keeps its bot (its subscribers and chats are that bot's).
  const currentBot = current?.settings.accountId;
  if (currentBot != null && currentBot !== (info.result.id ?? null))
    throw new AppError('tokenNotFromCurrentBotException', { token: M.tokenNotFromCurrentBot });
  const welcome =
    input.welcomeMessage !== undefined ? input.welcomeMessage : current?.settings.welcomeMessage;
  const photo =
    input.photo !== undefined
      ? await checkedPhoto(ctx, channel.organisationId, input.photo)
      : (current?.settings.photo ?? null);
  return {
    settings: {
      accountId: info.result.id ?? null,
      name: info.result.name ?? null,
      uri: info.result.uri ?? null,
      welcomeMessage: typeof welcome === 'string' && welcome.trim() ? welcome.trim() : null,
      photo,
    },
    secrets: { token },
  };
}

/**
 * The bot's photo: one of the organisation's stored files, a JPEG by its content (§5 'Viber photo must be jpg'),
 * kept as its path; empty or null removes it.
 */
async function checkedPhoto(
  ctx: AdapterContext,
  organisationId: string,
  value: unknown,
): Promise<string | null> {
  if (value === null || value === '') return null;
  const url = String(value);
  const path = url.startsWith(`${ctx.publicUrl}/`) ? url.slice(ctx.publicUrl.length) : url;
  const file = path.startsWith('/api/files/') ? await ctx.readFile(organisationId, path) : null;
  if (!file) throw new AppError('validationException', { photo: M.valueIncorrect });
  if ((await fileTypeFromBuffer(file.data))?.mime !== 'image/jpeg')
    throw new AppError('validationException', { photo: M.jpegOnly });
  return path;
}

/** The photo's public URL, for send_message's sender.avatar. */
export const avatarOf = (ctx: { publicUrl: string }, settings: Record<string, unknown>) =>
  typeof settings.photo === 'string' && settings.photo ? `${ctx.publicUrl}${settings.photo}` : undefined;

/**
 * Sets our webhook (set_webhook) once the channel is stored: Viber calls it with event 'webhook' before it answers,
 * so the channel must already answer.
 */
export async function registerViberBot(ctx: AdapterContext, channel: AdapterChannel): Promise<void> {
  const hook = await callViber(ctx, channel.secrets.token ?? '', 'set_webhook', {
    url: `${ctx.publicUrl}/api/webhooks/viber_bot/${channel.id}`,
    event_types: EVENT_TYPES,
    send_name: true,
    send_photo: false,
  }).catch(() => {
    throw refusal('unreachable');
  });
  if (!hook.ok) throw refusal('webhook', hook.message);
}

/** Removes the webhook (set_webhook with an empty url). */
export async function disconnectViberBot(ctx: AdapterContext, channel: AdapterChannel): Promise<void> {
  const token = channel.secrets.token;
  if (!token) return;
  const res = await callViber(ctx, token, 'set_webhook', { url: '' });
  if (!res.ok) throw new Error(`set_webhook: ${res.message}`);
}

/** Every callback carries X-Viber-Content-Signature: HMAC-SHA256 (hex) of the raw body with the token. */
export function verifyViberBot(channel: AdapterChannel, req: RawRequest): boolean {
  const given = req.headers['x-viber-content-signature'] ?? req.query.sig;
  const token = channel.secrets.token;
  if (typeof given !== 'string' || !token) return false;
  const expected = createHmac('sha256', token).update(req.rawBody).digest('hex');
  const a = Buffer.from(given.toLowerCase());
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
