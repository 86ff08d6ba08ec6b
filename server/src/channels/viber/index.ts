import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import { NOT_POLLED_IDLE_MS } from '../long-poll.ts';
import type { ChannelAdapter, ChannelCapabilities } from '../types.ts';
import { regionOf } from './api.ts';
import { connectViberBusiness, verifyViberBusiness } from './connect.ts';
import { DEVINO, pollDevinoStatuses, sendDevino } from './devino.ts';
import { parseDevinoReplies } from './parse.ts';
import { SMSBY, sendSmsBy } from './smsby.ts';

/** Devino takes pictures by URL (JPG/PNG hosted by us); no size limit is published for this API: 10 MB is ours. */
const DEVINO_IMAGE_MAX = 10 * 1024 * 1024;

const RUSSIA: ChannelCapabilities = {
  // The business writes to a phone: any known client of the channel.
  startDialog: true,
  edit: false,
  // Devino takes one link button per message, no postbacks: our buttons are not shown.
  buttons: false,
  templates: false,
  sessionWindowHours: null,
  textLimit: DEVINO.textLimit,
  attachments: { kinds: ['image'], maxBytes: DEVINO_IMAGE_MAX },
};
/** SMS.by's single-message method takes text only (pictures only in bulk mailings). */
const BELARUS: ChannelCapabilities = {
  ...RUSSIA,
  textLimit: SMSBY.textLimit,
  attachments: { kinds: [], maxBytes: 0 },
};

/**
 * Viber business messages (`viber`) through the region's provider (DECISIONS.md "Regional Viber providers"):
 * Russia through Devino Telecom (text and pictures, the SMS fallback, delivery and read statuses polled, replies
 * posted by Devino to our webhook), Belarus through SMS.by (text out; its documents show no statuses or replies for
 * single messages).
 */
export const viberBusinessAdapter: ChannelAdapter = {
  type: 'viber',
  createSchema: CHANNEL_TYPE_FIELDS.viber,
  updateSchema: CHANNEL_TYPE_FIELDS.viber.partial(),
  capabilities: RUSSIA,
  capabilitiesOf: (settings) => (regionOf(settings) === 'by' ? BELARUS : RUSSIA),
  connect: connectViberBusiness,
  // Nothing is registered at either provider: Devino's reply address is set up by its support.
  disconnect: async () => {},
  verify: verifyViberBusiness,
  parse: (channel, req) => (regionOf(channel.settings) === 'ru' ? parseDevinoReplies(req) : []),
  // Devino wants 200 with an empty body.
  answer: () => '',
  send: (ctx, channel, m) =>
    regionOf(channel.settings) === 'by' ? sendSmsBy(ctx, channel, m) : sendDevino(ctx, channel, m),
  poll: (ctx, channel, session) =>
    regionOf(channel.settings) === 'ru'
      ? pollDevinoStatuses(ctx, channel, session)
      : Promise.resolve({ againInMs: NOT_POLLED_IDLE_MS }),
  // Settings of channels connected before the real providers (no SMS fallback fields) read as without it.
  present: (settings) => ({
    region: settings.region ?? null,
    login: settings.login ?? null,
    serviceId: settings.serviceId ?? null,
    phone: settings.phone ?? null,
    serviceName: settings.serviceName ?? null,
    smsFallback: settings.smsFallback === true,
    smsSender: typeof settings.smsSender === 'string' ? settings.smsSender : null,
  }),
};
