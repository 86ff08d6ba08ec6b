import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { randomToken } from '../../lib/crypto.ts';
import { OutboundRefusedError } from '../../lib/outbound.ts';
import { ApnsClient } from '../../lib/push/apns.ts';
import { FcmAuthError, FcmClient, type FcmTokenCache, parseServiceAccount } from '../../lib/push/fcm.ts';
import type { AdapterChannel, AdapterContext, Connected } from '../types.ts';

const refusal = (provider: string) =>
  new AppError('channelCreationException', undefined, { reason: 'unreachable', provider });

type Input = {
  fcmServiceAccount?: string | null;
  apnsKey?: string | null;
  apnsKeyId?: string;
  apnsTeamId?: string;
  apnsBundleId?: string;
  apnsEnvironment?: 'production' | 'sandbox';
  rotateIdentitySecret?: boolean;
};

/** The FCM client of a service account's key file, talking to the bases the environment names (tests: the fakes). */
export const fcmClientFor = (ctx: AdapterContext, json: string, cache?: FcmTokenCache) => {
  const parsed = parseServiceAccount(json);
  if (!parsed.ok) return null;
  return new FcmClient(parsed.account, {
    fetch: (url, init) => ctx.outbound.fetch(url, init),
    apiBase: ctx.env.FCM_API_BASE_URL,
    tokenUrl: ctx.env.FCM_TOKEN_URL,
    ...(cache ? { cache } : {}),
  });
};

/**
 * A service account checked by taking an access token with it: a file that is not a service account key, or a key
 * Google refuses, is a field error; a token endpoint out of reach is channelCreationException (as other channels).
 */
async function checkFcm(ctx: AdapterContext, json: string) {
  const client = fcmClientFor(ctx, json);
  if (!client) throw new AppError('validationException', { fcmServiceAccount: M.tokenIncorrect });
  try {
    await client.accessToken(true);
  } catch (err) {
    if (err instanceof FcmAuthError)
      throw new AppError('validationException', { fcmServiceAccount: M.tokenIncorrect });
    if (err instanceof OutboundRefusedError)
      throw new AppError('validationException', { fcmServiceAccount: M.addressNotAllowed });
    throw refusal('fcm');
  }
  return (parseServiceAccount(json) as { ok: true; account: { project_id: string; client_email: string } })
    .account;
}

/** An APNs key checked by signing a provider token with it (Apple has no call that only checks a key). */
function checkApns(p8: string, keyId: string, teamId: string) {
  try {
    new ApnsClient({ key: p8, keyId, teamId }, { baseUrl: 'https://api.push.apple.com' }).providerToken();
  } catch {
    throw new AppError('validationException', { apnsKey: M.tokenIncorrect });
  }
}

/**
 * A mobile app channel's settings (§3, issue 34): the identity secret is ours (made on creation, again on
 * `rotateIdentitySecret`, answered only then); the FCM service account and the APNs key are optional, each checked
 * when given (an empty value removes it) and kept as secrets; the settings show which project, key and app they are.
 */
export async function connectMobileApp(
  ctx: AdapterContext,
  _channel: { id: string },
  raw: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const input = raw as Input;
  const settings: Record<string, unknown> = { ...(current?.settings ?? {}) };
  const secrets: Record<string, string> = { ...(current?.secrets ?? {}) };
  const shownOnce: Record<string, string> = {};
  if (!secrets.identitySecret || input.rotateIdentitySecret) {
    secrets.identitySecret = randomToken();
    shownOnce.identitySecret = secrets.identitySecret;
    settings.identitySecretEnd = secrets.identitySecret.slice(-4);
  }

  if (input.fcmServiceAccount === '' || input.fcmServiceAccount === null) {
    delete secrets.fcmServiceAccount;
    settings.fcmProjectId = null;
    settings.fcmClientEmail = null;
  } else if (input.fcmServiceAccount !== undefined) {
    const account = await checkFcm(ctx, input.fcmServiceAccount);
    secrets.fcmServiceAccount = input.fcmServiceAccount;
    settings.fcmProjectId = account.project_id;
    settings.fcmClientEmail = account.client_email;
  }

  if (input.apnsKey === '' || input.apnsKey === null) {
    delete secrets.apnsKey;
    for (const k of ['apnsKeyId', 'apnsTeamId', 'apnsBundleId', 'apnsEnvironment']) settings[k] = null;
  } else {
    const p8 = input.apnsKey ?? secrets.apnsKey;
    const keyId = input.apnsKeyId ?? (settings.apnsKeyId as string | null | undefined);
    const teamId = input.apnsTeamId ?? (settings.apnsTeamId as string | null | undefined);
    const bundleId = input.apnsBundleId ?? (settings.apnsBundleId as string | null | undefined);
    const changed = [input.apnsKey, input.apnsKeyId, input.apnsTeamId, input.apnsBundleId].some(
      (v) => v !== undefined,
    );
    if (changed) {
      if (!p8) throw new AppError('validationException', { apnsKey: M.requiredFields });
      const missing: Record<string, string> = {};
      if (!keyId) missing.apnsKeyId = M.requiredFields;
      if (!teamId) missing.apnsTeamId = M.requiredFields;
      if (!bundleId) missing.apnsBundleId = M.requiredFields;
      if (Object.keys(missing).length) throw new AppError('validationException', missing);
      checkApns(p8, keyId as string, teamId as string);
      secrets.apnsKey = p8;
      Object.assign(settings, { apnsKeyId: keyId, apnsTeamId: teamId, apnsBundleId: bundleId });
    }
    if (p8) settings.apnsEnvironment = input.apnsEnvironment ?? settings.apnsEnvironment ?? 'production';
  }
  return { settings, secrets, ...(Object.keys(shownOnce).length ? { shownOnce } : {}) };
}
