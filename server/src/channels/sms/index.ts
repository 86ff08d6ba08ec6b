import { timingSafeEqual } from 'node:crypto';
import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import type { AdapterChannel, ChannelAdapter, RawRequest } from '../types.ts';

/**
 * The callback's key: in the address (`?key=`, as SMS services call a URL they are given and set no headers), or
 * `X-Api-Key` / `Authorization: Bearer`. Only on the channel's own callback route (endpoint 'callback').
 */
function verifySms(channel: AdapterChannel, req: RawRequest): boolean {
  if (req.endpoint !== 'callback' || !channel.inboundKeyHash) return false;
  const auth = req.headers.authorization;
  const key =
    (typeof req.query.key === 'string' && req.query.key) ||
    (typeof req.headers['x-api-key'] === 'string' && req.headers['x-api-key']) ||
    (typeof auth === 'string' && auth.startsWith('Bearer ') && auth.slice(7).trim());
  if (!key) return false;
  const given = Buffer.from(hashToken(key));
  const expected = Buffer.from(channel.inboundKeyHash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The `sms` channel (issue 33): an account at an outside SMS service (SMS.ru, SMSC.ru or another) whose SMS are
 * imported into the clients' histories, from its export files or its callbacks (modules/sms-import). Nothing is sent
 * through it and no client writes to it: the common webhook route refuses every request (401); the service calls
 * the channel's own callback address (modules/sms-import/routes.ts) with the key made on creation (shown once,
 * only its hash kept).
 */
export const smsAdapter: ChannelAdapter = {
  type: 'sms',
  createSchema: CHANNEL_TYPE_FIELDS.sms,
  updateSchema: CHANNEL_TYPE_FIELDS.sms.partial(),
  capabilities: {
    edit: false,
    buttons: false,
    templates: false,
    sessionWindowHours: null,
    textLimit: 5_000,
    attachments: { kinds: [], maxBytes: 0 },
  },
  async connect(_ctx, _channel, input, current) {
    const settings = {
      service: (input.service as string | undefined) ?? current?.settings.service ?? 'other',
    };
    if (current) return { settings, secrets: current.secrets };
    const inboundKey = randomToken();
    return { settings, secrets: {}, shownOnce: { inboundKey }, inboundKeyHash: hashToken(inboundKey) };
  },
  disconnect: async () => undefined,
  verify: verifySms,
  parse: () => [],
  // An operator cannot write here (no dialog starts in it); should anything reach the outbox, it fails at once.
  send: async () => ({ ok: false, retryable: false, error: 'An SMS import channel sends nothing' }),
  present: (settings) => ({ service: settings.service ?? 'other' }),
  inboundPath: (id) => `/api/sms/${id}/callback`,
};
