import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import { creationRefusal } from '../marketplace.ts';
import type { AdapterChannel, AdapterContext, Connected } from '../types.ts';
import { callYaMarket } from './api.ts';

/**
 * Checks the Api-Key and the business id with the cheapest chat call that needs both (docs/providers/yandex-market.md
 * §2.1: the chat list with `limit=1`; `POST /v2/auth/token` knows no business and allows 100 calls an hour): 401 is
 * the key's field error, 403 (a key not valid, without the chat scope, or not of this cabinet: Market does not tell
 * them apart, §7) both fields', 404 the business id's; a rate limit, 5xx or no answer is channelCreationException.
 * Nothing is registered at Market (the job runner polls the chats; there is no API to register a notification
 * address, §6.1): the seller enters the address push.ts describes, whose key is made here on creation and shown once
 * (`inboundKey`). The Api-Key is kept as a secret.
 */
export async function connectYaMarket(
  ctx: AdapterContext,
  _channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const businessId =
    (input.businessId as string | undefined) ?? (current?.settings.businessId as string | undefined);
  const apiKey = (input.apiKey as string | undefined) ?? current?.secrets.apiKey;
  if (!businessId || !apiKey)
    throw new AppError('validationException', {
      ...(businessId ? {} : { businessId: M.tokenIncorrect }),
      ...(apiKey ? {} : { apiKey: M.tokenIncorrect }),
    });
  const got = await callYaMarket(
    ctx,
    { businessId, apiKey },
    { method: 'POST', path: '/chats', query: { limit: 1 }, body: {} },
  ).catch(() => {
    throw creationRefusal('unreachable');
  });
  if (!got.ok) {
    if (got.status === 401) throw new AppError('validationException', { apiKey: M.tokenIncorrect });
    if (got.status === 403)
      throw new AppError('validationException', { apiKey: M.tokenIncorrect, businessId: M.tokenIncorrect });
    if (got.status === 404) throw new AppError('validationException', { businessId: M.tokenIncorrect });
    throw creationRefusal(got.retryable ? 'unreachable' : 'token', got.message);
  }
  if (current) return { settings: { businessId }, secrets: { apiKey } };
  const inboundKey = randomToken();
  return {
    settings: { businessId },
    secrets: { apiKey },
    shownOnce: { inboundKey },
    inboundKeyHash: hashToken(inboundKey),
  };
}
