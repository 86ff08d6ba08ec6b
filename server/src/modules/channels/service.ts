import {
  CHANNEL_COMMON_FIELDS,
  type ChannelCreatedDto,
  type ChannelCreateInput,
  type ChannelType,
  type channelUpdateSchema,
  FIELD_MESSAGES as M,
} from '@smartconnect/contracts';
import type { z } from 'zod';
import { adapterFor, channelCapabilities } from '../../channels/registry.ts';
import type {
  AdapterChannel,
  AdapterContext,
  ChannelAdapter,
  ProviderTemplate,
  RawRequest,
} from '../../channels/types.ts';
import { type AppContext, stateSlot } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError, validationError } from '../../http/errors.ts';
import { endPollSession, resetPoll, schedulePoll } from '../../jobs/polls.ts';
import { decryptSecret, encryptSecret } from '../../lib/crypto.ts';
import { readStoredFile } from '../files/service.ts';
import { teamInOrg, teamsInOrg } from '../teams/readers.ts';
import { openGrant } from './grant.ts';
import { presentChannel } from './presenter.ts';
import * as Q from './queries.ts';

const COMMON = new Set(CHANNEL_COMMON_FIELDS);
const ownFields = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).filter(([k, v]) => !COMMON.has(k) && v !== undefined));

/** What adapters may use of the server. */
export const adapterContext = (app: AppContext): AdapterContext => ({
  outbound: app.outbound,
  publicUrl: app.config.publicUrl,
  env: app.config.env,
  readFile: (organisationId, url) => readStoredFile(app, organisationId, url),
  db: app.db,
});

/** A live channel of the organisation (`q`: the caller's transaction, when it holds one). */
export async function getChannel(app: AppContext, orgId: string, id: string, q: Queryable = app.db) {
  const row = await Q.findChannel(q, orgId, id);
  if (!row) throw new AppError('channelNotFoundException');
  return row;
}

async function checkTeam(q: Queryable, orgId: string, teamId: string) {
  if (!(await teamInOrg(q, orgId, teamId)))
    throw new AppError('validationException', { teamId: M.teamIncorrect });
}

/** The teams that see the channel must be live teams of the organisation. */
async function checkVisibleTeams(q: Queryable, orgId: string, ids: string[] | undefined) {
  if (!ids?.length) return;
  if ((await teamsInOrg(q, orgId, [...new Set(ids)])).size !== new Set(ids).size)
    throw new AppError('validationException', { visibleTeamIds: M.teamIncorrect });
}

/** The service assessment fields: `assessment: {enabled, beforeEnd, text}`, which wins over ratingBeforeEnd/ratingMessage. */
function assessmentOf(input: {
  ratingBeforeEnd?: boolean;
  ratingMessage?: string | null;
  assessment?: { enabled?: boolean; beforeEnd?: boolean; text?: string | null };
}) {
  const a = input.assessment ?? {};
  return {
    ratingEnabled: a.enabled,
    ratingBeforeEnd: a.beforeEnd ?? input.ratingBeforeEnd,
    ratingMessage: a.text !== undefined ? a.text : input.ratingMessage,
  };
}

/** Asking clients for a rating (service assessment) is the plan's quality assessment option. */
function checkRatingOption(auth: AuthContext, ratingBeforeEnd: boolean | undefined) {
  if (ratingBeforeEnd && !auth.options.has('OPTION_QUALITY_ASSESSMENT'))
    throw new AppError('optionUnavailableException', undefined, { option: 'OPTION_QUALITY_ASSESSMENT' });
}

async function checkName(q: Queryable, orgId: string, name: string, exceptId?: string) {
  if (await Q.nameTaken(q, orgId, name, exceptId)) throw new AppError('channelAlreadyExistsException');
}

/** Undoes a connect whose channel was not stored after all (best effort: the provider may be unreachable). */
async function undoConnect(app: AppContext, adapter: ChannelAdapter, channel: AdapterChannel) {
  await adapter.disconnect(adapterContext(app), channel).catch((err) => {
    app.log.warn({ err, channel: channel.id }, 'channel disconnect failed');
  });
}

