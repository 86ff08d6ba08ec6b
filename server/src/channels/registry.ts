import type { ChannelType } from '@smartconnect/contracts';
import { apiAdapter } from './api/index.ts';
import { appleBusinessAdapter } from './apple_business_chat/index.ts';
import { avitoAdapter } from './avito/index.ts';
import { chatPageAdapter } from './chat_page/index.ts';
import { emailAdapter } from './email/index.ts';
import { facebookAdapter } from './facebook/index.ts';
import { instagramAdapter } from './instagram/index.ts';
import { mobileAppAdapter } from './mobile_app/index.ts';
import { ozonAdapter } from './ozon/index.ts';
import { siteChatAdapter } from './site_chat/index.ts';
import { smsAdapter } from './sms/index.ts';
import { telegramAdapter } from './telegram/index.ts';
import type { ChannelAdapter, ChannelCapabilities } from './types.ts';
import { viberBusinessAdapter } from './viber/index.ts';
import { viberBotAdapter } from './viber_bot/index.ts';
import { vkAdapter } from './vk/index.ts';
import { vkBotAdapter } from './vk_bot/index.ts';
import { whatsappAdapter } from './whatsapp/index.ts';
import { yaMarketAdapter } from './ya_market/index.ts';

/** Every channel type's adapter; a new provider adds one line here. */
const adapters: Record<ChannelType, ChannelAdapter> = {
  api: apiAdapter,
  telegram: telegramAdapter,
  site_chat: siteChatAdapter,
  email: emailAdapter,
  whatsapp: whatsappAdapter,
  viber_bot: viberBotAdapter,
  vk_bot: vkBotAdapter,
  instagram: instagramAdapter,
  facebook: facebookAdapter,
  viber: viberBusinessAdapter,
  vk: vkAdapter,
  sms: smsAdapter,
  avito: avitoAdapter,
  ozon: ozonAdapter,
  ya_market: yaMarketAdapter,
  apple_business_chat: appleBusinessAdapter,
  chat_page: chatPageAdapter,
  mobile_app: mobileAppAdapter,
};

export function adapterFor(type: string): ChannelAdapter {
  const adapter = adapters[type as ChannelType];
  if (!adapter) throw new Error(`no adapter for channel type ${type}`);
  return adapter;
}

/** What one channel can do: its type's capabilities as its settings make them (a WhatsApp BSP channel: no templates). */
export function channelCapabilities(type: string, settings: Record<string, unknown>): ChannelCapabilities {
  const adapter = adapterFor(type);
  return adapter.capabilitiesOf?.(settings) ?? adapter.capabilities;
}

/** The channel types whose adapters declare a capability (`visitorWidget`, say), in the registry's order. */
export const typesWith = (capability: 'visitorWidget' | 'startDialog'): ChannelType[] =>
  (Object.keys(adapters) as ChannelType[]).filter((t) => adapters[t].capabilities[capability] === true);
