import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import { fetchPublicMedia } from '../download.ts';
import type { ChannelAdapter } from '../types.ts';
import { vkUserNames } from '../vk_bot/api.ts';
import { VK_CAPABILITIES } from '../vk_bot/index.ts';
import { sendVkBot, typingVk } from '../vk_bot/send.ts';
import { connectVk } from './connect.ts';
import { pollVk } from './poll.ts';

/**
 * A VK community through the Bots Long Poll API: the job runner asks VK for the community's events, so the server
 * needs no public address (the Callback API way, which needs one, is `vk_bot`). Sending, files and names are the
 * community bot's.
 */
export const vkAdapter: ChannelAdapter = {
  type: 'vk',
  createSchema: CHANNEL_TYPE_FIELDS.vk,
  updateSchema: CHANNEL_TYPE_FIELDS.vk.partial(),
  capabilities: VK_CAPABILITIES,
  connect: connectVk,
  // Deactivating leaves Long Poll on in the community: an inactive channel's poll is simply not run.
  disconnect: async () => {},
  // Nothing posts to a Long Poll channel: a request to its webhook address is refused (401).
  verify: () => false,
  parse: () => [],
  send: sendVkBot,
  typing: typingVk,
  fetchMedia: fetchPublicMedia,
  clientNames: (ctx, channel, ids) => vkUserNames(ctx, channel.secrets.token ?? '', ids),
  poll: pollVk,
  present: (settings) => ({
    groupId: settings.groupId ?? null,
    name: settings.name ?? null,
    screenName: settings.screenName ?? null,
  }),
};