/**
 * The channel is gone for good: what its connect set up at the provider is removed (adapters with `remove`). A
 * refusal does not keep the channel: it is logged, naming the channel, for the admin to remove it by hand.
 */
async function removeAtProvider(app: AppContext, adapter: ChannelAdapter, channel: AdapterChannel) {
  await adapter.remove?.(adapterContext(app), channel).catch((err) => {
    app.log.warn({ err, channel: channel.id }, 'channel not removed at the provider');
  });
}

/**
 * Creates a channel of a team of the caller's organisation: its adapter checks the credentials with the provider
 * and registers our webhook first (a refusal is a field error, nothing stored); answers the keys it generated once.
 */
export async function createChannel(
  app: AppContext,
  auth: AuthContext,
  input: ChannelCreateInput,
): Promise<ChannelCreatedDto> {
  const adapter = adapterFor(input.type);
  const rating = assessmentOf(input);
  checkRatingOption(auth, rating.ratingBeforeEnd || rating.ratingEnabled);
  await checkTeam(app.db, auth.organisationId, input.teamId);
  await checkVisibleTeams(app.db, auth.organisationId, input.visibleTeamIds);
  await checkName(app.db, auth.organisationId, input.name);
  const id = await Q.newChannelId(app.db);
  const own = adapter.oauth ? openGrant(app, auth, input.type, ownFields(input)) : ownFields(input);
  const connected = await adapter.connect(
    adapterContext(app),
    { id, organisationId: auth.organisationId },
    own,
  );
  const stored: AdapterChannel = {
    id,
    organisationId: auth.organisationId,
    inboundKeyHash: connected.inboundKeyHash ?? null,
    settings: connected.settings,
    secrets: connected.secrets,
  };
  try {
    await app.db.tx(async (q) => {
      await checkTeam(q, auth.organisationId, input.teamId);
      await checkName(q, auth.organisationId, input.name);
      await Q.insertChannel(q, {
        id,
        organisationId: auth.organisationId,
        type: input.type,
        name: input.name,
        teamId: input.teamId,
        status: input.status,
        settings: connected.settings,
        inboundKeyHash: connected.inboundKeyHash ?? null,
        secrets: encryptSecret(app.config.secretKey, JSON.stringify(connected.secrets)),
        halfExpiredMinutes: input.halfExpiredMinutes,
        expiredMinutes: input.expiredMinutes,
        notificationEmail: input.notificationEmail,
        visibleTeamIds: [...new Set(input.visibleTeamIds)],
        ratingBeforeEnd: rating.ratingBeforeEnd ?? false,
        ratingMessage: rating.ratingMessage ?? null,
        ratingEnabled: rating.ratingEnabled ?? false,
      });
      // A pull channel (a mailbox, a bot that polls) is read by the job runner from now on.
      if (adapter.poll) await schedulePoll(q, auth.organisationId, id, app.clock.now());
    });
  } catch (err) {
    await undoConnect(app, adapter, stored);
    await removeAtProvider(app, adapter, stored);
    throw err;
  }
  if (adapter.register && input.status === 'active')
    await adapter.register(adapterContext(app), stored).catch(async (err) => {
      // The provider refused our webhook: the channel is not kept.
      await Q.softDeleteChannel(app.db, auth.organisationId, id);
      cacheOf(app).delete(id);
      throw err;
    });
  const channel = presentChannel(await getChannel(app, auth.organisationId, id));
  // An inactive channel is created connected, then let go like any deactivation.
  if (input.status === 'inactive') await undoConnect(app, adapter, stored);
  return { ...channel, ...(connected.shownOnce ?? {}) };
}

/**
 * A channel created by the first start's seed (the Demo organisation's website chat), inside the seed's transaction:
 * its type's adapter makes its settings and secrets, as for any channel; nothing is checked at a provider.
 */
