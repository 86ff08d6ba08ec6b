import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import { creationRefusal } from '../marketplace.ts';
import type { AdapterChannel, AdapterContext, Connected } from '../types.ts';
import { callOzon } from './api.ts';

const refusal = creationRefusal;

/**
 * Checks the seller's Client-Id and Api-Key with the cheapest documented chat call (docs/providers/ozon.md §1:
 * `/v3/chat/list` with `limit: 1`): 401/403 is the field error on both fields (Ozon does not say which one is wrong);
 * no answer is channelCreationException. Nothing is registered at Ozon (the job runner polls the chats): push
 * notifications are set up by the seller in the Ozon cabinet (§6.1) with the address push.ts describes, whose key is
 * made here on creation and shown once (`inboundKey`). The Api-Key is kept as a secret.
 */
export async function connectOzon(
  ctx: AdapterContext,
  _channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const clientId =
    (input.clientId as string | undefined) ?? (current?.settings.clientId as string | undefined);
  const apiKey = (input.apiKey as string | undefined) ?? current?.secrets.apiKey;
  if (!clientId || !apiKey)
    throw new AppError('validationException', {
      ...(clientId ? {} : { clientId: M.tokenIncorrect }),
      ...(apiKey ? {} : { apiKey: M.tokenIncorrect }),
    });
  const got = await callOzon(ctx, { clientId, apiKey }, '/v3/chat/list', { limit: 1 }).catch(() => {
    throw refusal('unreachable');
  });
  if (!got.ok) {
    if (got.refused)
      throw new AppError('validationException', { clientId: M.tokenIncorrect, apiKey: M.tokenIncorrect });
    throw refusal(got.retryable ? 'unreachable' : 'token', got.message);
  }
  if (current) return { settings: { clientId }, secrets: { apiKey } };
  const inboundKey = randomToken();
  return {
    settings: { clientId },
    secrets: { apiKey },
    shownOnce: { inboundKey },
    inboundKeyHash: hashToken(inboundKey),
  };
}
