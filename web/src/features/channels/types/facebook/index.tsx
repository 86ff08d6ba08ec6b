import { IconBrandFacebook } from '@tabler/icons-react';
import { metaLoginUi } from '../meta/login-fields.tsx';
import type { ChannelTypeUi } from '../types.ts';

/** Facebook Messenger: log in through Facebook, choose the page, save. */
export const facebookChannel: ChannelTypeUi = {
  type: 'facebook',
  icon: IconBrandFacebook,
  guideSteps: ['messengers.facebook.step1', 'messengers.facebook.step2', 'messengers.facebook.step3'],
  ...metaLoginUi('facebook'),
};
