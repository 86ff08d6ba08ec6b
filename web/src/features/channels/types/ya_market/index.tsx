import { IconBuildingStore } from '@tabler/icons-react';
import { marketplaceChannel } from '../marketplace.tsx';

/**
 * A Yandex Market cabinet's buyer chats through the Partner API (issue 35): the business ID and an Api-Key token; the
 * server reads the chats every 30 seconds, the order a chat is about shown on it; API notifications, set up by the
 * seller with the address shown once after creation, bring the buyers' messages sooner.
 */
export const yaMarketChannel = marketplaceChannel({
  type: 'ya_market',
  icon: IconBuildingStore,
  ns: 'ya_market',
  idField: 'businessId',
  idLabel: 'Business ID',
  testId: 'ya-market-push-url',
});
