import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter } from '../types.ts';

/** Placeholder while the type is built (issue 35): refuses to connect, sends nothing. */
export const yaMarketAdapter: ChannelAdapter = {
  type: 'ya_market',
  createSchema: CHANNEL_TYPE_FIELDS.ya_market,
  updateSchema: CHANNEL_TYPE_FIELDS.ya_market.partial(),
  capabilities: {
    edit: false,
    buttons: false,
    templates: false,
    sessionWindowHours: null,
    textLimit: 4_000,
    attachments: { kinds: [], maxBytes: 0 },
  },
  connect: async () => {
    throw new Error('not built yet');
  },
  disconnect: async () => undefined,
  verify: () => false,
  parse: () => [],
  send: async () => ({ ok: false, retryable: false, error: 'not built yet' }),
  present: () => ({}),
};
