import { siteChatCreateFields, siteChatUpdateFields } from '@smartconnect/contracts';
import { randomToken } from '../../lib/crypto.ts';
import type { ChannelAdapter } from '../types.ts';

/**
 * The `site_chat` channel: the widget on a customer's site (widget/, served at /widget.js). Visitors talk to us
 * over the widget's own routes and socket (modules/widget), which hand their messages to the ingest in process, so
 * no provider request ever comes to this adapter: the common webhook route refuses every one (401). Our replies
 * reach the visitor from the database (history, resume) and the event bus (live, modules/widget/gateway.ts), so
 * `send` has nothing to call: a message is delivered once it is stored.
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
    visitorWidget: true,
  },
  async connect(_ctx, _channel, input, current) {
    return {
      settings: { ...(current?.settings ?? {}), ...input },
      // The key that signs visitor identities; kept across updates (a new key would orphan every visitor).
      secrets: current?.secrets.visitorKey ? current.secrets : { visitorKey: randomToken() },
    };
  },
  disconnect: async () => undefined,
  // Visitors come through the widget's routes only: a request to the common webhook route is no visitor's.
  verify: () => false,
  parse: () => [],
  send: async () => ({ ok: true }),
  present: (settings) => siteChatCreateFields.parse(settings),
  inboundPath: (id) => `/api/widget/${id}/messages`,
};
