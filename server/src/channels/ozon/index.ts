import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter } from '../types.ts';
import { connectOzon } from './connect.ts';
import { fetchOzonMedia } from './media.ts';
import { parseOzonPush } from './parse.ts';
import { pollOzon } from './poll.ts';
import { answerOzon, verifyOzon } from './push.ts';
import { OZON_FILE_MAX, OZON_TEXT_LIMIT, sendOzon } from './send.ts';

/**
 * An Ozon seller's buyer chats through the Seller API (issue 35, docs/providers/ozon.md): the job runner polls the
 * chats (poll.ts); replies, files and read marks go through the chat methods (send.ts). Push notifications (§6), when
 * the seller sets them up, bring buyers' messages sooner (push.ts); the poll still reads every chat, since pushes
 * are dropped after Ozon's retries and carry no order context.
 */
export const ozonAdapter: ChannelAdapter = {
  type: 'ozon',
  createSchema: CHANNEL_TYPE_FIELDS.ozon,
  updateSchema: CHANNEL_TYPE_FIELDS.ozon.partial(),
  capabilities: {
    edit: false,
    buttons: false,
    templates: false,
    // Ozon's windows (48 h after the buyer's last message for FBO, longer for FBS, §4.1) depend on the posting's
    // scheme, which the chat does not tell: not enforced here; Ozon refuses a message outside them.
    sessionWindowHours: null,
    textLimit: OZON_TEXT_LIMIT,
    attachments: { kinds: ['image', 'document'], maxBytes: OZON_FILE_MAX },
  },
  connect: connectOzon,
  // Nothing is registered at Ozon: an inactive channel's poll is simply not run.
  disconnect: async () => {},
  verify: verifyOzon,
  parse: (_channel, req) => parseOzonPush(req.body),
  answer: answerOzon,
  send: sendOzon,
  fetchMedia: fetchOzonMedia,
  poll: pollOzon,
  present: (settings) => ({ clientId: settings.clientId ?? null }),
};
