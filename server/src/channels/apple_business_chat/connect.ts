import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { AdapterChannel, AdapterContext, Connected, RawRequest } from '../types.ts';
import { callApple, credsOf, jwtValid, keyOf } from './api.ts';

const refusal = (reason: 'unreachable' | 'token', provider?: string) =>
  new AppError('channelCreationException', undefined, { reason, ...(provider ? { provider } : {}) });

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Checks the business id, MSP id and secret with the gateway. Apple has no "who am I" call: GET /preUpload (one
 * byte) needs a valid JWT and business id and sends nothing to anyone (brief "Checking credentials"). Refused (401,
 * 403): the three fields are 'Incorrect token/ID specified'; an edited channel keeps its business (its clients' ids
 * are that business's): another one is 'token not from current bot'. Our webhook is entered at Apple Business
 * Register by the business, not registered by a call: the channel page shows its address.
 */
export async function connectApple(
  ctx: AdapterContext,
  _channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const businessId = (input.businessId as string | undefined) ?? String(current?.settings.businessId ?? '');
  const mspId = (input.mspId as string | undefined) ?? String(current?.settings.mspId ?? '');
  const secret = (input.secret as string | undefined) ?? current?.secrets.secret ?? '';
  if (!businessId) throw new AppError('validationException', { businessId: M.tokenIncorrect });
  if (!mspId) throw new AppError('validationException', { mspId: M.tokenIncorrect });
  if (!BASE64.test(secret) || !keyOf(secret).length)
    throw new AppError('validationException', { secret: M.tokenIncorrect });
  const currentBusiness = current?.settings.businessId;
  if (currentBusiness && currentBusiness !== businessId)
    throw new AppError('tokenNotFromCurrentBotException', { businessId: M.tokenNotFromCurrentBot });
  const check = await callApple(ctx, { businessId, mspId, secret }, '/preUpload', {
    headers: { 'mmcs-size': '1' },
  }).catch(() => {
    throw refusal('unreachable');
  });
  if (!check.ok) {
    if (check.tokenRefused)
      throw new AppError('validationException', {
        businessId: M.tokenIncorrect,
        mspId: M.tokenIncorrect,
        secret: M.tokenIncorrect,
      });
    throw check.retryable ? refusal('unreachable', check.message) : refusal('token', check.message);
  }
  return { settings: { businessId, mspId }, secrets: { secret } };
}

/** Nothing to undo at Apple: the webhook address lives in the business's Apple Business Register account. */
export const disconnectApple = async () => undefined;

const header = (req: RawRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * A request is Apple's for this channel when its Authorization is a JWT signed with the channel's secret for its
 * MSP id (api.ts jwtValid) and it is addressed to the channel's business (destination-id, as integrations check).
 */
export function verifyApple(channel: AdapterChannel, req: RawRequest): boolean {
  const creds = credsOf(channel);
  const auth = header(req, 'authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(auth.trim());
  if (!match?.[1] || !jwtValid(match[1], creds)) return false;
  return header(req, 'destination-id') === creds.businessId;
}
