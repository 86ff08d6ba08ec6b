import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter } from '../types.ts';
import { challengeWhatsApp, connectWhatsApp, verifyWhatsApp } from './connect.ts';
import { fetchWhatsAppMedia, WHATSAPP_MEDIA_MAX } from './media.ts';
import { parseWhatsApp } from './parse.ts';
import { sendWhatsApp, WHATSAPP_TEXT_LIMIT } from './send.ts';
import { listWhatsAppTemplates } from './templates.ts';

/** WhatsApp Business through Meta's Cloud API: one business phone number per channel. */
export const whatsappAdapter: ChannelAdapter = {
  type: 'whatsapp',
  createSchema: CHANNEL_TYPE_FIELDS.whatsapp,
  updateSchema: CHANNEL_TYPE_FIELDS.whatsapp.partial(),
  capabilities: {
    startDialog: false,
    edit: false,
    // A bot's buttons: interactive reply buttons (up to 3) or a list (up to 10); see interactive.ts.
    buttons: true,
    templates: true,
    // §4 WhatsApp session: free text only within 24 hours of the client's last message.
    sessionWindowHours: 24,
    textLimit: WHATSAPP_TEXT_LIMIT,
    attachments: { kinds: ['image', 'document', 'audio', 'video'], maxBytes: WHATSAPP_MEDIA_MAX },
  },
  connect: connectWhatsApp,
  // The webhook subscription belongs to the WABA (other channels may share it): nothing to undo at Meta.
  disconnect: async () => {},
  verify: verifyWhatsApp,
  challenge: challengeWhatsApp,
  parse: parseWhatsApp,
  send: sendWhatsApp,
  fetchMedia: fetchWhatsAppMedia,
  listTemplates: listWhatsAppTemplates,
  present: (settings) => ({
    phoneNumberId: settings.phoneNumberId ?? null,
    wabaId: settings.wabaId ?? null,
    displayPhoneNumber: settings.displayPhoneNumber ?? null,
    verifiedName: settings.verifiedName ?? null,
  }),
};
