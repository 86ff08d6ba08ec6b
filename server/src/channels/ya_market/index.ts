import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter } from '../types.ts';
import { yaMarketEnrich } from './chat.ts';
import { connectYaMarket } from './connect.ts';
import { fetchYaMarketMedia } from './media.ts';
import { parseYaMarketPush } from './parse.ts';
import { pollYaMarket } from './poll.ts';
import { answerYaMarket, verifyYaMarket } from './push.ts';
import { sendYaMarket, YA_MARKET_FILE_MAX, YA_MARKET_TEXT_LIMIT } from './send.ts';

/**
 * A Yandex Market seller cabinet's buyer chats through the Partner API (issue 35, docs/providers/yandex-market.md):
 * the job runner polls the chats (poll.ts); replies and files go through the chat methods (send.ts). API
 * notifications (§6), when the seller sets them up, bring buyers' messages sooner (push.ts; their content is read
 * from Market in the enrich step, chat.ts); the poll still reads every chat that changed, since notifications are
 * dropped after Market's retries and carry no content.
 */
export const yaMarketAdapter: ChannelAdapter = {
  type: 'ya_market',
  createSchema: CHANNEL_TYPE_FIELDS.ya_market,
  updateSchema: CHANNEL_TYPE_FIELDS.ya_market.partial(),
  capabilities: {
    // No edit or delete method exists (§3.1).
    edit: false,
    buttons: false,
    templates: false,
    // Market documents no answering window (§4.1: refusals in closed chats are an open question).
    sessionWindowHours: null,
    textLimit: YA_MARKET_TEXT_LIMIT,
    // Any file up to 5 MB (§4.2; the allowed types are not documented).
    attachments: { kinds: ['image', 'document'], maxBytes: YA_MARKET_FILE_MAX },
  },
  connect: connectYaMarket,
  // Nothing is registered at Market: an inactive channel's poll is simply not run.
  disconnect: async () => {},
  verify: verifyYaMarket,
  parse: (channel, req) => parseYaMarketPush(req.rawBody, String(channel.settings.businessId ?? '')),
  answer: answerYaMarket,
  enrich: yaMarketEnrich,
  send: sendYaMarket,
  fetchMedia: fetchYaMarketMedia,
  poll: pollYaMarket,
  present: (settings) => ({ businessId: settings.businessId ?? null }),
};
