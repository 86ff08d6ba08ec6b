import { IconShoppingBag } from '@tabler/icons-react';
import { marketplaceChannel } from '../marketplace.tsx';

/**
 * An Ozon seller's buyer chats through the Seller API (issue 35): the seller's Client ID and API key; the server reads
 * the chats every 20 seconds, the order a chat is about shown on it; push notifications, set up by the seller with
 * the address shown once after creation, bring the buyers' messages sooner.
 */
export const ozonChannel = marketplaceChannel({
  type: 'ozon',
  icon: IconShoppingBag,
  ns: 'ozon',
  idField: 'clientId',
  idLabel: 'Client ID',
  testId: 'ozon-push-url',
});
