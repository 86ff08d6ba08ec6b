import { timingSafeEqual } from 'node:crypto';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { randomToken } from '../../lib/crypto.ts';
import type { AdapterChannel, AdapterContext, Connected, RawRequest } from '../types.ts';
import {
  type AvitoSelf,
  type Creds,
  callAvito,
  credsOf,
  forgetToken,
  rememberToken,
  takeToken,
} from './api.ts';

const refusal = (reason: 'unreachable' | 'token' | 'webhook', provider?: string) =>
  new AppError('channelCreationException', undefined, { reason, ...(provider ? { provider } : {}) });

/**
 * Our webhook's address. Avito signs nothing we can check (brief "Signature or secret: none is documented"), so the
 * URL carries an unguessable key we generate (`?key=`), kept in the channel's secrets and checked by `verifyAvito`.
 */
const webhookUrl = (ctx: AdapterContext, channelId: string, key: string) =>
  `${ctx.publicUrl.replace(/\/$/, '')}/api/webhooks/avito/${channelId}?key=${encodeURIComponent(key)}`;

/**
 * Takes a token with the client credentials (refused: both fields' 'Incorrect token/ID specified'), reads the
 * account (accounts/self: its id is the user_id of every Messenger path; an edited channel keeps its account), and
 * subscribes our webhook (POST /messenger/v3/webhook). The webhook key is generated once and kept across edits.
 */
export async function connectAvito(
  ctx: AdapterContext,
  channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const clientId = (input.clientId as string | undefined) ?? current?.secrets.clientId;
  const clientSecret = (input.clientSecret as string | undefined) ?? current?.secrets.clientSecret;
  if (!clientId) throw new AppError('validationException', { clientId: M.tokenIncorrect });
  if (!clientSecret) throw new AppError('validationException', { clientSecret: M.tokenIncorrect });
  const creds: Creds = { clientId, clientSecret };
  const unreachable = () => {
    throw refusal('unreachable');
  };
  const token = await takeToken(ctx, creds).catch(unreachable);
  if (!token.ok) {
    if (token.tokenRefused)
      throw new AppError('validationException', {
        clientId: M.tokenIncorrect,
        clientSecret: M.tokenIncorrect,
      });
    throw refusal('unreachable', token.message);
  }
  rememberToken(channel.id, creds, token.result.token, token.result.expiresIn);
  const self = await callAvito<AvitoSelf>(ctx, channel.id, creds, '/core/v1/accounts/self').catch(
    unreachable,
  );
  if (!self.ok) {
    // 403 here: the account lacks the Messenger subscription tier or the key is an employee's (brief "Who can use it").
    throw self.retryable ? refusal('unreachable', self.message) : refusal('token', self.message);
  }
  const userId = self.result.id != null ? String(self.result.id) : '';
  if (!/^\d+$/.test(userId)) throw refusal('token', 'accounts/self named no account id');
  const currentUser = current?.settings.userId as string | undefined;
  if (currentUser && currentUser !== userId)
    throw new AppError('tokenNotFromCurrentBotException', { clientId: M.tokenNotFromCurrentBot });
  const webhookKey = current?.secrets.webhookKey || randomToken();
  const sub = await callAvito<{ ok?: boolean }>(ctx, channel.id, creds, '/messenger/v3/webhook', {
    json: { url: webhookUrl(ctx, channel.id, webhookKey) },
  }).catch(unreachable);
  if (!sub.ok) throw sub.retryable ? refusal('unreachable', sub.message) : refusal('webhook', sub.message);
  return {
    settings: {
      userId,
      name: self.result.name ?? null,
      profileUrl: self.result.profile_url ?? null,
    },
    secrets: { clientId, clientSecret, webhookKey },
  };
}

/** Unsubscribes our webhook (POST /messenger/v1/webhook/unsubscribe), best effort: a refusal is only logged. */
export async function disconnectAvito(ctx: AdapterContext, channel: AdapterChannel): Promise<void> {
  const key = channel.secrets.webhookKey;
  if (key) {
    const res = await callAvito(ctx, channel.id, credsOf(channel), '/messenger/v1/webhook/unsubscribe', {
      json: { url: webhookUrl(ctx, channel.id, key) },
    });
    forgetToken(channel.id);
    if (!res.ok) throw new Error(`Avito webhook unsubscribe refused: ${res.message}`);
  }
}

/** A webhook request is the channel's when it carries the key of the URL we registered (constant time). */
export function verifyAvito(channel: AdapterChannel, req: RawRequest): boolean {
  const given = req.query.key;
  const key = channel.secrets.webhookKey ?? '';
  if (typeof given !== 'string' || !key) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}
