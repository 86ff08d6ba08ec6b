import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter } from '../types.ts';
import { connectViberBot, disconnectViberBot, registerViberBot, verifyViberBot } from './connect.ts';
import { fetchViberMedia, VIBER_MEDIA_MAX } from './media.ts';
import { parseViberBot, welcomeAnswer } from './parse.ts';
import { sendViberBot, VIBER_TEXT_LIMIT } from './send.ts';

/** A Viber bot (REST Bot API): its subscribers' one-to-one chats are customer dialogs. */
export const viberBotAdapter: ChannelAdapter = {
  type: 'viber_bot',
  createSchema: CHANNEL_TYPE_FIELDS.viber_bot,
  updateSchema: CHANNEL_TYPE_FIELDS.viber_bot.partial(),
  capabilities: {
    // A bot may write to a subscriber (a known client) until they unsubscribe.
    startDialog: true,
    edit: false,
    buttons: true,
    templates: false,
    sessionWindowHours: null,
    textLimit: VIBER_TEXT_LIMIT,
    attachments: { kinds: ['image', 'document', 'video'], maxBytes: VIBER_MEDIA_MAX },
  },
  connect: connectViberBot,
  register: registerViberBot,
  disconnect: disconnectViberBot,
  verify: verifyViberBot,
  parse: (_channel, req) => parseViberBot(req),
  answer: welcomeAnswer,
  send: sendViberBot,
  fetchMedia: fetchViberMedia,
  present: (settings) => ({
    accountId: settings.accountId ?? null,
    name: settings.name ?? null,
    uri: settings.uri ?? null,
    welcomeMessage: settings.welcomeMessage ?? null,
    photo: settings.photo ?? null,
  }),
};
