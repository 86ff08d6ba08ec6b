import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter } from '../types.ts';
import {
  connectViberBusiness,
  disconnectViberBusiness,
  registerViberBusiness,
  verifyViberBusiness,
} from './connect.ts';
import { parseViberBusiness } from './parse.ts';
import {
  fetchViberBusinessMedia,
  sendViberBusiness,
  VIBER_BUSINESS_MEDIA_MAX,
  VIBER_BUSINESS_TEXT_LIMIT,
} from './send.ts';

/**
 * Viber business messages (`viber`) through a regional delivery provider (Russia or Belarus): the business writes
 * to phones under its Viber service id; replies and delivery reports come back to our webhook, signed.
 */
export const viberBusinessAdapter: ChannelAdapter = {
  type: 'viber',
  createSchema: CHANNEL_TYPE_FIELDS.viber,
  updateSchema: CHANNEL_TYPE_FIELDS.viber.partial(),
  capabilities: {
    // The business writes to a phone: any known client of the channel.
    startDialog: true,
    edit: false,
    buttons: false,
    templates: false,
    sessionWindowHours: null,
    textLimit: VIBER_BUSINESS_TEXT_LIMIT,
    attachments: { kinds: ['image'], maxBytes: VIBER_BUSINESS_MEDIA_MAX },
  },
  connect: connectViberBusiness,
  register: registerViberBusiness,
  disconnect: disconnectViberBusiness,
  verify: verifyViberBusiness,
  parse: (_channel, req) => parseViberBusiness(req),
  send: sendViberBusiness,
  fetchMedia: fetchViberBusinessMedia,
  present: (settings) => ({
    region: settings.region ?? null,
    login: settings.login ?? null,
    serviceId: settings.serviceId ?? null,
    phone: settings.phone ?? null,
    serviceName: settings.serviceName ?? null,
  }),
};
