import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter } from '../types.ts';
import { connectApi } from './connect.ts';
import { parseApi } from './parse.ts';
import { sendWebhook } from './send.ts';
import { verifyApi } from './verify.ts';

/** The `api` channel: integrators push customer messages with a key and receive replies on a signed webhook. */
export const apiAdapter: ChannelAdapter = {
  type: 'api',
  createSchema: CHANNEL_TYPE_FIELDS.api,
  updateSchema: CHANNEL_TYPE_FIELDS.api.partial(),
  capabilities: {
    // The integrator's system receives every message by webhook, also one we start.
    startDialog: true,
    edit: true,
    // Carried in the webhook payload: the integrator shows them and posts a press back as a message.
    buttons: true,
    templates: false,
    sessionWindowHours: null,
    textLimit: 10_000,
    attachments: { kinds: ['image', 'document', 'audio', 'video'], maxBytes: 25 * 1024 * 1024 },
  },
  connect: connectApi,
  disconnect: async () => undefined,
  verify: verifyApi,
  parse: (_channel, req) => parseApi(req),
  send: sendWebhook,
  present: (settings) => ({ webhookUrl: settings.webhookUrl ?? null }),
  // The documented inbound URL of the API channel (a public contract); /status beside it.
  inboundPath: (id) => `/api/channels/${id}/inbound`,
};
