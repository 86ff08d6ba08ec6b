import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter, ChannelCapabilities } from '../types.ts';
import { connectApple, disconnectApple, verifyApple } from './connect.ts';
import { APPLE_MEDIA_MAX, fetchAppleMedia } from './media.ts';
import { parseApple } from './parse.ts';
import { APPLE_TEXT_LIMIT, sendApple, typingApple } from './send.ts';

/**
 * What a Messages for Business conversation can do (docs/providers/apple-business.md): text, files of any kind
 * (encrypted, 100 MB our limit), our postback buttons as a list picker; no edits or deletions (the API has none), no
 * templates, no session window documented. We cannot write first: a client's opaque id comes only with their message.
 */
export const APPLE_CAPABILITIES: ChannelCapabilities = {
  startDialog: false,
  edit: false,
  buttons: true,
  templates: false,
  sessionWindowHours: null,
  textLimit: APPLE_TEXT_LIMIT,
  attachments: { kinds: ['image', 'document', 'audio', 'video'], maxBytes: APPLE_MEDIA_MAX },
};

/**
 * The `apple_business_chat` channel (issue 35): Apple Messages for Business through a messaging service provider's
 * connection (business id, MSP id, API secret), Apple's JWT on every request both ways (api.ts, connect.ts), gzip
 * JSON in (parse.ts), encrypted attachments both ways (media.ts, send.ts).
 */
export const appleBusinessAdapter: ChannelAdapter = {
  type: 'apple_business_chat',
  createSchema: CHANNEL_TYPE_FIELDS.apple_business_chat,
  updateSchema: CHANNEL_TYPE_FIELDS.apple_business_chat.partial(),
  capabilities: APPLE_CAPABILITIES,
  connect: connectApple,
  disconnect: disconnectApple,
  verify: verifyApple,
  parse: (_channel, req) => parseApple(req),
  send: sendApple,
  typing: typingApple,
  fetchMedia: fetchAppleMedia,
  present: (settings) => ({ businessId: settings.businessId ?? null, mspId: settings.mspId ?? null }),
};
