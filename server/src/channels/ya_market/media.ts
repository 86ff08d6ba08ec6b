import { fetchMarketplaceMedia } from '../marketplace.ts';
import type { AdapterChannel, AdapterContext, MediaDownload, MediaRef } from '../types.ts';
import { baseUrl, credentialsOf } from './api.ts';

/**
 * Downloads a file of a buyer's message (`payload[].url`, §3.1). Whether those links need the Api-Key is not
 * documented (open question 4): it goes only to the API's own address (marketplace.ts), never to another host.
 */
export async function fetchYaMarketMedia(
  ctx: AdapterContext,
  channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  return fetchMarketplaceMedia(ctx, ref, baseUrl(ctx), { 'Api-Key': credentialsOf(channel).apiKey });
}
