import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import { fetchPublicMedia } from '../download.ts';
import type { ChannelAdapter, ChannelCapabilities } from '../types.ts';
import { vkUserNames } from './api.ts';
import { connectVkBot, disconnectVkBot, removeVkBot, replaceVkBot, verifyVkBot } from './connect.ts';
import { VK_MEDIA_MAX } from './media.ts';
import { vkOauth } from './oauth.ts';
import { parseVkBot, vkAnswer } from './parse.ts';
import { sendVkBot, typingVk, VK_TEXT_LIMIT } from './send.ts';

/** What a VK community's dialogs can do, either way they arrive (Callback API here, Long Poll in `vk`). */
export const VK_CAPABILITIES: ChannelCapabilities = {
  // A community may write to a user who wrote to it (until they deny its messages).
  startDialog: true,
  edit: false,
  buttons: true,
  // An inline keyboard holds at most 6 rows (VK's keyboard limits); our buttons go one per row.
  buttonsMax: 6,
  templates: false,
  sessionWindowHours: null,
  textLimit: VK_TEXT_LIMIT,
  attachments: { kinds: ['image', 'document', 'audio', 'video'], maxBytes: VK_MEDIA_MAX },
};

/** A VK community bot (Callback API + messages.send): the community's private messages are customer dialogs. */
export const vkBotAdapter: ChannelAdapter = {
  type: 'vk_bot',
  createSchema: CHANNEL_TYPE_FIELDS.vk_bot,
  updateSchema: CHANNEL_TYPE_FIELDS.vk_bot.partial(),
  capabilities: VK_CAPABILITIES,
  connect: connectVkBot,
  oauth: vkOauth,
  disconnect: disconnectVkBot,
  remove: removeVkBot,
  replaced: replaceVkBot,
  verify: verifyVkBot,
  parse: (_channel, req) => parseVkBot(req),
  answer: vkAnswer,
  send: sendVkBot,
  typing: typingVk,
  fetchMedia: fetchPublicMedia,
  clientNames: (ctx, channel, ids) => vkUserNames(ctx, channel.secrets.token ?? '', ids),
  present: (settings) => ({
    groupId: settings.groupId ?? null,
    name: settings.name ?? null,
    screenName: settings.screenName ?? null,
    confirmation: settings.confirmation ?? null,
    callbackServerId: settings.callbackServerId ?? null,
  }),
};
