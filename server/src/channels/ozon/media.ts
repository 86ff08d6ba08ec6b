import { fetchMarketplaceMedia } from '../marketplace.ts';
import type { AdapterChannel, AdapterContext, MediaDownload, MediaRef } from '../types.ts';
import { baseUrl, credentialsOf } from './api.ts';

/**
 * Downloads a file a buyer's message links to (parse.ts contentOf). Whether Ozon's file links need the seller's
 * credentials is not documented (open question 2): Client-Id and Api-Key go only to the API's own address
 * (marketplace.ts).
 */
export async function fetchOzonMedia(
  ctx: AdapterContext,
  channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  const creds = credentialsOf(channel);
  return fetchMarketplaceMedia(ctx, ref, baseUrl(ctx), {
    'Client-Id': creds.clientId,
    'Api-Key': creds.apiKey,
  });
}
