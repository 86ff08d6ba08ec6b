import { messengerAdapter } from '../meta/messenger.ts';

/** Facebook Messenger: a Facebook page's conversations, connected by logging in with Facebook. */
export const facebookAdapter = messengerAdapter({
  type: 'facebook',
  object: 'page',
  label: 'Facebook',
  scope: 'pages_show_list,pages_messaging,pages_manage_metadata',
});