export async function seedChannel(
  app: AppContext,
  q: Queryable,
  input: {
    organisationId: string;
    type: ChannelType;
    name: string;
    teamId: string;
    settings: Record<string, unknown>;
  },
): Promise<string> {
  const id = await Q.newChannelId(q);
  const connected = await adapterFor(input.type).connect(
    adapterContext(app),
    { id, organisationId: input.organisationId },
    input.settings,
  );
  return Q.insertChannel(q, {
    id,
    organisationId: input.organisationId,
    type: input.type,
    name: input.name,
    teamId: input.teamId,
    status: 'active',
    settings: connected.settings,
    inboundKeyHash: connected.inboundKeyHash ?? null,
    secrets: encryptSecret(app.config.secretKey, JSON.stringify(connected.secrets)),
    halfExpiredMinutes: null,
    expiredMinutes: null,
    notificationEmail: null,
    visibleTeamIds: [],
    ratingBeforeEnd: false,
    ratingMessage: null,
    ratingEnabled: false,
  });
}

/**
 * Updates a channel: common fields here, the type's own fields through its adapter (which may check them with the
 * provider again). Deactivating lets go of the provider's webhook, activating registers it again.
 */
export async function updateChannel(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof channelUpdateSchema>,
) {
  const current = await getChannel(app, auth.organisationId, id);
  const adapter = adapterFor(current.type);
  const half =
    input.halfExpiredMinutes !== undefined ? input.halfExpiredMinutes : current.half_expired_minutes;
  const full = input.expiredMinutes !== undefined ? input.expiredMinutes : current.expired_minutes;
  if (half != null && full != null && half >= full)
    throw new AppError('validationException', { expiredMinutes: M.timeIncorrect });
  const own = adapter.updateSchema.safeParse(ownFields(input));
  if (!own.success) throw validationError(own.error);
  const rating = assessmentOf(input);
  checkRatingOption(auth, rating.ratingBeforeEnd || rating.ratingEnabled);
  await checkVisibleTeams(app.db, auth.organisationId, input.visibleTeamIds);
  const channel = adapterChannel(app, current);
  const ctx = adapterContext(app);
  const activating = input.status === 'active' && current.status !== 'active';
  const connected =
    Object.keys(own.data).length || activating
      ? await adapter.connect(
          ctx,
          { id, organisationId: auth.organisationId },
          adapter.oauth ? openGrant(app, auth, current.type, own.data) : own.data,
          channel,
        )
      : null;
  await app.db.tx(async (q) => {
    if (input.teamId) await checkTeam(q, auth.organisationId, input.teamId);
    if (input.name) await checkName(q, auth.organisationId, input.name, id);
    await Q.updateChannel(q, auth.organisationId, id, {
      name: input.name,
      teamId: input.teamId,
      status: input.status,
      halfExpiredMinutes: input.halfExpiredMinutes,
      expiredMinutes: input.expiredMinutes,
      notificationEmail: input.notificationEmail,
      visibleTeamIds: input.visibleTeamIds && [...new Set(input.visibleTeamIds)],
      ...rating,
    });
    // Activated or connected again (new settings: a Telegram bot that polls now): read from now on.
    if (adapter.poll && connected) await schedulePoll(q, auth.organisationId, id, app.clock.now());
    // A running session lets go: it must not read on with old settings or for an inactive channel.
    if (adapter.poll && (connected || input.status === 'inactive')) await resetPoll(q, id, app.clock.now());
    if (connected)
      await Q.setChannelConfig(
        q,
        id,
        connected.settings,
        encryptSecret(app.config.secretKey, JSON.stringify(connected.secrets)),
      );
  });
  if (adapter.poll && (connected || input.status === 'inactive')) endPollSession(app, id);
  if (input.status === 'inactive' && current.status === 'active') await undoConnect(app, adapter, channel);
  cacheOf(app).delete(id);
  const updated = await getChannel(app, auth.organisationId, id);
  if (connected && adapter.replaced)
    await adapter.replaced(ctx, channel, adapterChannel(app, updated)).catch((err) => {
      app.log.warn({ err, channel: id }, 'channel not removed at the provider');
    });
  if (adapter.register && updated.status === 'active' && (activating || connected))
    await adapter.register(ctx, adapterChannel(app, updated)).catch(async (err) => {
      // The provider refused our webhook: the channel stays (or goes back to) inactive.
      await Q.updateChannel(app.db, auth.organisationId, id, { status: 'inactive' });
      cacheOf(app).delete(id);
      throw err;
    });
  // Keys the adapter made anew (a rotated secret) are answered this once, as on creation.
  return { ...updated, shownOnce: connected?.shownOnce };
}

