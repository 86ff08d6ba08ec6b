import { timingSafeEqual } from 'node:crypto';
import { FIELD_MESSAGES as M, type ViberRegion } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import type { AdapterChannel, AdapterContext, Connected, RawRequest } from '../types.ts';
import { checkDevino } from './devino.ts';
import { checkSmsBy } from './smsby.ts';

const refusal = (reason: 'unreachable' | 'token', provider?: string) =>
  new AppError('channelCreationException', undefined, { reason, ...(provider ? { provider } : {}) });

/** The sender each provider takes: Devino's `subject` (≤ 11 characters), SMS.by's numeric `vibername_id`. */
const SENDER_RULE: Record<ViberRegion, RegExp> = { ru: /^.{1,11}$/, by: /^\d{1,20}$/ };

/**
 * Checks the account with the region's provider (docs/providers/viber-regional.md): Devino with the cabinet's login
 * and password (HTTP Basic), SMS.by with its API key typed as the password (`getVibernames`, which also says whether
 * the Viber sender id belongs to the account). Refused credentials are the password field's 'Password specified
 * incorrectly', a sender the provider cannot take is 'Incorrect token/ID specified'. The SMS fallback (Devino only:
 * SMS.by documents none) needs its SMS sender name. Devino posts replies to an address its support sets up: that
 * address carries a key made here on creation, shown once (`inboundKey`), only its hash kept.
 */
export async function connectViberBusiness(
  ctx: AdapterContext,
  _channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const pick = <T>(f: string) => (input[f] as T | undefined) ?? (current?.settings[f] as T | undefined);
  const region = pick<ViberRegion>('region');
  const login = pick<string>('login');
  const serviceId = pick<string>('serviceId');
  const phone = pick<string>('phone');
  const password = (input.password as string | undefined) ?? current?.secrets.password;
  const missing = Object.entries({ region, login, password, serviceId, phone }).filter(([, v]) => !v);
  if (missing.length)
    throw new AppError(
      'validationException',
      Object.fromEntries(missing.map(([k]) => [k, M.requiredFields])),
    );
  const r = region as ViberRegion;
  if (!SENDER_RULE[r].test(serviceId as string))
    throw new AppError('validationException', { serviceId: M.tokenIncorrect });
  const smsFallback = r === 'ru' && pick<boolean>('smsFallback') === true;
  const smsSender = pick<string>('smsSender')?.trim() || null;
  if (smsFallback && !smsSender) throw new AppError('validationException', { smsSender: M.requiredFields });

  let serviceName: string | null = null;
  if (r === 'ru') {
    const o = await checkDevino(ctx, { login: login as string, password: password as string }).catch(() => {
      throw refusal('unreachable');
    });
    if (o.kind === 'refused') throw new AppError('validationException', { password: M.passwordIncorrect });
    if (o.kind !== 'ok') throw refusal('unreachable', o.error);
  } else {
    const names = await checkSmsBy(ctx, password as string).catch(() => {
      throw refusal('unreachable');
    });
    if (names === 'unreachable') throw refusal('unreachable');
    if (!names) throw new AppError('validationException', { password: M.passwordIncorrect });
    const sender = names.find((n) => n.id === serviceId);
    if (!sender) throw new AppError('validationException', { serviceId: M.tokenIncorrect });
    serviceName = sender.name;
  }
  const settings = {
    region: r,
    login,
    serviceId,
    phone,
    serviceName,
    smsFallback,
    smsSender: smsFallback ? smsSender : null,
  };
  const secrets = { password: password as string };
  // A channel connected before (or before the real providers) keeps its key; one without gets it on creation only.
  if (current) return { settings, secrets };
  const inboundKey = randomToken();
  return { settings, secrets, shownOnce: { inboundKey }, inboundKeyHash: hashToken(inboundKey) };
}

/**
 * Devino's inbound replies (§1a) come to `/api/webhooks/viber/{channelId}?key={inboundKey}`: Devino documents no
 * signature or header, so the address Devino's support is given carries our key (our choice); the path alone is
 * refused (401).
 */
export function verifyViberBusiness(channel: AdapterChannel, req: RawRequest): boolean {
  const key = req.query.key;
  if (typeof key !== 'string' || !key || !channel.inboundKeyHash) return false;
  const given = Buffer.from(hashToken(key));
  const expected = Buffer.from(channel.inboundKeyHash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
