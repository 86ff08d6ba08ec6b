import type { ChannelCreatedDto, channelCreateSchema, channelUpdateSchema } from '@smartconnect/contracts';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import type { z } from 'zod';
import { adapterFor } from '../../channels/registry.ts';
import type { AdapterChannel, InboundRequest } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { decryptSecret, encryptSecret, hashToken, randomToken } from '../../lib/crypto.ts';
import { OutboundRefusedError } from '../../lib/outbound.ts';
import { presentChannel } from './presenter.ts';
import * as Q from './queries.ts';

export async function getChannel(app: AppContext, orgId: string, id: string) {
  const row = await Q.findChannel(app.db, orgId, id);
  if (!row) throw new AppError('channelNotFoundException');
  return row;
}

async function checkTeam(q: Queryable, orgId: string, teamId: string) {
  if (!(await Q.teamInOrg(q, orgId, teamId)))
    throw new AppError('validationException', { teamId: 'Team specified incorrectly' });
}

/** A webhook URL we would refuse to call (a local or private address) is refused when it is saved. */
async function checkWebhookUrl(app: AppContext, url: string | undefined) {
  if (!url) return;
  try {
    await app.outbound.check(url);
  } catch (err) {
    if (err instanceof OutboundRefusedError)
      throw new AppError('validationException', { webhookUrl: M.addressNotAllowed });
    throw err;
  }
}

/** Creates a channel of a team of the caller's organisation; answers its inbound key and webhook secret once. */
export async function createChannel(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof channelCreateSchema>,
): Promise<ChannelCreatedDto> {
  const adapter = adapterFor(input.type);
  await checkWebhookUrl(app, input.webhookUrl);
  const inboundKey = randomToken();
  const { secrets } = adapter.connect();
  const id = await app.db.tx(async (q) => {
    await checkTeam(q, auth.organisationId, input.teamId);
    if (await Q.nameTaken(q, auth.organisationId, input.name))
      throw new AppError('channelAlreadyExistsException');
    return Q.insertChannel(q, {
      organisationId: auth.organisationId,
      type: input.type,
      name: input.name,
      teamId: input.teamId,
      status: input.status,
      webhookUrl: input.webhookUrl,
      inboundKeyHash: hashToken(inboundKey),
      secrets: encryptSecret(app.config.secretKey, JSON.stringify(secrets)),
      halfExpiredMinutes: input.halfExpiredMinutes,
      expiredMinutes: input.expiredMinutes,
    });
  });
  const channel = presentChannel(await getChannel(app, auth.organisationId, id));
  return { ...channel, inboundKey, webhookSecret: secrets.webhookSecret ?? '' };
}

/** Updates a channel's settings; the team must be of the same organisation, thresholds in order. */
export async function updateChannel(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof channelUpdateSchema>,
) {
  const current = await getChannel(app, auth.organisationId, id);
  const half =
    input.halfExpiredMinutes !== undefined ? input.halfExpiredMinutes : current.half_expired_minutes;
  const full = input.expiredMinutes !== undefined ? input.expiredMinutes : current.expired_minutes;
  if (half != null && full != null && half >= full)
    throw new AppError('validationException', { expiredMinutes: 'Time specified incorrectly' });
  await checkWebhookUrl(app, input.webhookUrl);
  await app.db.tx(async (q) => {
    if (input.teamId) await checkTeam(q, auth.organisationId, input.teamId);
    if (input.name && (await Q.nameTaken(q, auth.organisationId, input.name, id)))
      throw new AppError('channelAlreadyExistsException');
    await Q.updateChannel(q, auth.organisationId, id, input);
  });
  cacheOf(app).delete(id);
  return getChannel(app, auth.organisationId, id);
}

export async function deleteChannel(app: AppContext, auth: AuthContext, id: string) {
  await getChannel(app, auth.organisationId, id);
  await Q.softDeleteChannel(app.db, auth.organisationId, id);
  cacheOf(app).delete(id);
}

/** The channel as its adapter needs it, with secrets decrypted. */
export const adapterChannel = (app: AppContext, row: Q.ChannelRow): AdapterChannel => ({
  id: row.id,
  webhookUrl: row.webhook_url,
  inboundKeyHash: row.inbound_key_hash,
  secrets: JSON.parse(decryptSecret(app.config.secretKey, row.secrets)) as Record<string, string>,
});

/** The channel and its adapter for delivering an outbox row; null when the channel is gone. */
export async function deliveryChannel(app: AppContext, channelId: string) {
  const row = await Q.findChannelById(app.db, channelId);
  if (!row) return null;
  return { adapter: adapterFor(row.type), channel: adapterChannel(app, row) };
}

type Loaded = { row: Q.ChannelRow; channel: AdapterChannel };
type Cached = { load: Promise<Loaded | null>; expires: number };
/**
 * Inbound pushes come in bursts: the channel (and its decrypted secrets) is read at most every few seconds,
 * and requests arriving while it is being read wait for that one read instead of each reading it again.
 */
const INBOUND_CACHE_MS = 3_000;
const inboundCache = new WeakMap<AppContext, Map<string, Cached>>();

function cacheOf(app: AppContext) {
  let cache = inboundCache.get(app);
  if (!cache) {
    cache = new Map();
    inboundCache.set(app, cache);
  }
  return cache;
}

/** Drops every channel read for inbound pushes on this instance (after a change they depend on, e.g. an organisation's status). */
export function forgetInboundChannels(app: AppContext): void {
  cacheOf(app).clear();
}

function loadInbound(app: AppContext, id: string): Promise<Loaded | null> {
  const cache = cacheOf(app);
  const hit = cache.get(id);
  if (hit && hit.expires >= Date.now()) return hit.load;
  const load = Q.findChannelById(app.db, id).then((row) =>
    row ? { row, channel: adapterChannel(app, row) } : null,
  );
  const entry = { load, expires: Date.now() + INBOUND_CACHE_MS };
  if (cache.size > 10_000) cache.clear();
  cache.set(id, entry);
  const forget = () => {
    if (cache.get(id) === entry) cache.delete(id);
  };
  // A channel that does not exist, or a failed read, is not remembered.
  load.then((loaded) => loaded ?? forget(), forget);
  return load;
}

/**
 * Authenticates an inbound push with the channel adapter's own check (401 when it fails); an inactive channel
 * (409 deactivatedChannelException) or a deactivated organisation (403 organizationDeactivatedException) refuses it.
 */
export async function inboundChannel(app: AppContext, id: string, req: InboundRequest) {
  const loaded = await loadInbound(app, id);
  if (!loaded) throw new AppError('channelNotFoundException');
  const adapter = adapterFor(loaded.row.type);
  if (!adapter.verify(loaded.channel, req)) throw new AppError('unauthorizedException');
  // Refused, not stored: the provider keeps its copy and can deliver it once the channel is active again.
  if (loaded.row.org_status !== 'active') throw new AppError('organizationDeactivatedException');
  if (loaded.row.status !== 'active') throw new AppError('deactivatedChannelException');
  return { row: loaded.row, adapter };
}
