import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import type { ChannelAdapter } from '../types.ts';
import { answerCallbacks, connectTelegram, disconnectTelegram, verifyTelegram } from './connect.ts';
import { fetchTelegramMedia, TELEGRAM_DOWNLOAD_MAX } from './media.ts';
import { parseTelegram } from './parse.ts';
import { pollTelegram } from './poll.ts';
import { sendTelegram, TELEGRAM_TEXT_LIMIT, typingTelegram } from './send.ts';

/**
 * Telegram through the Bot API: a bot's private chats are customer dialogs. Its updates come by webhook, or by
 * getUpdates long polling for an installation without a public address (`updatesVia`).
 */
export const telegramAdapter: ChannelAdapter = {
  type: 'telegram',
  createSchema: CHANNEL_TYPE_FIELDS.telegram,
  updateSchema: CHANNEL_TYPE_FIELDS.telegram.partial(),
  capabilities: {
    // A bot may write to a user who has started it (a known client), until they block it.
    startDialog: true,
    edit: true,
    buttons: true,
    templates: false,
    sessionWindowHours: null,
    textLimit: TELEGRAM_TEXT_LIMIT,
    attachments: { kinds: ['image', 'document', 'audio', 'video'], maxBytes: 50 * 1024 * 1024 },
  },
  connect: connectTelegram,
  disconnect: disconnectTelegram,
  verify: verifyTelegram,
  parse: (_channel, req) => parseTelegram(req),
  send: sendTelegram,
  typing: typingTelegram,
  fetchMedia: fetchTelegramMedia,
  mediaMaxBytes: TELEGRAM_DOWNLOAD_MAX,
  afterReceive: answerCallbacks,
  // Channels with `updatesVia: 'polling'` read getUpdates (behind a firewall); the others answer idle.
  poll: pollTelegram,
  present: (settings) => ({
    username: settings.username ?? null,
    botId: settings.botId ?? null,
    updatesVia: settings.updatesVia ?? 'webhook',
  }),
};
