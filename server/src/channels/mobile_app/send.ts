import {
  APNS_PRODUCTION,
  APNS_SANDBOX,
  ApnsClient,
  type ApnsResult,
  apnsClientKey,
} from '../../lib/push/apns.ts';
import {
  type FcmResult,
  type FcmTokenCache,
  parseServiceAccount,
  serviceAccountKey,
} from '../../lib/push/fcm.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { fcmClientFor } from './connect.ts';
import { channelTitle, devicesOf, type MobileDevice, removeDevices } from './devices.ts';

/** The longest notification text we send; the app shows the whole message when opened. */
export const PUSH_TEXT_MAX = 240;
/** Clients kept per process (each APNs one holds an HTTP/2 connection); the oldest goes first. */
const CLIENTS_MAX = 200;

/** Process memory: FCM access tokens by service account, APNs clients (and their connections) by key and server. */
const FCM_TOKENS = new Map<string, FcmTokenCache>();
const APNS_CLIENTS = new Map<string, ApnsClient>();

function remember<T>(map: Map<string, T>, key: string, make: () => T, drop?: (v: T) => void): T {
  const hit = map.get(key);
  if (hit) return hit;
  if (map.size >= CLIENTS_MAX) {
    const [oldest] = map.entries();
    if (oldest) {
      map.delete(oldest[0]);
      drop?.(oldest[1]);
    }
  }
  const made = make();
  map.set(key, made);
  return made;
}

/** Closes every APNs connection of this process (tests; a process that ends does not wait for them: unref'd). */
export function closePushClients(): void {
  for (const c of APNS_CLIENTS.values()) c.close();
  APNS_CLIENTS.clear();
  FCM_TOKENS.clear();
}

/** The APNs server of a channel: APNS_BASE_URL when set (tests), else Apple's production or sandbox server. */
const apnsBase = (ctx: AdapterContext, settings: Record<string, unknown>) =>
  ctx.env.APNS_BASE_URL || (settings.apnsEnvironment === 'sandbox' ? APNS_SANDBOX : APNS_PRODUCTION);

/** What the notification says: the message's text (shortened), or its files' names. */
export function pushText(m: Pick<OutboundMessage, 'text' | 'attachments'>): string {
  const text = m.text.trim() || m.attachments.map((a) => `📎 ${a.name ?? 'file'}`).join(', ') || '…';
  return text.length > PUSH_TEXT_MAX ? `${text.slice(0, PUSH_TEXT_MAX - 1)}…` : text;
}

type Outcome = FcmResult | ApnsResult | { ok: false; kind: 'unconfigured'; message: string };

async function pushTo(
  ctx: AdapterContext,
  channel: AdapterChannel,
  device: MobileDevice,
  n: { title: string; body: string; data: Record<string, string>; id: string },
): Promise<Outcome> {
  if (device.provider === 'fcm') {
    const json = channel.secrets.fcmServiceAccount;
    const parsed = json ? parseServiceAccount(json) : null;
    if (!json || !parsed?.ok)
      return { ok: false, kind: 'unconfigured', message: 'FCM is not set up for this channel' };
    const cache = remember(FCM_TOKENS, serviceAccountKey(parsed.account), () => ({ token: null }));
    const client = fcmClientFor(ctx, json, cache);
    if (!client) return { ok: false, kind: 'unconfigured', message: 'FCM is not set up for this channel' };
    return client.send({ token: device.token, title: n.title, body: n.body, data: n.data });
  }
  const key = channel.secrets.apnsKey;
  const { apnsKeyId: keyId, apnsTeamId: teamId, apnsBundleId: topic } = channel.settings;
  if (!key || typeof keyId !== 'string' || typeof teamId !== 'string' || typeof topic !== 'string')
    return { ok: false, kind: 'unconfigured', message: 'APNs is not set up for this channel' };
  const creds = { key, keyId, teamId };
  const baseUrl = apnsBase(ctx, channel.settings);
  const client = remember(
    APNS_CLIENTS,
    apnsClientKey(creds, baseUrl),
    () => new ApnsClient(creds, { baseUrl }),
    (c) => c.close(),
  );
  return client.send({
    deviceToken: device.token,
    topic,
    title: n.title,
    body: n.body,
    data: n.data,
    id: n.id,
  });
}

/**
 * An operator's reply to an app user as a push notification to each of their registered devices (FCM, APNs): a
 * device whose token the service calls dead is forgotten. Delivered when one device took it; no device, or only dead
 * ones, fails with the reason; a service asking to wait is retried after its wait; refused credentials are the
 * channel's problem. Edits are not pushed (the app shows them when it next opens the chat).
 */
export async function sendMobileApp(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'A mobile app push cannot be edited once sent' };
  try {
    const devices = await devicesOf(ctx.db, channel.organisationId, channel.id, m.client.externalId);
    if (!devices.length)
      return {
        ok: false,
        retryable: false,
        error: 'The app user has no device registered for push notifications',
      };
    const title = (await channelTitle(ctx.db, channel.organisationId, channel.id)) || 'New message';
    const n = {
      title,
      body: pushText(m),
      data: { chatId: m.chatId, messageId: m.id },
      // apns-id: the message's id when it is a UUID (ours are), so Apple's logs name our message.
      id: m.id,
    };
    const outcomes = await Promise.all(
      devices.map((d) => pushTo(ctx, channel, d, n).catch((err: Error) => ({ thrown: err }))),
    );
    await removeDevices(
      ctx.db,
      channel.organisationId,
      devices
        .filter((_, i) => {
          const o = outcomes[i];
          return o && !('thrown' in o) && !o.ok && o.kind === 'dead';
        })
        .map((d) => d.id),
    );
    const delivered = outcomes.find((o): o is Extract<Outcome, { ok: true }> => !('thrown' in o) && o.ok);
    if (delivered) return { ok: true, externalId: 'name' in delivered ? delivered.name : delivered.apnsId };
    const failures = outcomes.map((o) =>
      'thrown' in o ? { kind: 'thrown', message: o.thrown.message } : o,
    ) as {
      kind: string;
      message: string;
      retryAfterMs?: number;
    }[];
    // A dead device is said as a count: the services' words for it ("invalid registration token") would read as
    // the channel's credentials refused (deliver.ts).
    const dead = failures.filter((f) => f.kind === 'dead').length;
    const words = [
      ...failures.filter((f) => f.kind !== 'dead').map((f) => f.message),
      ...(dead ? [`${dead} unregistered device(s) removed`] : []),
    ].join('; ');
    const waits = failures.filter((f) => f.kind === 'retry').map((f) => f.retryAfterMs ?? 0);
    if (waits.length) return { ok: false, retryable: true, error: words, retryAfterMs: Math.max(...waits) };
    if (failures.some((f) => f.kind === 'thrown')) return { ok: false, retryable: true, error: words };
    if (failures.some((f) => f.kind === 'auth'))
      return { ok: false, retryable: false, tokenRefused: true, error: `Push credentials refused: ${words}` };
    if (failures.every((f) => f.kind === 'dead'))
      return {
        ok: false,
        retryable: false,
        error: 'Every device of the app user is unregistered (their push tokens were removed)',
      };
    return { ok: false, retryable: false, error: words };
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}
