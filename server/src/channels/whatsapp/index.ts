import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter, ChannelCapabilities } from '../types.ts';
import { fetchBspMedia, parseBsp, sendBsp } from './bsp.ts';
import { messagingLimit } from './cloud-api.ts';
import { challengeWhatsApp, connectWhatsApp, providerOf, verifyWhatsApp } from './connect.ts';
import { fetchWhatsAppMedia, WHATSAPP_MEDIA_MAX } from './media.ts';
import { parseWhatsApp } from './parse.ts';
import { sendWhatsApp, WHATSAPP_TEXT_LIMIT } from './send.ts';
import { listWhatsAppTemplates } from './templates.ts';

const CLOUD_CAPABILITIES: ChannelCapabilities = {
  startDialog: false,
  edit: false,
  // A bot's buttons: interactive reply buttons (up to 3) or a list (up to 10); see interactive.ts.
  buttons: true,
  templates: true,
  // §4 WhatsApp session: free text only within 24 hours of the client's last message.
  sessionWindowHours: 24,
  textLimit: WHATSAPP_TEXT_LIMIT,
  attachments: { kinds: ['image', 'document', 'audio', 'video'], maxBytes: WHATSAPP_MEDIA_MAX },
};
/** A business solution provider: the same session, but no templates (its API here has no list of them). */
const BSP_CAPABILITIES: ChannelCapabilities = { ...CLOUD_CAPABILITIES, templates: false };
const capabilitiesOf = (settings: Record<string, unknown>) =>
  settings.provider === 'bsp' ? BSP_CAPABILITIES : CLOUD_CAPABILITIES;

/**
 * WhatsApp Business: one business phone number per channel, through Meta's Cloud API or a business solution
 * provider (bsp.ts; `settings.provider`). Both share the 24-hour session; templates are the Cloud API's only.
 */
export const whatsappAdapter: ChannelAdapter = {
  type: 'whatsapp',
  createSchema: CHANNEL_TYPE_FIELDS.whatsapp,
  updateSchema: CHANNEL_TYPE_FIELDS.whatsapp.partial(),
  capabilities: CLOUD_CAPABILITIES,
  // The composer offers templates only where the provider has them (a BSP channel has none: no 'templates' button).
  capabilitiesOf,
  connect: connectWhatsApp,
  // The webhook subscription belongs to the WABA (other channels may share it): nothing to undo at Meta.
  disconnect: async () => {},
  verify: verifyWhatsApp,
  challenge: challengeWhatsApp,
  parse: (channel, req) =>
    providerOf(channel) === 'bsp' ? parseBsp(channel, req) : parseWhatsApp(channel, req),
  send: (ctx, channel, m) =>
    providerOf(channel) === 'bsp' ? sendBsp(ctx, channel, m) : sendWhatsApp(ctx, channel, m),
  fetchMedia: (ctx, channel, ref) =>
    providerOf(channel) === 'bsp' ? fetchBspMedia(ctx, channel, ref) : fetchWhatsAppMedia(ctx, channel, ref),
  // Asked only of channels whose capabilities have templates (the Cloud API's): a BSP's are not read.
  listTemplates: listWhatsAppTemplates,
  // The Cloud API's tier; a business solution provider keeps its own limits (none known here).
  dailyRecipientLimit: async (ctx, channel) =>
    providerOf(channel) === 'bsp'
      ? null
      : messagingLimit(ctx, channel.secrets.accessToken ?? '', String(channel.settings.phoneNumberId ?? '')),
  present: (settings) => ({
    provider: settings.provider === 'bsp' ? 'bsp' : 'cloud',
    phone: settings.phone ?? null,
    login: settings.login ?? null,
    phoneNumberId: settings.phoneNumberId ?? null,
    wabaId: settings.wabaId ?? null,
    displayPhoneNumber: settings.displayPhoneNumber ?? null,
    verifiedName: settings.verifiedName ?? null,
  }),
};
