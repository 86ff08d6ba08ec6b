import { siteChatCreateFields, siteChatUpdateFields } from '@smartconnect/contracts';
import { randomToken } from '../../lib/crypto.ts';
import type { ChannelAdapter } from '../types.ts';
import { PROOF_HEADER, VISITOR_HEADER, validProof, visitorOf } from './identity.ts';
import { parseSiteChat } from './parse.ts';

/**
 * The `site_chat` channel: the widget on a customer's site (widget/, served at /widget.js). Visitors talk to us
 * over the widget's own routes (modules/widget); their messages enter through this adapter like any provider's,
 * and our replies reach them from the database (history, resume) and the event bus (live), so `send` has
 * nothing to call: a message is delivered once it is stored.
 */
export const siteChatAdapter: ChannelAdapter = {
  type: 'site_chat',
  createSchema: siteChatCreateFields,
  updateSchema: siteChatUpdateFields,
  capabilities: {
    edit: true,
    // A bot's buttons: the widget shows them and sends the pressed one's payload back.
    buttons: true,
    templates: false,
    sessionWindowHours: null,
    textLimit: 10_000,
    attachments: { kinds: ['image', 'document'], maxBytes: 5 * 1024 * 1024 },
  },
  async connect(_ctx, _channel, input, current) {
    return {
      settings: { ...(current?.settings ?? {}), ...input },
      // The key that signs visitor identities; kept across updates (a new key would orphan every visitor).
      secrets: current?.secrets.visitorKey ? current.secrets : { visitorKey: randomToken() },
    };
  },
  disconnect: async () => undefined,
  verify: (channel, req) =>
    validProof(channel.secrets.visitorKey, req.rawBody, req.headers[PROOF_HEADER]) &&
    visitorOf(channel.secrets.visitorKey, channel.id, req.headers[VISITOR_HEADER]) !== null,
  parse: parseSiteChat,
  send: async () => ({ ok: true }),
  present: (settings) => siteChatCreateFields.parse(settings),
  inboundPath: (id) => `/api/widget/${id}/messages`,
};
