import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { hubChallenge, hubSignatureValid } from '../meta/graph.ts';
import type { AdapterChannel, AdapterContext, Connected, RawRequest } from '../types.ts';
import { connectBsp, verifyBsp } from './bsp.ts';
import { callGraph } from './cloud-api.ts';

const refusal = (reason: 'unreachable' | 'token' | 'webhook', provider?: string) =>
  new AppError('channelCreationException', undefined, { reason, ...(provider ? { provider } : {}) });

const SECRET_FIELDS = ['accessToken', 'appSecret', 'verifyToken'] as const;

/**
 * Checks the credentials with the phone number endpoint (GET /{phone-number-id}): an access token Meta refuses
 * (OAuthException 190, HTTP 401) is the accessToken field's error, an unknown phone number id (code 100) the
 * phoneNumberId field's. Then subscribes our Meta app to the WABA's webhooks (POST /{waba-id}/subscribed_apps;
 * an unknown WABA is the wabaId field's error). The callback URL and verify token are entered in the Meta app
 * (the guide says where); Meta checks them with GET /api/webhooks/whatsapp/{id}.
 */
export async function connectWhatsApp(
  ctx: AdapterContext,
  _channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  // The provider is chosen once: an edit cannot move a channel to the other one.
  const provider = current ? providerOf(current) : ((input.provider as string | undefined) ?? 'cloud');
  if (input.provider !== undefined && input.provider !== provider)
    throw new AppError('validationException', { provider: M.valueIncorrect });
  if (provider === 'bsp') return connectBsp(ctx, input, current);
  const phoneNumberId =
    (input.phoneNumberId as string | undefined) ?? (current?.settings.phoneNumberId as string);
  const wabaId = (input.wabaId as string | undefined) ?? (current?.settings.wabaId as string);
  const secrets: Record<string, string> = {};
  for (const f of SECRET_FIELDS) {
    const v = (input[f] as string | undefined) ?? current?.secrets[f];
    if (!v) throw new AppError('validationException', { [f]: M.tokenIncorrect });
    secrets[f] = v;
  }
  if (!phoneNumberId) throw new AppError('validationException', { phoneNumberId: M.tokenIncorrect });
  if (!wabaId) throw new AppError('validationException', { wabaId: M.tokenIncorrect });
  const token = secrets.accessToken as string;
  const phone = await callGraph<{ id: string; display_phone_number?: string; verified_name?: string }>(
    ctx,
    token,
    'GET',
    `/${phoneNumberId}?fields=display_phone_number,verified_name`,
  ).catch(() => {
    throw refusal('unreachable');
  });
  if (!phone.ok) {
    if (phone.status === 401 || phone.code === 190)
      throw new AppError('validationException', { accessToken: M.tokenIncorrect });
    if (phone.code === 100 || phone.status === 404)
      throw new AppError('validationException', { phoneNumberId: M.tokenIncorrect });
    throw refusal('token', phone.message);
  }
  const sub = await callGraph<{ success: boolean }>(ctx, token, 'POST', `/${wabaId}/subscribed_apps`).catch(
    () => {
      throw refusal('unreachable');
    },
  );
  if (!sub.ok) {
    if (sub.code === 100 || sub.status === 404)
      throw new AppError('validationException', { wabaId: M.tokenIncorrect });
    throw refusal('webhook', sub.message);
  }
  return {
    settings: {
      provider: 'cloud',
      phoneNumberId,
      wabaId,
      displayPhoneNumber: phone.result.display_phone_number ?? null,
      verifiedName: phone.result.verified_name ?? null,
    },
    secrets,
  };
}

/** Every POST carries Meta's X-Hub-Signature-256 made with the app secret. */
export const verifyWhatsApp = (channel: AdapterChannel, req: RawRequest): boolean =>
  providerOf(channel) === 'bsp' ? verifyBsp(channel, req) : hubSignatureValid(channel.secrets.appSecret, req);

/** Meta's subscription check with the verify token we chose. */
export const challengeWhatsApp = (channel: AdapterChannel, req: RawRequest): string | null =>
  providerOf(channel) === 'bsp' ? null : hubChallenge(channel.secrets.verifyToken, req);

/** The channel's provider: a business solution provider, or Meta's Cloud API (channels from before say none). */
export const providerOf = (channel: AdapterChannel): 'cloud' | 'bsp' =>
  channel.settings.provider === 'bsp' ? 'bsp' : 'cloud';
