import { IconBrandInstagram } from '@tabler/icons-react';
import { metaLoginUi } from '../meta/login-fields.tsx';
import type { ChannelTypeUi } from '../types.ts';

/** Instagram Direct: log in through Facebook, choose the page with the Instagram business account, save (§2.6). */
export const instagramChannel: ChannelTypeUi = {
  type: 'instagram',
  icon: IconBrandInstagram,
  guideSteps: ['messengers.instagram.step1', 'messengers.instagram.step2', 'messengers.instagram.step3'],
  guideNote: 'messengers.instagram.note',
  ...metaLoginUi('instagram'),
};
