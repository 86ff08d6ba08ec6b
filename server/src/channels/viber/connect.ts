import { createHmac, timingSafeEqual } from 'node:crypto';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { randomToken } from '../../lib/crypto.ts';
import type { AdapterChannel, AdapterContext, Connected, RawRequest } from '../types.ts';
import { type Credentials, callProvider, credentialsOf, regionBaseUrl } from './api.ts';

const refusal = (reason: 'unreachable' | 'token' | 'webhook', provider?: string) =>
  new AppError('channelCreationException', undefined, { reason, ...(provider ? { provider } : {}) });

type Account = { login?: string; services?: { id?: unknown; name?: unknown }[] };

/**
 * Checks the provider account (GET /v1/account with HTTP Basic): refused credentials are the password field's
 * 'Password specified incorrectly', a service id the account does not have is 'Incorrect token/ID specified'.
 * The callback secret is ours, generated once and kept across edits.
 */
export async function connectViberBusiness(
  ctx: AdapterContext,
  _channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const pick = (f: string) =>
    (input[f] as string | undefined) ?? (current?.settings[f] as string | undefined);
  const region = pick('region');
  const login = pick('login');
  const serviceId = pick('serviceId');
  const phone = pick('phone');
  const password = (input.password as string | undefined) ?? current?.secrets.password;
  const missing = Object.entries({ region, login, password, serviceId, phone }).filter(([, v]) => !v);
  if (missing.length)
    throw new AppError(
      'validationException',
      Object.fromEntries(missing.map(([k]) => [k, M.requiredFields])),
    );
  const creds: Credentials = {
    region: region as string,
    login: login as string,
    password: password as string,
  };
  if (!regionBaseUrl(ctx, creds.region)) throw refusal('unreachable');
  const account = await callProvider<Account>(ctx, creds, 'GET', '/v1/account').catch(() => {
    throw refusal('unreachable');
  });
  if (!account.ok) {
    if (account.status === 401 || account.status === 403)
      throw new AppError('validationException', { password: M.passwordIncorrect });
    throw refusal(account.status === 429 || account.status >= 500 ? 'unreachable' : 'token', account.message);
  }
  const service = (account.result.services ?? []).find((s) => String(s.id) === serviceId);
  if (!service) throw new AppError('validationException', { serviceId: M.tokenIncorrect });
  return {
    settings: {
      region,
      login,
      serviceId,
      phone,
      serviceName: typeof service.name === 'string' ? service.name : null,
    },
    secrets: {
      password: password as string,
      callbackSecret: current?.secrets.callbackSecret ?? randomToken(),
    },
  };
}

const callbackPath = (channel: AdapterChannel) =>
  `/v1/services/${encodeURIComponent(String(channel.settings.serviceId))}/callback`;

/** Points the service's inbound messages and delivery reports at our webhook, with the secret they are signed by. */
export async function registerViberBusiness(ctx: AdapterContext, channel: AdapterChannel): Promise<void> {
  const res = await callProvider(ctx, credentialsOf(channel), 'PUT', callbackPath(channel), {
    url: `${ctx.publicUrl}/api/webhooks/viber/${channel.id}`,
    secret: channel.secrets.callbackSecret ?? '',
    events: ['message', 'status'],
  }).catch(() => {
    throw refusal('unreachable');
  });
  if (!res.ok) throw refusal('webhook', res.message);
}

export async function disconnectViberBusiness(ctx: AdapterContext, channel: AdapterChannel): Promise<void> {
  const res = await callProvider(ctx, credentialsOf(channel), 'DELETE', callbackPath(channel));
  if (!res.ok && res.status !== 404) throw new Error(`callback removal: ${res.message}`);
}

/** Every callback carries X-Callback-Signature: `sha256=` and the hex HMAC-SHA256 of the raw body with our secret. */
export function verifyViberBusiness(channel: AdapterChannel, req: RawRequest): boolean {
  const given = req.headers['x-callback-signature'];
  const secret = channel.secrets.callbackSecret;
  if (typeof given !== 'string' || !secret) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(req.rawBody).digest('hex')}`;
  const a = Buffer.from(given.trim().toLowerCase());
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
