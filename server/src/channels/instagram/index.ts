import { messengerAdapter } from '../meta/messenger.ts';

/**
 * Instagram Direct of an Instagram business account linked to a Facebook page, connected by logging in with
 * Facebook (§2.6 Instagram guide) and answered through the page.
 */
export const instagramAdapter = messengerAdapter({
  type: 'instagram',
  object: 'instagram',
  label: 'Instagram',
  scope: 'instagram_basic,instagram_manage_messages,pages_show_list,pages_manage_metadata',
});