/**
 * Retires a channel: the provider's webhook is let go and what connect set up there removed (a refusal is logged,
 * the channel is deleted anyway); chats and messages stay readable.
 */
export async function deleteChannel(app: AppContext, auth: AuthContext, id: string) {
  const row = await getChannel(app, auth.organisationId, id);
  await Q.softDeleteChannel(app.db, auth.organisationId, id);
  if (adapterFor(row.type).poll) {
    await resetPoll(app.db, id, app.clock.now());
    endPollSession(app, id);
  }
  cacheOf(app).delete(id);
  const adapter = adapterFor(row.type);
  const channel = adapterChannel(app, row);
  if (row.status === 'active') await undoConnect(app, adapter, channel);
  await removeAtProvider(app, adapter, channel);
}

/**
 * The templates registered at the providers of the organisation's active channels whose type has them (the
 * WhatsApp list), read from each provider now; a provider that cannot be read is left out (logged).
 */
export async function providerTemplates(app: AppContext, orgId: string) {
  const out: (ProviderTemplate & { channelId: string })[] = [];
  for (const row of await Q.listChannels(app.db, orgId)) {
    const adapter = adapterFor(row.type);
    if (
      row.status !== 'active' ||
      !adapter.listTemplates ||
      !channelCapabilities(row.type, row.settings).templates
    )
      continue;
    try {
      const list = await adapter.listTemplates(adapterContext(app), adapterChannel(app, row));
      out.push(...list.map((t) => ({ ...t, channelId: row.id })));
    } catch (err) {
      app.log.warn({ err, channel: row.id }, 'provider templates not read');
    }
  }
  return out;
}

/**
 * The templates registered at the provider of one channel of the organisation (none for a type without them);
 * a provider that cannot be read now is providerUnavailableException.
 */
export async function channelTemplates(app: AppContext, orgId: string, channelId: string) {
  const row = await Q.findChannel(app.db, orgId, channelId);
  if (!row) throw new AppError('channelNotFoundException');
  const adapter = adapterFor(row.type);
  if (!adapter.listTemplates || !channelCapabilities(row.type, row.settings).templates) return [];
  const list = await adapter.listTemplates(adapterContext(app), adapterChannel(app, row)).catch((err) => {
    app.log.warn({ err, channel: row.id }, 'provider templates not read');
    throw new AppError('providerUnavailableException');
  });
  return list.map((t) => ({ ...t, channelId: row.id }));
}

/** The channel as its adapter needs it, with secrets decrypted. */
export const adapterChannel = (app: AppContext, row: Q.ChannelRow): AdapterChannel => ({
  id: row.id,
  organisationId: row.organisation_id,
  inboundKeyHash: row.inbound_key_hash,
  settings: row.settings ?? {},
  secrets: JSON.parse(decryptSecret(app.config.secretKey, row.secrets)) as Record<string, string>,
});

/** The channel and its adapter for delivering an outbox row; null when the channel is gone. */
export async function deliveryChannel(app: AppContext, channelId: string) {
  const row = await Q.findChannelById(app.db, channelId);
  if (!row) return null;
  return { adapter: adapterFor(row.type), channel: adapterChannel(app, row) };
}

/**
 * The provider's daily limit of different recipients for the channel (WhatsApp's messaging limit tier), null when it
 * sets none or cannot be read now (logged; the configured limit, if any, still holds).
 */
