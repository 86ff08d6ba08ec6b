import { randomBytes } from 'node:crypto';
import { CHANNEL_TYPE_FIELDS } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { randomToken } from '../../lib/crypto.ts';
import { siteChatAdapter } from '../site_chat/index.ts';
import type { ChannelAdapter } from '../types.ts';

const fields = CHANNEL_TYPE_FIELDS.chat_page;

/**
 * The `chat_page` channel (§3, issue 34): a hosted full-page chat at `/c/{slug}` (modules/widget/page.ts), which is
 * the site widget rendered into the whole page: visitors talk over the widget's routes and socket exactly as on a
 * customer's site, so the adapter is the site chat's with its own fields (the address's slug). A slug left out is
 * made (12 hex characters); a slug another live page has is refused as an existing channel (and the unique index
 * `channels_chat_page_slug_uq` holds it against a race).
 */
export const chatPageAdapter: ChannelAdapter = {
  ...siteChatAdapter,
  type: 'chat_page',
  createSchema: fields,
  updateSchema: fields.partial(),
  async connect(ctx, channel, input, current) {
    const wanted = (input.slug as string | undefined) ?? (current?.settings.slug as string | undefined);
    const slug = wanted ?? randomBytes(6).toString('hex');
    if (wanted && wanted !== current?.settings.slug) {
      const taken = await ctx.db.query(
        `select 1 from channels where type = 'chat_page' and deleted_at is null and settings->>'slug' = $1 and id <> $2`,
        [slug, channel.id],
      );
      if (taken.length)
        throw new AppError('channelAlreadyExistsException', { slug: 'Value specified incorrectly' });
    }
    return {
      settings: { ...(current?.settings ?? {}), ...input, slug },
      // The key that signs visitor identities; kept across updates (a new key would orphan every visitor).
      secrets: current?.secrets.visitorKey ? current.secrets : { visitorKey: randomToken() },
    };
  },
  present: (settings) => ({ ...fields.parse(settings), slug: settings.slug }),
  inboundPath: (id) => `/api/widget/${id}/messages`,
};
