import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter, ChannelCapabilities } from '../types.ts';
import { avitoClientNames, avitoEnrich } from './chat.ts';
import { connectAvito, disconnectAvito, verifyAvito } from './connect.ts';
import { fetchAvitoMedia } from './media.ts';
import { parseAvito } from './parse.ts';
import { pollAvito } from './poll.ts';
import { AVITO_IMAGE_MAX, AVITO_TEXT_LIMIT, sendAvito } from './send.ts';

/**
 * What an Avito account's chats can do (docs/providers/avito.md): text up to 1000 characters and images (one per
 * upload, 24 MB); no edits (deleting within an hour exists at Avito, but our capabilities have no delete), no
 * buttons or templates, no session window. We cannot write first: a chat exists only once a customer wrote about a
 * listing.
 */
export const AVITO_CAPABILITIES: ChannelCapabilities = {
  startDialog: false,
  edit: false,
  buttons: false,
  templates: false,
  sessionWindowHours: null,
  textLimit: AVITO_TEXT_LIMIT,
  attachments: { kinds: ['image'], maxBytes: AVITO_IMAGE_MAX },
};

/**
 * The `avito` channel (issue 35): an Avito account through the Messenger API, with client credentials (api.ts), the
 * v3 webhook (connect.ts, parse.ts) with a reconciling poll for what it misses (poll.ts), the chat's customer and
 * listing (chat.ts), images and voice files (media.ts), text and images out (send.ts).
 */
export const avitoAdapter: ChannelAdapter = {
  type: 'avito',
  createSchema: CHANNEL_TYPE_FIELDS.avito,
  updateSchema: CHANNEL_TYPE_FIELDS.avito.partial(),
  capabilities: AVITO_CAPABILITIES,
  connect: connectAvito,
  disconnect: disconnectAvito,
  verify: verifyAvito,
  parse: parseAvito,
  send: sendAvito,
  fetchMedia: fetchAvitoMedia,
  poll: pollAvito,
  clientNames: avitoClientNames,
  enrich: avitoEnrich,
  present: (settings) => ({
    userId: settings.userId ?? null,
    name: settings.name ?? null,
    profileUrl: settings.profileUrl ?? null,
  }),
};