export async function providerDailyLimit(app: AppContext, channelId: string): Promise<number | null> {
  const found = await deliveryChannel(app, channelId);
  if (!found?.adapter.dailyRecipientLimit) return null;
  return found.adapter.dailyRecipientLimit(adapterContext(app), found.channel).catch((err) => {
    app.log.warn({ err, channel: channelId }, 'provider daily limit not read');
    return null;
  });
}

type Loaded = { row: Q.ChannelRow; channel: AdapterChannel };
type Cached = { load: Promise<Loaded | null>; expires: number };
/**
 * Inbound pushes come in bursts: the channel (and its decrypted secrets) is read at most every few seconds,
 * and requests arriving while it is being read wait for that one read instead of each reading it again.
 */
const INBOUND_CACHE_MS = 3_000;
const INBOUND_CACHE = stateSlot('channels.inbound-cache', () => new Map<string, Cached>());
const cacheOf = (app: AppContext) => app.state.of(app, INBOUND_CACHE);

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
 * Whether the channel and its organisation take messages now, as a webhook's request finds them (read at most every
 * few seconds, at once after a change on this instance): a pull channel's session asks before storing a batch.
 */
export async function takesInbound(app: AppContext, id: string): Promise<boolean> {
  const loaded = await loadInbound(app, id);
  return loaded?.row.status === 'active' && loaded.row.org_status === 'active';
}

/**
 * A provider's verification GET of a channel's webhook URL: the adapter's answer (its challenge), 403 when the
 * adapter refuses the request, 404 for a type that has no such step. Works while the channel is inactive too
 * (a provider checks the URL before it sends anything).
 */
export async function answerChallenge(app: AppContext, channelId: string, req: RawRequest, type: string) {
  const loaded = await loadInbound(app, channelId);
  if (!loaded || loaded.row.type !== type) throw new AppError('channelNotFoundException');
  const adapter = adapterFor(loaded.row.type);
  if (!adapter.challenge) throw new AppError('notFoundException');
  const answer = adapter.challenge(loaded.channel, req);
  if (answer === null) throw new AppError('accessDeniedException');
  return answer;
}

/** The body a provider wants as the answer to its (verified) request, when its adapter has one; else null. */
export async function providerAnswer(app: AppContext, id: string, req: RawRequest, type: string) {
  const { adapter, channel } = await inboundChannel(app, id, req, type);
  return adapter.answer?.(channel, req) ?? null;
}

/**
 * Authenticates an inbound push with the channel adapter's own check (401 when it fails); an inactive channel
 * (409 deactivatedChannelException) or a deactivated organisation (403 organizationDeactivatedException) refuses it.
 */
export async function inboundChannel(app: AppContext, id: string, req: RawRequest, type?: string) {
  return openInbound(app, id, type, (adapter, channel) => adapter.verify(channel, req));
}

/**
 * The channel of events our own code made in process (the site widget's visitor, whom its route has identified):
 * no request to verify, refused like a provider's push while the channel or its organisation is inactive.
 */
export const ownInboundChannel = (app: AppContext, id: string, type: string) =>
  openInbound(app, id, type, () => true);

async function openInbound(
  app: AppContext,
  id: string,
  type: string | undefined,
  verified: (adapter: ChannelAdapter, channel: AdapterChannel) => boolean,
) {
  const loaded = await loadInbound(app, id);
  if (!loaded || (type !== undefined && loaded.row.type !== type))
    throw new AppError('channelNotFoundException');
  const adapter = adapterFor(loaded.row.type);
  if (!verified(adapter, loaded.channel)) throw new AppError('unauthorizedException');
  // Refused, not stored: the provider keeps its copy and can deliver it once the channel is active again.
  if (loaded.row.org_status !== 'active') throw new AppError('organizationDeactivatedException');
  if (loaded.row.status !== 'active') throw new AppError('deactivatedChannelException');
  return { row: loaded.row, adapter, channel: loaded.channel };
}
