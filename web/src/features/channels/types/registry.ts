import type { ChannelType } from '@smartconnect/contracts';
import {
  IconAddressBook,
  IconBrandApple,
  IconBrandFacebook,
  IconBrandInstagram,
  IconBrandTelegram,
  IconBrandViber,
  IconBrandVk,
  IconBrandWhatsapp,
  IconBuildingStore,
  IconDeviceMobile,
  IconDeviceMobileMessage,
  IconMail,
  IconMessages,
  IconPhoneCall,
  IconShoppingBag,
  IconWorldWww,
} from '@tabler/icons-react';
import { apiChannel } from './api/index.tsx';
import { appleBusinessChannel } from './apple_business_chat/index.tsx';
import { avitoChannel } from './avito/index.tsx';
import { chatPageChannel } from './chat_page/index.tsx';
import { emailChannel } from './email/index.tsx';
import { facebookChannel } from './facebook/index.tsx';
import { instagramChannel } from './instagram/index.tsx';
import { mobileAppChannel } from './mobile_app/index.tsx';
import { ozonChannel } from './ozon/index.tsx';
import { siteChatChannel } from './site_chat/index.tsx';
import { smsChannel } from './sms/index.tsx';
import { telegramChannel } from './telegram/index.tsx';
import type { ChannelTypeUi, TypeIcon } from './types.ts';
import { viberBusinessChannel } from './viber/index.tsx';
import { viberBotChannel } from './viber_bot/index.tsx';
import { vkChannel } from './vk/index.tsx';
import { vkBotChannel } from './vk_bot/index.tsx';
import { whatsappChannel } from './whatsapp/index.tsx';
import { yaMarketChannel } from './ya_market/index.tsx';

/** Every channel type the web app can create and edit: one line per type (the server's registry has the same). */
export const CHANNEL_UIS: Partial<Record<ChannelType, ChannelTypeUi>> = {
  api: apiChannel,
  telegram: telegramChannel,
  site_chat: siteChatChannel,
  email: emailChannel,
  whatsapp: whatsappChannel,
  viber_bot: viberBotChannel,
  vk_bot: vkBotChannel,
  instagram: instagramChannel,
  facebook: facebookChannel,
  viber: viberBusinessChannel,
  vk: vkChannel,
  sms: smsChannel,
  apple_business_chat: appleBusinessChannel,
  chat_page: chatPageChannel,
  mobile_app: mobileAppChannel,
  avito: avitoChannel,
  ozon: ozonChannel,
  ya_market: yaMarketChannel,
};

export const channelUi = (type: string): ChannelTypeUi | undefined => CHANNEL_UIS[type as ChannelType];

/**
 * The channel types of the spec (§3) and the API channel, in the order the "available" list shows them; a type
 * without an entry in CHANNEL_UIS is shown as coming soon. Labels are `channels.types.<type>`.
 */
export const CHANNEL_CATALOGUE: { type: string; icon: TypeIcon }[] = [
  { type: 'telegram', icon: IconBrandTelegram },
  { type: 'whatsapp', icon: IconBrandWhatsapp },
  { type: 'viber', icon: IconBrandViber },
  { type: 'viber_bot', icon: IconBrandViber },
  { type: 'vk', icon: IconBrandVk },
  { type: 'vk_bot', icon: IconBrandVk },
  { type: 'instagram', icon: IconBrandInstagram },
  { type: 'facebook', icon: IconBrandFacebook },
  { type: 'email', icon: IconMail },
  { type: 'site_chat', icon: IconMessages },
  { type: 'chat_page', icon: IconWorldWww },
  { type: 'voip', icon: IconPhoneCall },
  { type: 'mobile_app', icon: IconDeviceMobile },
  { type: 'apple_business_chat', icon: IconBrandApple },
  { type: 'avito', icon: IconAddressBook },
  { type: 'ozon', icon: IconShoppingBag },
  { type: 'ya_market', icon: IconBuildingStore },
  { type: 'sms', icon: IconDeviceMobileMessage },
  { type: 'api', icon: apiChannel.icon },
];

export const iconOf = (type: string): TypeIcon =>
  channelUi(type)?.icon ?? CHANNEL_CATALOGUE.find((c) => c.type === type)?.icon ?? IconMessages;
